/**
 * `mem init --git`: registers the memfold merge driver in the git config of the repository that
 * holds the workspace (DESIGN §2: one of the few writes outside the workspace). The driver command
 * uses absolute paths of node and the CLI, as git runs it without the user's PATH setup; the config
 * is per clone (.git/config), so each machine registers its own. No repository yet: `git init` first.
 * It also installs a pre-commit hook that runs `mem lint --secrets` (./hook.ts) and a post-merge hook
 * that runs `mem merge-finish` (./merge-hook.ts).
 */
import { MemError } from '../core/errors.js';
import { CLI_BIN } from '../core/cli-bin.js';
import { quote } from '../core/shell-quote.js';
import { git } from './auto-commit.js';
import { installSecretHook, type HookSetup } from './hook.js';
import { installMergeHook } from './merge-hook.js';

export interface GitSetup {
  repo: string;
  initialised: boolean;
  driver: string;
  hook: HookSetup;
  mergeHook: HookSetup;
}

export function driverCommand(): string {
  return `${quote(process.execPath)} ${quote(CLI_BIN)} merge-driver %O %A %B %P`;
}

export async function setupGit(workspace: string): Promise<GitSetup> {
  let top = await git(workspace, ['rev-parse', '--show-toplevel']);
  let initialised = false;
  if (top.code !== 0) {
    const init = await git(workspace, ['init', '-q']);
    if (init.code !== 0) throw new MemError('IO', `git init in ${workspace} failed: ${init.stderr.trim()}`);
    initialised = true;
    top = await git(workspace, ['rev-parse', '--show-toplevel']);
  }
  const driver = driverCommand();
  for (const [key, value] of [
    ['merge.memfold.name', 'memfold: union of memory entries by id'],
    ['merge.memfold.driver', driver],
  ] as const) {
    const r = await git(workspace, ['config', key, value]);
    if (r.code !== 0) throw new MemError('IO', `git config ${key} failed: ${r.stderr.trim()}`);
  }
  const hook = await installSecretHook(workspace);
  return { repo: top.stdout.trim(), initialised, driver, hook, mergeHook: await installMergeHook(workspace) };
}
