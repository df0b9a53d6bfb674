/**
 * The id renames a merge made, kept for the post-merge hook in `<git dir>/memfold-renames` (per
 * worktree, never in the workspace): one JSON line per rename, appended by `mem merge-driver` as it
 * merges a daily file, read by `mem merge-finish` and removed once applied (./merge-finish.ts). git runs the
 * driver only on files both sides changed, so a citing file one side changed alone is taken whole
 * and only the hook can rename its citations; the driver is the one place that knows the renames.
 * Each line names the two commits of its merge, so a line left by a merge that stopped on a conflict
 * is told apart from the merge that just finished instead of being applied to it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { git } from './auto-commit.js';
import type { IdRenames } from './merge-ids.js';
import type { OuterMerge } from './merge-context.js';

export interface RenameRecord {
  ours: string;
  theirs: string;
  /** The workspace's folder in the repository ('' at its top). */
  prefix: string;
  /** The side whose entry was renamed. */
  side: 'ours' | 'theirs';
  from: string;
  to: string;
}

export async function renamesFile(cwd: string): Promise<string> {
  const r = await git(cwd, ['rev-parse', '--git-path', 'memfold-renames']);
  if (r.code !== 0) throw new Error(`git rev-parse --git-path in ${cwd} failed: ${r.stderr.trim()}`);
  return path.resolve(cwd, r.stdout.trim());
}

const SHA = /^[0-9a-f]{40,64}$/;

/** The well-formed records of the file's text; a torn or hand-edited line is skipped. */
export function parseRecords(text: string): RenameRecord[] {
  return text.split('\n').flatMap((line) => {
    try {
      const r = JSON.parse(line) as Partial<RenameRecord>;
      const ok =
        SHA.test(r.ours ?? '') &&
        SHA.test(r.theirs ?? '') &&
        typeof r.prefix === 'string' &&
        (r.side === 'ours' || r.side === 'theirs') &&
        typeof r.from === 'string' &&
        typeof r.to === 'string' &&
        r.from !== '' &&
        r.to !== '';
      return ok ? [r as RenameRecord] : [];
    } catch {
      return [];
    }
  });
}

/** Appends the renames one daily file's merge made; returns how many. */
export async function recordRenames(m: OuterMerge, renamed: IdRenames): Promise<number> {
  const lines = (['ours', 'theirs'] as const).flatMap((side) =>
    [...renamed[side]].map(([from, to]) =>
      JSON.stringify({ ours: m.ours, theirs: m.theirs, prefix: m.prefix, side, from, to } satisfies RenameRecord),
    ),
  );
  if (lines.length) fs.appendFileSync(await renamesFile(m.cwd), lines.map((l) => `${l}\n`).join(''));
  return lines.length;
}

/**
 * The records of the workspace at `prefix`, and `remove` to take them out of the file once used (the
 * file goes when nothing is left): a run that fails first leaves them for `mem merge-finish` by hand.
 */
export async function readRenames(
  cwd: string,
  prefix: string,
): Promise<{ records: RenameRecord[]; remove: () => void }> {
  const file = await renamesFile(cwd);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { records: [], remove: () => {} };
    throw err;
  }
  const lines = text.split('\n').filter(Boolean);
  const mine = (l: string) => parseRecords(l)[0]?.prefix === prefix;
  const remove = () => {
    // Read again: another workspace's hook line may have taken its own records meanwhile.
    const now = fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n').filter(Boolean) : [];
    const rest = now.filter((l) => !mine(l) && parseRecords(l).length);
    if (rest.length) fs.writeFileSync(file, rest.map((l) => `${l}\n`).join(''));
    else fs.rmSync(file, { force: true });
  };
  return { records: parseRecords(lines.filter(mine).join('\n')), remove };
}
