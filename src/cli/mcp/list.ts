/**
 * `memory_list`: the workspace's Markdown (MEMORY.md, memory/**, second-brain/**: what `memory_get`
 * reads by path) as an agent browses a folder — one row per file, or per day, newest first, each with
 * its entries counted by kind and the `memory_get` call that opens it. Paged by an opaque cursor that
 * names the last row returned, not an offset, so a file written between two pages (microsync appending
 * today's) never shifts the next page onto rows already seen or past ones not yet seen. Only the
 * page's files are read: listing names and dates costs a stat per file, not a parse.
 */
import fs from 'node:fs';
import path from 'node:path';
import { DateTime } from 'luxon';
import { MemError } from '../../core/errors.js';
import { regularFile } from '../../core/regular-file.js';
import { isCalendarDay } from '../../core/time.js';
import { recordsOf } from '../../entries/store.js';
import { markdownFilesUnder } from '../../workspace/markdown-files.js';

export interface ListRequest {
  group?: 'file' | 'day';
  under?: string;
  cursor?: string;
  limit?: number;
}

interface Row {
  /** Sort key: newest day first, then path (or nothing, per day) ascending. */
  day: string;
  path: string;
  files: string[];
}

const ROOTS = ['memory', 'second-brain'];

/** A real day at the start of a file's name (`2026-11-20.md`, `2026-11-20-wrapup.md`), else its modification day. */
function dayOf(abs: string, rel: string, zone: string): string {
  const named = /^(\d{4}-\d{2}-\d{2})/.exec(path.posix.basename(rel))?.[1];
  if (named && isCalendarDay(named)) return named;
  return DateTime.fromMillis(fs.statSync(abs).mtimeMs, { zone }).toISODate()!;
}

function allFiles(workspace: string, under: string | undefined): string[] {
  const files = regularFile(path.join(workspace, 'MEMORY.md')) ? ['MEMORY.md'] : [];
  for (const r of ROOTS) files.push(...markdownFilesUnder(path.join(workspace, r)).map((f) => `${r}/${f}`));
  const prefix = under?.replace(/^\.\//, '').replace(/\/*$/, '');
  return prefix ? files.filter((f) => f === prefix || f.startsWith(prefix + '/')) : files;
}

const after = (a: Row, key: [string, string]) => a.day < key[0] || (a.day === key[0] && a.path > key[1]);

function decodeCursor(cursor: string): [string, string] {
  try {
    const key = JSON.parse(cursor) as unknown;
    if (Array.isArray(key) && key.length === 2 && key.every((k) => typeof k === 'string'))
      return key as [string, string];
  } catch {
    // Falls through to the error below.
  }
  throw new MemError('USAGE', 'cursor is not one memory_list returned (pass nextCursor as it came)');
}

// Plain JSON, not base64: an opaque high-entropy string reads as a secret to the redaction every answer passes.
const encodeCursor = (r: Row) => JSON.stringify([r.day, r.path]);

function countKinds(workspace: string, files: string[]) {
  const kinds: Record<string, number> = {};
  let entries = 0;
  let lines = 0;
  for (const f of files) {
    const text = fs.readFileSync(path.join(workspace, f), 'utf8');
    lines += text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
    if (!f.startsWith('memory/')) continue;
    for (const r of recordsOf(f, text)) {
      entries++;
      kinds[r.entry.kind] = (kinds[r.entry.kind] ?? 0) + 1;
    }
  }
  return { entries, kinds, lines };
}

export function listMemory(workspace: string, zone: string, req: ListRequest) {
  const group = req.group ?? 'file';
  const limit = req.limit ?? 50;
  const rows: Row[] = [];
  const byDay = new Map<string, Row>();
  for (const f of allFiles(workspace, req.under)) {
    const day = dayOf(path.join(workspace, f), f, zone);
    if (group === 'file') rows.push({ day, path: f, files: [f] });
    else {
      const row = byDay.get(day) ?? { day, path: '', files: [] };
      if (!byDay.has(day)) rows.push(byDay.set(day, row).get(day)!);
      row.files.push(f);
    }
  }
  rows.sort((a, b) => b.day.localeCompare(a.day) || a.path.localeCompare(b.path));
  const key = req.cursor === undefined ? undefined : decodeCursor(req.cursor);
  const rest = key ? rows.filter((r) => after(r, key)) : rows;
  const page = rest.slice(0, limit);
  const items = page.map((r) => {
    const c = countKinds(workspace, r.files);
    return group === 'file'
      ? {
          path: r.path,
          day: r.day,
          lines: c.lines,
          entries: c.entries,
          kinds: c.kinds,
          open: { tool: 'memory_get', arguments: { path: r.path } },
        }
      : {
          day: r.day,
          files: r.files,
          entries: c.entries,
          kinds: c.kinds,
          open: r.files.map((p) => ({ tool: 'memory_get', arguments: { path: p } })),
        };
  });
  const more = rest.length > page.length;
  return {
    group,
    total: rows.length,
    items,
    nextCursor: more && page.length ? encodeCursor(page[page.length - 1]!) : null,
  };
}
