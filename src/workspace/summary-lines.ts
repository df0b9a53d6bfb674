/**
 * The line count of every summary (`second-brain/summaries/*.md`), what `mem status`'s summaryLines
 * check measures. Reading 3,000 summaries was a fifth of a status at 10,000 files, so the writers that
 * store status's summary (entries/governance-refresh.ts) also keep each summary's count in
 * `.mem/entries/summary-lines.json` under the file's size, mtime and ctime.
 *
 * Invariant: a stored count is used only for a file stated now exactly as when it was counted; any
 * other file is read and counted, so the counts are those of reading every file, with the store
 * stale, damaged or gone. A read never writes the store (DESIGN invariant 4).
 */
import fs from 'node:fs';
import path from 'node:path';
import { writeDerivedFile } from '../write/atomic.js';

export const SUMMARIES_DIR = 'second-brain/summaries';
const STORE = '.mem/entries/summary-lines.json';
const LAYOUT = 1;

type Stamp = [size: number, mtimeMs: number, ctimeMs: number];
const STAT = { throwIfNoEntry: false } as const;
export interface SummaryLines {
  /** Workspace-relative, sorted. */
  path: string;
  value: number;
  mtimeMs: number;
  stamp: Stamp;
}

/** A file's lines, a last line without its newline counted, from its bytes (not decoded). */
export function lineCount(bytes: Buffer): number {
  let n = 0;
  for (let i = bytes.indexOf(10); i >= 0; i = bytes.indexOf(10, i + 1)) n++;
  return n + (bytes.length && bytes[bytes.length - 1] !== 10 ? 1 : 0);
}

function readStore(workspace: string): Record<string, [...Stamp, number]> {
  try {
    const v = JSON.parse(fs.readFileSync(path.join(workspace, STORE), 'utf8')) as { layout?: unknown; files?: unknown };
    return v?.layout === LAYOUT && v.files && typeof v.files === 'object'
      ? (v.files as Record<string, [...Stamp, number]>)
      : {};
  } catch {
    return {};
  }
}

/** Every summary with its line count: stored where the file is stated as counted, else read now. Writes nothing. */
export function summaryLines(workspace: string): SummaryLines[] {
  const dir = path.join(workspace, SUMMARIES_DIR);
  let names: string[];
  try {
    names = fs
      .readdirSync(dir)
      .filter((n) => n.endsWith('.md') && !n.startsWith('.'))
      .sort();
  } catch {
    return [];
  }
  const stored = readStore(workspace);
  const out: SummaryLines[] = [];
  // 3,000 summaries at 10,000 files: the path by concatenation (path.join normalises each one) and one options object.
  const prefix = dir + path.sep;
  for (const n of names) {
    const abs = prefix + n;
    const rel = `${SUMMARIES_DIR}/${n}`;
    const st = fs.statSync(abs, STAT);
    if (!st) continue;
    const stamp: Stamp = [st.size, st.mtimeMs, st.ctimeMs];
    const had = stored[rel];
    const value =
      Array.isArray(had) &&
      had[0] === st.size &&
      had[1] === st.mtimeMs &&
      had[2] === st.ctimeMs &&
      typeof had[3] === 'number'
        ? had[3]
        : lineCount(fs.readFileSync(abs));
    out.push({ path: rel, value, mtimeMs: st.mtimeMs, stamp });
  }
  return out;
}

/** Stores every summary's count when one differs from the store (a writer's refresh, under the index lock). */
export function refreshSummaryLines(workspace: string): void {
  const stored = readStore(workspace);
  const now = summaryLines(workspace);
  const same =
    now.length === Object.keys(stored).length &&
    now.every((f) => stored[f.path]?.join() === [...f.stamp, f.value].join());
  if (same) return;
  fs.mkdirSync(path.dirname(path.join(workspace, STORE)), { recursive: true });
  writeDerivedFile(
    path.join(workspace, STORE),
    JSON.stringify({ layout: LAYOUT, files: Object.fromEntries(now.map((f) => [f.path, [...f.stamp, f.value]])) }),
  );
}
