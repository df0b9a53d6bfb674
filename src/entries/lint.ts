/**
 * Entry validation for `mem lint` (DESIGN §5). Pure: records in, problems out, each naming the file
 * and line so a person can jump to it. Lint reads only; it never fixes.
 */
import { DateTime } from 'luxon';
import { ID_PATTERN } from './id.js';
import { getField, ID_PREFIX, idList, isKind, ORIGINS, STATUSES, supersedesOf } from './model.js';
import { fieldLines, splitLines, unclosedFence } from './parse.js';
import type { EntryRecord, MemoryFile } from './store.js';
import { DAILY_FILE } from '../write/allowance.js';
import { count } from '../core/count.js';
import { CONTROL_CHAR } from '../core/control-chars.js';
import { append } from '../core/group.js';
import { lifecycleProblems } from './lint-fields.js';

export interface Problem {
  file: string;
  line: number;
  id: string;
  message: string;
}

const REQUIRED = ['id', 'date', 'status'] as const;

/** `files` are the texts `records` come from: a code fence left open hides every entry after it; a file not UTF-8 is named. */
export function lintEntries(
  records: EntryRecord[],
  files: MemoryFile[],
  opts: { maxEntriesPerDailyFile: number },
): Problem[] {
  const problems: Problem[] = files.flatMap(fileProblems);
  const byId = idsOf(records);
  for (const r of records)
    problems.push(...recordProblems(r, { exists: (x) => byId.has(x), first: (x) => byId.get(x)![0]! }));
  problems.push(...crossFileProblems(records, byId, opts));
  return problems.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line);
}

/**
 * How many of lintEntries' problems `file` holds whatever the other files say: its text's, and its
 * entries' own (every check but a missing supersedes/retracts target and a duplicate id). The entry
 * table keeps this count per file (table-store.ts), so `mem status` counts lint problems without
 * parsing: this plus crossProblemCount equals lintEntries(...).length.
 */
export function ownProblemCount(file: MemoryFile, records: EntryRecord[]): number {
  let n = fileProblems(file).length;
  for (const r of records) n += recordProblems(r, { exists: () => true, first: () => r }).length;
  return n;
}

/** The rest of lintEntries' problems: what depends on other entries. Needs only the entry table's fields (table.ts). */
export function crossProblemCount(records: EntryRecord[], opts: { maxEntriesPerDailyFile: number }): number {
  const byId = idsOf(records);
  let n = 0;
  for (const r of records) {
    for (const target of supersedesOf(r.entry)) if (!byId.has(target)) n++;
    for (const target of idList(getField(r.entry, 'retracts'))) if (target !== r.id && !byId.has(target)) n++;
    if (r.id && byId.get(r.id)![0] !== r) n++;
  }
  return n + crossFileProblems(records, byId, opts).length;
}

function idsOf(records: EntryRecord[]): Map<string, EntryRecord[]> {
  const byId = new Map<string, EntryRecord[]>();
  for (const r of records) if (r.id) append(byId, r.id, r);
  return byId;
}

/** A file's text: not UTF-8, a code fence left open, control characters. */
function fileProblems({ file, text, badLines }: MemoryFile): Problem[] {
  const problems: Problem[] = [];
  if (badLines)
    problems.push({
      file,
      line: badLines[0]!,
      id: '',
      message: `not valid UTF-8 (${count(badLines.length, 'line')}; Latin-1 saved by an old editor?): compound and wrapup leave the entries holding such bytes out, and a job that must rewrite the file stops; convert it (e.g. iconv -f latin1 -t utf-8)`,
    });
  const lines = splitLines(text);
  const fence = unclosedFence(text);
  if (fence)
    problems.push({
      file,
      line: fence.line,
      id: '',
      message: `code fence ${fence.marker} is never closed: the ${count(lines.length - fence.line, 'line')} after it read as code, entries included; add a closing ${fence.marker} line where the code ends`,
    });
  lines.forEach((l, i) => {
    const c = CONTROL_CHAR.exec(l.replace(/\r?\n$/, ''))?.[0];
    if (c) problems.push({ file, line: i + 1, id: '', message: controlProblem(c) });
  });
  return problems;
}

/** What one entry's checks need of the others: whether an id exists, and the first entry holding it. */
interface Others {
  exists(id: string): boolean;
  first(id: string): EntryRecord;
}

/** A date's validity, each distinct date parsed once (luxon's fromISO was a tenth of `mem status`). */
const validDates = new Map<string, boolean>();
function validDate(date: string): boolean {
  let ok = validDates.get(date);
  if (ok === undefined) validDates.set(date, (ok = DateTime.fromISO(date).isValid));
  return ok;
}

