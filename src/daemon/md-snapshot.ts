/**
 * What a job run changed in the Markdown truth: a cheap before/after look (size, mtime, entry count)
 * at every Markdown file of the workspace, so the job log can say "3 entries added, 1 file changed"
 * and git.autoCommit can commit exactly those files — without each job reporting it.
 */
import fs from 'node:fs';
import path from 'node:path';

export interface FileMark {
  sig: string;
  entries: number;
}

export type MdSnapshot = Map<string, FileMark>;

const SKIP_DIRS = new Set(['.git', '.mem', 'node_modules', '.locks']);
const ID_LINE = /^- id: \S/gm;

export function snapshotMarkdown(workspace: string): MdSnapshot {
  const out: MdSnapshot = new Map();
  const walk = (dir: string, rel: string) => {
    let names: fs.Dirent[];
    try {
      names = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const d of names) {
      const r = rel ? `${rel}/${d.name}` : d.name;
      if (d.isDirectory()) {
        if (!SKIP_DIRS.has(d.name)) walk(path.join(dir, d.name), r);
      } else if (d.isFile() && d.name.endsWith('.md') && !d.name.includes('.mem-tmp-')) {
        const full = path.join(dir, d.name);
        try {
          const st = fs.statSync(full);
          const entries = r.startsWith('memory/') ? (fs.readFileSync(full, 'utf8').match(ID_LINE) ?? []).length : 0;
          out.set(r, { sig: `${st.size}:${st.mtimeMs}`, entries });
        } catch {
          // Vanished between readdir and stat: another writer's rename; the after-look sees it.
        }
      }
    }
  };
  walk(workspace, '');
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
