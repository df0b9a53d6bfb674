/**
 * What a job run changed in the Markdown truth: a cheap before/after look (size, mtime, entry count)
 * at every Markdown file of the workspace and the committed hard-forget marks, so the job log can say
 * "3 entries added, 1 file changed" and git.autoCommit can commit exactly those files — without each
 * job reporting it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { readDerivedJson, writeDerivedFile } from '../write/atomic.js';
import { FORGOTTEN_FILE } from '../workspace/layout.js';
import { walkFolder } from '../workspace/markdown-files.js';

export interface FileMark {
  sig: string;
  entries: number;
  /** size, mtime and ctime: when it equals the one a count was kept under, the count is not made again. */
  stamp: string;
}

export type MdSnapshot = Map<string, FileMark>;

const SKIP_DIRS = new Set(['.git', '.mem', 'node_modules', '.locks']);
const ID_LINE = /^- id: \S/gm;
/** The last run's after-look, kept so the next run's before-look reads only files changed since (derived, per machine). */
const KEPT = path.join('.mem', 'md-entries.json');

/**
 * Every Markdown file's mark. A memory file's entries are counted by reading it, unless `known` (the
 * look before this one, or the last run's, kept in `.mem/`) holds it under the same stamp: a job
 * reads only the files changed since (at 10,000 files, reading them all took about a second a look).
 */
export function snapshotMarkdown(workspace: string, known: MdSnapshot = new Map()): MdSnapshot {
  const out: MdSnapshot = new Map();
  walkFolder(
    workspace,
    (abs, rel, d) => {
      // The committed hard-forget marks go with the Markdown they were taken out of (jobs/forgotten.ts).
      if (!d.isFile() || !(d.name.endsWith('.md') || rel === FORGOTTEN_FILE) || d.name.includes('.mem-tmp-')) return;
      try {
        const st = fs.statSync(abs);
        const stamp = `${st.size}:${st.mtimeMs}:${st.ctimeMs}`;
        const had = known.get(rel);
        const entries =
          had?.stamp === stamp
            ? had.entries
            : rel.startsWith('memory/')
              ? (fs.readFileSync(abs, 'utf8').match(ID_LINE) ?? []).length
              : 0;
        out.set(rel, { sig: `${st.size}:${st.mtimeMs}`, entries, stamp });
      } catch {
        // Vanished between readdir and stat: another writer's rename; the after-look sees it.
      }
    },
    (name) => !SKIP_DIRS.has(name),
  );
  return out;
}

/** The last run's after-look, or nothing when it is missing or damaged. */
export function keptSnapshot(workspace: string): MdSnapshot {
  const v = readDerivedJson(path.join(workspace, KEPT));
  const out: MdSnapshot = new Map();
  if (!v || typeof v !== 'object') return out;
  for (const [rel, m] of Object.entries(v as Record<string, unknown>)) {
    const mark = m as Partial<FileMark>;
    if (typeof mark?.sig === 'string' && typeof mark.stamp === 'string' && Number.isInteger(mark.entries))
      out.set(rel, mark as FileMark);
  }
  return out;
}

/** Keeps a run's after-look for the next run (best effort: without it the next look reads every file). */
export function keepSnapshot(workspace: string, snap: MdSnapshot): void {
  try {
    writeDerivedFile(path.join(workspace, KEPT), JSON.stringify(Object.fromEntries(snap)));
  } catch {
    // A read-only .mem/: the next run counts again.
  }
}

export interface MdChanges {
  changed: string[];
  entriesAdded: number;
  entriesRemoved: number;
}

export function diffMarkdown(before: MdSnapshot, after: MdSnapshot): MdChanges {
  const changed: string[] = [];
  let delta = 0;
  let removed = 0;
  for (const [file, mark] of after) {
    const was = before.get(file);
    if (!was || was.sig !== mark.sig) changed.push(file);
    const d = mark.entries - (was?.entries ?? 0);
    if (d > 0) delta += d;
    else removed -= d;
  }
  for (const [file, was] of before) {
    if (!after.has(file)) {
      changed.push(file);
      removed += was.entries;
    }
  }
  return { changed: changed.sort(), entriesAdded: delta, entriesRemoved: removed };
}
