/**
 * `mem status`'s check that a clone's `.gitattributes` holds memfold's merge rules (templates/
 * gitattributes). A workspace set up by an older `mem init --git` covers only `memory/**`, so
 * MEMORY.md and the wrap-ups conflict on every pull and the weekly logs do not merge by run; nothing
 * said so. Also that the clone's post-merge hook runs `mem merge-finish` for the workspace (git/
 * merge-hook.ts), without which citations of an id a merge renamed stay wrong in files it took whole.
 * Checked only in a git work tree (a `.git` in the workspace or a folder above it). Read-only.
 */
import fs from 'node:fs';
import path from 'node:path';
import { quote } from '../core/shell-quote.js';
import { TEMPLATES_DIR } from '../workspace/templates.js';
import { hasMergeHook } from '../git/merge-hook.js';

function inGitWorkTree(dir: string): boolean {
  for (let d = path.resolve(dir); ; d = path.dirname(d)) {
    if (fs.existsSync(path.join(d, '.git'))) return true;
    if (path.dirname(d) === d) return false;
  }
}

const rules = (text: string) =>
  text
    .split(/\r?\n/)
    .map((l) => l.trim().replace(/\s+/g, ' '))
    .filter((l) => l && !l.startsWith('#'));

/** The warning, or undefined when the rules are all there (or the workspace is not in git). */
export function missingMergeRules(workspace: string): string | undefined {
  if (!inGitWorkTree(workspace)) return undefined;
  const wanted = rules(fs.readFileSync(path.join(TEMPLATES_DIR, 'gitattributes'), 'utf8'));
  let have: string[] = [];
  try {
    have = rules(fs.readFileSync(path.join(workspace, '.gitattributes'), 'utf8'));
  } catch {
    // No .gitattributes: every rule is missing.
  }
  const missing = wanted.filter((r) => !have.includes(r));
  const hook =
    hasMergeHook(workspace) === false
      ? `the clone's post-merge hook does not run "mem merge-finish" for this workspace (an older "mem init --git"): citations of an id a merge renames stay wrong in the files it takes whole from one side; run "mem init ${quote(workspace)} --git" on this clone`
      : undefined;
  if (!missing.length) return hook;
  return `${hook ? `${hook}; and ` : ''}.gitattributes lacks memfold's merge ${missing.length === 1 ? 'rule' : 'rules'} ${missing.map((r) => `"${r}"`).join(', ')} (an older "mem init --git"): those files conflict on pull; run "mem init ${quote(workspace)} --git" on this clone and commit .gitattributes`;
}
