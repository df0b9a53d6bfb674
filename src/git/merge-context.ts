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
 */
import { git } from './auto-commit.js';
import { planIdRenamesOfTexts, type IdRenames } from './merge-ids.js';
import { toLf } from '../write/line-endings.js';

const NONE = (): IdRenames => ({ ours: new Map(), theirs: new Map() });

/** The workspace's folder in the repository, from the path of one of its files. */
function workspacePrefix(file: string): string | undefined {
  const m = /^(.*?)(?:MEMORY\.md|memory\/.*|second-brain\/.*)$/.exec(file);
  return m?.[1];
}

export async function renamesOfMerge(
  file: string,
  oursText: string,
  theirsText: string,
  env: NodeJS.ProcessEnv = process.env,
  cwd = process.cwd(),
): Promise<IdRenames> {
  const heads = Object.keys(env).flatMap((k) => /^GITHEAD_([0-9a-f]{40,64})$/.exec(k)?.[1] ?? []);
  const prefix = workspacePrefix(file);
  if (heads.length !== 1 || prefix === undefined) return NONE();
  const theirs = heads[0]!;
  const show = async (rev: string, p: string) => {
    const r = await git(cwd, ['cat-file', 'blob', `${rev}:${p}`]);
    return r.code === 0 ? r.stdout : undefined;
  };
  const [headOurs, headTheirs] = await Promise.all([show('HEAD', file), show(theirs, file)]);
  if (
    headOurs === undefined ||
    headTheirs === undefined ||
    toLf(headOurs) !== toLf(oursText) ||
    toLf(headTheirs) !== toLf(theirsText)
  )
    return NONE();
  const bases = (await git(cwd, ['merge-base', '--all', 'HEAD', theirs])).stdout.split('\n').filter(Boolean);
  const changed = async (to: string) => {
    const lists = await Promise.all(
      bases.map((b) => git(cwd, ['diff', '--name-only', '-z', b, to, '--', `${prefix}memory`])),
    );
    return new Set(
      lists
        .flatMap((r) => r.stdout.split('\0'))
        .filter((p) => p.endsWith('.md') && !p.startsWith(`${prefix}memory/archive/`)),
    );
  };
  const [ours, their] = await Promise.all([changed('HEAD'), changed(theirs)]);
  const out = NONE();
  for (const daily of [...ours].filter((p) => their.has(p)).sort()) {
    const [o, t, ...b] = await Promise.all([
      show('HEAD', daily),
      show(theirs, daily),
      ...bases.map((x) => show(x, daily)),
    ]);
    const plan = planIdRenamesOfTexts(b.filter((x) => x !== undefined).join('\n\n'), o ?? '', t ?? '');
    for (const side of ['ours', 'theirs'] as const) for (const [from, to] of plan[side]) out[side].set(from, to);
  }
  return out;
}
