/**
 * The id renames of the merge git is running (`mem merge-driver`), for the files that cite entries
 * (weekly logs, MEMORY.md, wrap-ups): git hands the driver one file at a time, and merges MEMORY.md
 * and the weekly logs in no fixed order relative to the daily files, so each citing file's merge
 * works the renames out itself from the daily files of both commits, with the same plan the daily
 * file's own merge follows (./merge-ids.ts). Citations of an id that lost its bare form then name
 * the renamed entry in the same merge (they used to keep naming the bare id, now the other entry).
 * Known only in a `git merge` or `git pull`, which tell the driver the commit being merged
 * (GITHEAD_<sha>); and only in the outer merge, where ours and theirs are HEAD's and that commit's
 * versions of the file (not in the merge of two merge bases of a criss-cross). Otherwise: no renames.
 * The daily file's merge records its renames for the post-merge hook (./merge-record.ts).
 */
import { git } from './auto-commit.js';
import { planIdRenamesOfTexts, type IdRenames } from './merge-ids.js';
import { toLf } from '../write/line-endings.js';

const NONE = (): IdRenames => ({ ours: new Map(), theirs: new Map() });

/** The outer merge git is running on one file: the commits, the merge bases, the workspace's folder. */
export interface OuterMerge {
  ours: string;
  theirs: string;
  bases: string[];
  /** The workspace's folder in the repository ('' at its top, else ending in '/'). */
  prefix: string;
  cwd: string;
}

/** The workspace's folder in the repository, from the path of one of its files. */
function workspacePrefix(file: string): string | undefined {
  const m = /^(.*?)(?:MEMORY\.md|memory\/.*|second-brain\/.*)$/.exec(file);
  return m?.[1];
}

const show = async (cwd: string, rev: string, p: string) => {
  const r = await git(cwd, ['cat-file', 'blob', `${rev}:${p}`]);
  return r.code === 0 ? r.stdout : undefined;
};

/** The outer merge of `file`, or undefined (no GITHEAD_, a rebase, the inner merge of a criss-cross). */
export async function outerMergeOf(
  file: string,
  oursText: string,
  theirsText: string,
  env: NodeJS.ProcessEnv = process.env,
  cwd = process.cwd(),
): Promise<OuterMerge | undefined> {
  const heads = Object.keys(env).flatMap((k) => /^GITHEAD_([0-9a-f]{40,64})$/.exec(k)?.[1] ?? []);
  const prefix = workspacePrefix(file);
  if (heads.length !== 1 || prefix === undefined) return undefined;
  const theirs = heads[0]!;
  const [headOurs, headTheirs] = await Promise.all([show(cwd, 'HEAD', file), show(cwd, theirs, file)]);
  if (
    headOurs === undefined ||
    headTheirs === undefined ||
    toLf(headOurs) !== toLf(oursText) ||
    toLf(headTheirs) !== toLf(theirsText)
  )
    return undefined;
  const ours = (await git(cwd, ['rev-parse', 'HEAD'])).stdout.trim();
  const bases = (await git(cwd, ['merge-base', '--all', 'HEAD', theirs])).stdout.split('\n').filter(Boolean);
  return { ours, theirs, bases, prefix, cwd };
}

/** The files under `folders` of the workspace that changed between a merge base and `to`, from any folder of the repository. */
export async function changedSinceBases(m: OuterMerge, to: string, folders: string[]): Promise<Set<string>> {
  const lists = await Promise.all(
    m.bases.map((b) =>
      git(m.cwd, ['diff', '--name-only', '-z', b, to, '--', ...folders.map((f) => `:(top)${m.prefix}${f}`)]),
    ),
  );
  return new Set(lists.flatMap((r) => r.stdout.split('\0')).filter(Boolean));
}

export async function renamesOfMerge(
  file: string,
  oursText: string,
  theirsText: string,
  env: NodeJS.ProcessEnv = process.env,
  cwd = process.cwd(),
): Promise<IdRenames> {
  const m = await outerMergeOf(file, oursText, theirsText, env, cwd);
  if (!m) return NONE();
  const changed = async (to: string) =>
    new Set(
      [...(await changedSinceBases(m, to, ['memory']))].filter(
        (p) => p.endsWith('.md') && !p.startsWith(`${m.prefix}memory/archive/`),
      ),
    );
  const [ours, their] = await Promise.all([changed(m.ours), changed(m.theirs)]);
  const out = NONE();
  for (const daily of [...ours].filter((p) => their.has(p)).sort()) {
    const [o, t, ...b] = await Promise.all([
      show(cwd, m.ours, daily),
      show(cwd, m.theirs, daily),
      ...m.bases.map((x) => show(cwd, x, daily)),
    ]);
    const plan = planIdRenamesOfTexts(b.filter((x) => x !== undefined).join('\n\n'), o ?? '', t ?? '');
    for (const side of ['ours', 'theirs'] as const) for (const [from, to] of plan[side]) out[side].set(from, to);
  }
  return out;
}
