/**
 * git.autoCommit for `mem merge-finish`, which runs inside git's post-merge hook: git still holds
 * MERGE_HEAD there, so `git commit -- <files>` refuses ("cannot do a partial commit during a merge")
 * and a plain `git commit` would make a second merge commit. The files are committed on top of the
 * merge commit with plumbing instead (add, write-tree, commit-tree, update-ref from the old HEAD), and
 * as auto-commit.ts does, never when the index holds staged changes that are not memfold's.
 */
import { git, type CommitResult } from './auto-commit.js';

export async function commitAfterMerge(workspace: string, files: string[], message: string): Promise<CommitResult> {
  const fail = (what: string, r: { stderr: string; stdout: string }) => ({
    committed: false,
    reason: `${what} failed: ${(r.stderr || r.stdout).trim()}`,
    files,
  });
  const head = await git(workspace, ['rev-parse', '--verify', 'HEAD']);
  if (head.code !== 0) return fail('git rev-parse HEAD', head);
  const staged = await git(workspace, ['diff', '--cached', '--name-only']);
  if (staged.code !== 0) return fail('git diff', staged);
  if (staged.stdout.trim())
    return { committed: false, reason: 'the index has unrelated staged changes; commit or unstage them first', files };
  const add = await git(workspace, ['add', '--', ...files]);
  if (add.code !== 0) return fail('git add', add);
  const tree = await git(workspace, ['write-tree']);
  if (tree.code !== 0) return fail('git write-tree', tree);
  const commit = await git(workspace, ['commit-tree', tree.stdout.trim(), '-p', head.stdout.trim(), '-m', message]);
  if (commit.code !== 0) return fail('git commit-tree', commit);
  const ref = await git(workspace, [
    'update-ref',
    '-m',
    'mem merge-finish',
    'HEAD',
    commit.stdout.trim(),
    head.stdout.trim(),
  ]);
  if (ref.code !== 0) return fail('git update-ref', ref);
  return { committed: true, files };
}
