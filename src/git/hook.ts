/**
 * The git hooks `mem init --git` installs, each a block of memfold lines in the hook file: the
 * pre-commit hook runs `mem lint --secrets` on the workspace, so a key pasted into a memory file by
 * hand is caught before it is committed (and pushed); the post-merge hook runs `mem merge-finish`
 * (./merge-hook.ts). A hook the user already has is never overwritten: they are told the one line to
 * add instead. Several workspaces in one repository (or its linked worktrees, which share hooks) each
 * get a line in the one block.
 */
import fs from 'node:fs';
import path from 'node:path';
import { CLI_BIN } from '../core/cli-bin.js';
import { quote } from '../core/shell-quote.js';
import { git } from './auto-commit.js';

const END = '# <<< memfold <<<';
const SECRET_BLOCK = '# >>> memfold: mem lint --secrets >>>';

export interface HookSetup {
  path: string;
  state: 'installed' | 'present' | 'added' | 'foreign';
  /** For a foreign hook: the line to add to it. */
  line: string;
}

export function hookLine(workspace: string): string {
  // Exit 5 is "secrets found"; anything else (workspace moved, node gone) also stops the commit, saying why.
  return `${quote(process.execPath)} ${quote(CLI_BIN)} -C ${quote(workspace)} -q lint --secrets; mem_s=$?; if [ $mem_s -ne 0 ]; then if [ $mem_s -eq 5 ]; then echo "memfold: a secret is about to be committed (see above); remove it, or commit with --no-verify if it is not one" >&2; else echo "memfold: the secret scan could not run (exit $mem_s, see above); fix it or run mem init --git again, or commit with --no-verify" >&2; fi; exit 1; fi`;
}

/** The hooks folder git uses for the repository holding `workspace` (core.hooksPath honoured). */
export async function hooksDir(workspace: string): Promise<string> {
  const r = await git(workspace, ['rev-parse', '--git-path', 'hooks']);
  return path.resolve(workspace, r.stdout.trim() || '.git/hooks');
}

/** The memfold block `begin` … END of hook `name` holds `line` (for `workspace`) afterwards, unless the hook is foreign. */
export async function installHookLine(
  workspace: string,
  name: string,
  begin: string,
  line: string,
): Promise<HookSetup> {
  const dir = await hooksDir(workspace);
  const file = path.join(dir, name);
  const current = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined;
  if (current?.includes(begin) && current.includes(END)) {
    if (current.includes(` -C ${quote(workspace)} `)) return { path: file, state: 'present', line };
    // Another workspace of this repository is served already: this one too.
    const at = current.indexOf(END, current.indexOf(begin));
    fs.writeFileSync(file, `${current.slice(0, at)}${line}\n${current.slice(at)}`);
    return { path: file, state: 'added', line };
  }
  if (current !== undefined) return { path: file, state: 'foreign', line };
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(file, `#!/bin/sh\n${begin}\n${line}\n${END}\n`, { mode: 0o755 });
  return { path: file, state: 'installed', line };
}

export const installSecretHook = (workspace: string): Promise<HookSetup> =>
  installHookLine(workspace, 'pre-commit', SECRET_BLOCK, hookLine(workspace));
