/**
 * `mem merge-finish`, run by the post-merge hook (./merge-hook.ts): git runs the merge driver only on
 * files both sides changed, so when a merge renamed an id both machines created (./merge-ids.ts), a
 * weekly log, wrap-up or MEMORY.md that only the renamed entry's side changed was taken whole, its
 * citations still naming the bare id, which is now the other machine's entry. This renames them: for
 * each rename the driver recorded (./merge-record.ts), the citing files changed between the merge base
 * and that side's commit and not on the other side, with the driver's own citation rename. The id was
 * new on both sides, so every citation of it in such a file was written by that side and means its
 * entry. Records of another merge are dropped: named when it was merged after all (it stopped on a
 * conflict, so no hook ran), silently when it was aborted.
 */
import { git } from './auto-commit.js';
import { changedSinceBases, type OuterMerge } from './merge-context.js';
import { citesEntries, mergeKindOf } from './merge-file.js';
import { renameCitations } from './merge-ids.js';
import { readRenames, type RenameRecord } from './merge-record.js';
import { append } from '../core/group.js';
import { WorkspaceWriter } from '../write/writer.js';
import type { LockOptions } from '../write/locks.js';

/** The folders of a workspace whose files cite entries. */
const CITING = ['MEMORY.md', 'memory/archive', 'second-brain/summaries'];

export interface FinishResult {
  /** Workspace-relative files rewritten, each with the renames applied to it. */
  changed: { file: string; renames: [string, string][] }[];
  /** Records of an earlier merge that ended without the hook, not applied. */
  dropped: RenameRecord[];
}

const rev = async (cwd: string, r: string) => {
  const out = await git(cwd, ['rev-parse', '--verify', '-q', r]);
  return out.code === 0 ? out.stdout.trim() : undefined;
};

/** Whether the records' merge is the one that just finished: HEAD is its merge commit, or still ours (--squash). */
async function isThisMerge(cwd: string, r: RenameRecord): Promise<boolean> {
  const [head, first, second] = await Promise.all([rev(cwd, 'HEAD'), rev(cwd, 'HEAD^1'), rev(cwd, 'HEAD^2')]);
  return (first === r.ours && second === r.theirs) || head === r.ours;
}

/** Whether both commits of the records' merge are in HEAD's history: the merge happened, another way. */
async function wasMerged(cwd: string, r: RenameRecord): Promise<boolean> {
  const isIn = async (c: string) => (await git(cwd, ['merge-base', '--is-ancestor', c, 'HEAD'])).code === 0;
  return (await isIn(r.ours)) && (await isIn(r.theirs));
}

/** Workspace-relative citing files the merge took whole from `side`, each with that side's renames. */
async function plan(cwd: string, records: RenameRecord[]): Promise<Map<string, Map<string, string>>> {
  const [r] = records;
  const bases = (await git(cwd, ['merge-base', '--all', r!.ours, r!.theirs])).stdout.split('\n').filter(Boolean);
  const m: OuterMerge = { ours: r!.ours, theirs: r!.theirs, bases, prefix: r!.prefix, cwd };
  const [ours, theirs] = await Promise.all([
    changedSinceBases(m, m.ours, CITING),
    changedSinceBases(m, m.theirs, CITING),
  ]);
  const out = new Map<string, Map<string, string>>();
  for (const rec of records) {
    const [mine, other] = rec.side === 'ours' ? [ours, theirs] : [theirs, ours];
    for (const file of mine) {
      if (other.has(file) || !file.startsWith(m.prefix) || !citesEntries(mergeKindOf(file))) continue;
      const rel = file.slice(m.prefix.length);
      out.set(rel, (out.get(rel) ?? new Map<string, string>()).set(rec.from, rec.to));
    }
  }
  return out;
}

export async function finishMerge(workspace: string, locks: LockOptions): Promise<FinishResult> {
  const prefix = await git(workspace, ['rev-parse', '--show-prefix']);
  if (prefix.code !== 0) throw new Error(`not in a git work tree: ${prefix.stderr.trim()}`);
  const { records, remove } = await readRenames(workspace, prefix.stdout.trim());
  const result: FinishResult = { changed: [], dropped: [] };
  if (!records.length) return result;
  const writer = new WorkspaceWriter(workspace, 'merge-finish', locks);
  const byMerge = new Map<string, RenameRecord[]>();
  for (const r of records) append(byMerge, `${r.ours} ${r.theirs}`, r);
  for (const recs of byMerge.values()) {
    if (!(await isThisMerge(workspace, recs[0]!))) {
      // Merged since without the hook (a conflict resolved by hand): named. Aborted: nothing to say.
      if (await wasMerged(workspace, recs[0]!)) result.dropped.push(...recs);
      continue;
    }
    for (const [file, renames] of [...(await plan(workspace, recs))].sort(([a], [b]) => a.localeCompare(b))) {
      const done = await writer.update(file, (text) =>
        text === undefined ? undefined : renameCitations(text, renames),
      );
      if (done) result.changed.push({ file, renames: [...renames] });
    }
  }
  remove();
  return result;
}
