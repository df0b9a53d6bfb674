/**
 * git.autoCommit: after a job that changed Markdown, commit exactly those files with a message naming
 * the job and its counts. Never pushes. Skips (with a reason, never an error) when the workspace is
 * not in a git repository or the index already holds staged changes of someone else's work, so a
 * person's half-prepared commit is never swept into a memfold commit.
 */
import { count } from '../core/count.js';

export interface CommitResult {
  committed: boolean;
  reason?: string;
  files: string[];
}

/** Loads child_process on first use: `mem index` and `mem search` load this module but rarely commit. */
export async function git(cwd: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const { execFile } = await import('node:child_process');
  return new Promise((resolve) => {
    execFile('git', args, { cwd, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
      const code = err
        ? typeof (err as { code?: unknown }).code === 'number'
          ? (err as { code: number }).code
          : 1
        : 0;
      resolve({ code, stdout: String(stdout), stderr: String(stderr) });
    });
  });
}

export function commitMessage(job: string, counts: Record<string, number>, files: string[]): string {
  const parts: string[] = [];
  if (counts.entriesAdded) parts.push(`${count(counts.entriesAdded, 'entry', 'entries')} added`);
  if (counts.entriesRemoved) parts.push(`${count(counts.entriesRemoved, 'entry', 'entries')} removed`);
  for (const [k, v] of Object.entries(counts))
    if (v && !['entriesAdded', 'entriesRemoved', 'filesChanged'].includes(k)) parts.push(`${k} ${v}`);
  parts.push(`${count(files.length, 'file')} changed`);
  return `mem ${job}: ${parts.join(', ')}\n\n${files.map((f) => `- ${f}`).join('\n')}\n`;
}

export async function autoCommit(workspace: string, files: string[], message: string): Promise<CommitResult> {
  if (!files.length) return { committed: false, reason: 'nothing changed', files };
  if ((await git(workspace, ['rev-parse', '--show-toplevel'])).code !== 0)
    return { committed: false, reason: 'not a git repository', files };
  const staged = await git(workspace, ['diff', '--cached', '--name-only']);
  if (staged.code !== 0) return { committed: false, reason: `git diff failed: ${staged.stderr.trim()}`, files };
  if (staged.stdout.trim())
    return { committed: false, reason: 'the index has unrelated staged changes; commit or unstage them first', files };
  const add = await git(workspace, ['add', '-A', '--', ...files]);
  if (add.code !== 0) return { committed: false, reason: `git add failed: ${add.stderr.trim()}`, files };
  const commit = await git(workspace, ['commit', '--no-verify', '-q', '-m', message, '--', ...files]);
  if (commit.code !== 0)
    return { committed: false, reason: `git commit failed: ${(commit.stderr || commit.stdout).trim()}`, files };
  return { committed: true, files };
}
