/**
 * What a job run changed in the Markdown truth: a cheap before/after look (size, mtime, entry count)
 * at every Markdown file of the workspace and the committed hard-forget marks, so the job log can say
 * "3 entries added, 1 file changed" and git.autoCommit can commit exactly those files — without each
 * job reporting it.
 */
import fs from 'node:fs';
import { FORGOTTEN_FILE } from '../workspace/layout.js';
import { walkFolder } from '../workspace/markdown-files.js';

export interface FileMark {
  sig: string;
  entries: number;
}

export type MdSnapshot = Map<string, FileMark>;

const SKIP_DIRS = new Set(['.git', '.mem', 'node_modules', '.locks']);
const ID_LINE = /^- id: \S/gm;

export function snapshotMarkdown(workspace: string): MdSnapshot {
  const out: MdSnapshot = new Map();
  walkFolder(
    workspace,
    (abs, rel, d) => {
      // The committed hard-forget marks go with the Markdown they were taken out of (jobs/forgotten.ts).
      if (!d.isFile() || !(d.name.endsWith('.md') || rel === FORGOTTEN_FILE) || d.name.includes('.mem-tmp-')) return;
      try {
        const st = fs.statSync(abs);
        const entries = rel.startsWith('memory/') ? (fs.readFileSync(abs, 'utf8').match(ID_LINE) ?? []).length : 0;
        out.set(rel, { sig: `${st.size}:${st.mtimeMs}`, entries });
      } catch {
        // Vanished between readdir and stat: another writer's rename; the after-look sees it.
      }
    },
    (name) => !SKIP_DIRS.has(name),
  );
  return out;
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