function recordProblems(r: EntryRecord, others: Others): Problem[] {
  const problems: Problem[] = [];
  const add = (message: string) => problems.push({ file: r.file, line: r.block.startLine, id: r.id, message });
  const e = r.entry;
  for (const key of REQUIRED) if (!getField(e, key)) add(`missing field "${key}"`);
  if (!e.title.trim()) add(`empty title: write what the entry is about after "## ${e.kind}:"`);
  const id = r.id;
  const m = id ? ID_PATTERN.exec(id) : null;
  if (id && !m) add(`id "${id}" is not PREFIX-YYYYMMDD-slug (prefixes: ${Object.values(ID_PREFIX).join(', ')})`);
  if (m && isKind(e.kind) && m[1] !== ID_PREFIX[e.kind])
    add(`id prefix ${m[1]} does not match kind ${e.kind} (expected ${ID_PREFIX[e.kind]})`);
  const date = getField(e, 'date');
  if (date && !validDate(date)) add(`date "${date}" is not a valid YYYY-MM-DD date`);
  if (date && m && m[2] !== date.replaceAll('-', '')) add(`id date ${m[2]} differs from date ${date}`);
  const status = getField(e, 'status');
  if (status && !(STATUSES as readonly string[]).includes(status))
    add(`status "${status}" is not one of ${STATUSES.join(', ')}`);
  const origin = getField(e, 'origin');
  if (origin && !(ORIGINS as readonly string[]).includes(origin))
    add(`origin "${origin}" is not one of ${ORIGINS.join(', ')}`);
  const confidence = getField(e, 'confidence');
  if (confidence && !(Number(confidence) >= 0 && Number(confidence) <= 1))
    add(`confidence "${confidence}" is not a number from 0 to 1`);
  for (const target of supersedesOf(e)) {
    if (!others.exists(target)) add(`supersedes ${target}, which no entry has as id`);
    if (target === id) add('supersedes itself');
  }
  for (const problem of lifecycleProblems(r, others.exists)) add(problem);
  for (const key of repeatedKeys(e.fields.map((f) => f.key))) {
    // Every reader takes the first; a second `status:` line made forget and compound look done when they were not.
    const at = fieldLines(r.block, key).map((l) => r.block.startLine + l);
    problems.push({
      file: r.file,
      line: at[1]!,
      id,
      message: `field "${key}" appears ${at.length} times (lines ${at.join(', ')}); memfold reads only the first: delete the others`,
    });
  }
  if (id && others.first(id) !== r)
    add(`duplicate id (first at ${others.first(id).file}:${others.first(id).block.startLine})`);
  return problems;
}

/** Supersedes cycles and daily files over the limit. */
function crossFileProblems(
  records: EntryRecord[],
  byId: Map<string, EntryRecord[]>,
  opts: { maxEntriesPerDailyFile: number },
): Problem[] {
  const problems: Problem[] = [];
  for (const cycle of supersedesCycles(records)) {
    const r = byId.get(cycle[0]!)![0]!;
    problems.push({
      file: r.file,
      line: r.block.startLine,
      id: r.id,
      message: `supersedes cycle: ${[...cycle, cycle[0]].join(' → ')} (each replaces another; no entry of it is current)`,
    });
  }
  const perFile = new Map<string, number>();
  for (const r of records) perFile.set(r.file, (perFile.get(r.file) ?? 0) + 1);
  for (const [file, n] of perFile) {
    if (DAILY_FILE.test(file) && n > opts.maxEntriesPerDailyFile) {
      problems.push({
        file,
        line: 1,
        id: '',
        message: `${n} entries, over the limit of ${opts.maxEntriesPerDailyFile} a daily file (split with "mem status --fix")`,
      });
    }
  }
  return problems;
}

/** memfold writes no control character; one a person or another tool left is named, NUL above all. */
function controlProblem(c: string): string {
  const code = `U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
  if (c === '\u0000')
    return `NUL byte (${code}): the search index takes the whole file for binary, so search and context leave out every entry in it; delete it`;
  return `control character ${code}; delete it (memfold never writes one)`;
}

function repeatedKeys(keys: string[]): string[] {
  return [...new Set(keys.filter((k, i) => keys.indexOf(k) !== i))];
}

/**
 * Cycles of two or more entries in the supersedes graph (a self-reference is reported on its own):
 * those a depth-first walk meets (at least one per tangle), each once, starting at its smallest id.
 * Iterative: a chain of 100,000 entries must not overflow the stack.
 */
export function supersedesCycles(records: EntryRecord[]): string[][] {
  const edges = new Map<string, string[]>();
  for (const r of records) {
    if (!r.id) continue;
    const targets = supersedesOf(r.entry).filter((t) => t !== r.id);
    edges.set(r.id, [...(edges.get(r.id) ?? []), ...targets]);
  }
  const done = new Set<string>();
  const found = new Map<string, string[]>();
  for (const root of [...edges.keys()].sort()) {
    if (done.has(root)) continue;
    // The walk's current path: each id with the index of its next edge to follow.
    const path: string[] = [root];
    const next: number[] = [0];
    const onPath = new Set([root]);
    while (path.length) {
      const at = path.length - 1;
      const target = edges.get(path[at]!)![next[at]!++];
      if (target === undefined) {
        const id = path.pop()!;
        onPath.delete(id);
        done.add(id);
        next.pop();
        continue;
      }
      if (!edges.has(target) || done.has(target)) continue;
      if (onPath.has(target)) {
        const cycle = path.slice(path.indexOf(target));
        const first = cycle.indexOf([...cycle].sort()[0]!);
        const rotated = [...cycle.slice(first), ...cycle.slice(0, first)];
        found.set(rotated.join(' '), rotated);
        continue;
      }
      path.push(target);
      next.push(0);
      onPath.add(target);
    }
  }
  return [...found.values()];
}
