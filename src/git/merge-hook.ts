/**
 * The post-merge hook `mem init --git` installs beside the pre-commit one (./hook.ts): after a merge,
 * `mem merge-finish` renames the citations of an id the merge renamed in the files git took whole
 * from one side, where the merge driver never ran (./merge-finish.ts). A hook never breaks a merge:
 * whatever happens, the line exits 0. `mem status` warns when a clone's hook lacks this workspace's line.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { CLI_BIN } from '../core/cli-bin.js';
import { quote } from '../core/shell-quote.js';
import { installHookLine, type HookSetup } from './hook.js';

const MERGE_BLOCK = '# >>> memfold: mem merge-finish >>>';

/**
 * git sets GIT_DIR (relative) for some hooks; the command runs in the workspace, so it finds the
 * repository itself. A failure is the command's one line on stderr; `|| true` keeps the hook quiet after it.
 */
export function mergeHookLine(workspace: string): string {
  return `(unset GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE; ${quote(process.execPath)} ${quote(CLI_BIN)} -C ${quote(workspace)} merge-finish) || true`;
}

export const installMergeHook = (workspace: string): Promise<HookSetup> =>
  installHookLine(workspace, 'post-merge', MERGE_BLOCK, mergeHookLine(workspace));

/** Whether the clone's post-merge hook runs `mem merge-finish` for `workspace`; undefined when git cannot say. */
export function hasMergeHook(workspace: string): boolean | undefined {
  let dir: string;
  try {
    const out = execFileSync('git', ['rev-parse', '--git-path', 'hooks'], {
      cwd: workspace,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    dir = path.resolve(workspace, out.trim());
  } catch {
    return undefined;
  }
  let text: string;
  try {
    text = fs.readFileSync(path.join(dir, 'post-merge'), 'utf8');
  } catch {
    return false;
  }
  // A foreign hook the user added the line to counts too.
  return text.includes(` -C ${quote(workspace)} merge-finish`);
}
