/**
 * The pre-commit hook `mem init --git` installs: `mem lint --secrets` on the workspace, so a key
 * pasted into a memory file by hand is caught before it is committed (and pushed). A hook the user
 * already has is never overwritten: they are told the one line to add instead.
 */
import fs from 'node:fs';
import path from 'node:path';
import { CLI_BIN } from '../daemon/child.js';
import { quote } from '../schedule/crontab.js';
import { git } from './auto-commit.js';

const BEGIN = '# >>> memfold: mem lint --secrets >>>';
const END = '# <<< memfold <<<';

export interface HookSetup {
  path: string;
  state: 'installed' | 'present' | 'foreign';
  /** For a foreign hook: the line to add to it. */
  line: string;
}

export function hookLine(workspace: string): string {
  return `${quote(process.execPath)} ${quote(CLI_BIN)} -C ${quote(workspace)} -q lint --secrets || { echo "memfold: a secret is about to be committed (see above); remove it, or commit with --no-verify if it is not one" >&2; exit 1; }`;
}

export async function installSecretHook(workspace: string): Promise<HookSetup> {
  const r = await git(workspace, ['rev-parse', '--git-path', 'hooks']);
  const dir = path.resolve(workspace, r.stdout.trim() || '.git/hooks');
  const file = path.join(dir, 'pre-commit');
  const line = hookLine(workspace);
  const current = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined;
  if (current?.includes(BEGIN)) return { path: file, state: 'present', line };
  if (current !== undefined) return { path: file, state: 'foreign', line };
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(file, `#!/bin/sh\n${BEGIN}\n${line}\n${END}\n`, { mode: 0o755 });
  return { path: file, state: 'installed', line };
}
