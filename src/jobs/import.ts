/**
 * `mem import openclaw|claude-md <path>`: adopts another memory as entries (origin manual, a source
 * naming the file and its lines), appended to daily files with the `import` allowance under the write
 * lock. The imported files are only read. Re-running adds nothing: an item whose text an entry of the
 * same kind already holds (in any status, so a forgotten item stays forgotten) is skipped.
 */
import path from 'node:path';
import type { DateTime } from 'luxon';
import type { LoadedConfig } from '../config/load.js';
import { MemError } from '../core/errors.js';
import { isCalendarDay, toIsoUtc } from '../core/time.js';
import { appendEntries } from '../entries/daily.js';
import { getField, type Entry } from '../entries/model.js';
import { loadEntries } from '../entries/store.js';
import { redactSecrets } from '../secrets/secrets.js';
import { normalise, titleOf } from '../extract/sentences.js';
import { dailyFile } from '../workspace/layout.js';
import { tildePath } from '../workspace/locate.js';
import { storedSessionPath } from '../extract/trust.js';
import { defaultLockOptions } from '../write/defaults.js';
import { WorkspaceWriter } from '../write/writer.js';
import { importFiles } from './import-files.js';
import { importItems, kindFor } from './import-parse.js';
import { planEntries, type PlanInput } from './microsync/plan.js';
import { checkLabels } from '../entries/labels.js';
import { projectScope } from '../entries/scope.js';
import { append } from '../core/group.js';
import { IMPORT_KINDS } from './import-files.js';
import type { ImportKind } from './import-files.js';


export interface ImportOptions {
  workspace: string;
  loaded: LoadedConfig;
  now: DateTime;
  kind: string;
  path: string;
  scope?: string;
  dryRun: boolean;
}

export interface ImportResult {
  kind: ImportKind;
  files: string[];
  items: number;
  added: Array<{ id: string; file: string; from: string }>;
  skipped: number;
  redacted: number;
  /** Paths under the imported folder that were not read (links to folders, FIFOs, sockets, files not in UTF-8, ...), one line each. */
  warnings: string[];
  dryRun: boolean;
}

const BOILERPLATE = /^this file (?:provides guidance to|guides) claude/i;

function defaultScope(kind: ImportKind, file: string): string | undefined {
  if (kind !== 'claude-md') return undefined;
  const dir = path.dirname(file);
  if (path.basename(dir) === '.claude') return 'global';
  return projectScope(path.basename(dir));
}

export async function runImport(opts: ImportOptions): Promise<ImportResult> {
  if (!(IMPORT_KINDS as readonly string[]).includes(opts.kind)) throw new MemError('USAGE', `import kind "${opts.kind}" is not one of ${IMPORT_KINDS.join(', ')}`);
  const kind = opts.kind as ImportKind;
  checkLabels({ scope: opts.scope });
  const { files, warnings } = importFiles(kind, opts.path);
  const today = opts.now.toISODate()!;
  const existing = await loadEntries(opts.workspace);
  const held = new Set(existing.map((r) => `${r.entry.kind}\0${normalise(getField(r.entry, 'conclusion') ?? '')}`));
  const candidates: PlanInput['candidates'] = [];
  let items = 0;
  let skipped = 0;
  let redacted = 0;
  for (const { path: file, text } of files) {
    // A name that is no real day (2026-02-30.md) is any other name: a daily file with it would be invalid.
    const named = /(\d{4}-\d{2}-\d{2})\.md$/.exec(file)?.[1];
    const day = named && isCalendarDay(named) ? named : today;
    const stored = storedSessionPath(file);
    for (const item of importItems(text)) {
      // The line Claude Code's /init writes at the top says what the file is, not what to do.
      if (kind === 'claude-md' && BOILERPLATE.test(item.text)) continue;
      items++;
      const red = redactSecrets(item.text);
      redacted += red.count;
      const k = kindFor(kind, red.text);
      if (held.has(`${k}\0${normalise(red.text)}`)) {
        skipped++;
        continue;
      }
      held.add(`${k}\0${normalise(red.text)}`);
      const scope = opts.scope ?? defaultScope(kind, file);
      candidates.push({
        kind: k, title: titleOf(red.text), conclusion: red.text, confidence: 1, origin: 'manual', revises: false,
        ...(scope ? { scope } : {}), ...(item.heading ? { tags: [`imported:${redactSecrets(item.heading).text.replace(/[,\n]/g, ' ')}`] } : {}),
        sessionId: `import:${kind}`, sessionPath: file, sessionPathStored: stored, firstTurn: item.startLine, lastTurn: item.endLine, timestamp: toIsoUtc(opts.now), day,
      });
    }
  }
  const res: ImportResult = { kind, files: files.map((f) => tildePath(f.path)), items, added: [], skipped, redacted, warnings, dryRun: opts.dryRun };
  const known = existing.map((r) => ({ id: r.id, entry: r.entry }));
  const byDay = new Map<string, Entry[]>();
  for (const c of candidates) {
    // One at a time, so each planned entry is known to the next (ids, duplicates within the import).
    const p = planEntries({ candidates: [c], existing: known }).entries[0];
    if (!p) {
      res.skipped++;
      continue;
    }
    // origin manual gets no source from the planner; an import names the file and its lines.
    const source = { key: 'source', value: '', children: [
      { key: 'session_id', value: c.sessionId }, { key: 'session_path', value: c.sessionPathStored }, { key: 'message_range', value: `${c.firstTurn}-${c.lastTurn}` },
    ] };
    const entry = { ...p.entry, fields: [...p.entry.fields.slice(0, 2), source, ...p.entry.fields.slice(2)] };
    known.push({ id: p.id, entry });
    append(byDay, p.day, entry);
    res.added.push({ id: p.id, file: dailyFile(p.day), from: `${c.sessionPathStored}:${c.firstTurn}-${c.lastTurn}` });
  }
  if (opts.dryRun || !byDay.size) return res;
  const writer = new WorkspaceWriter(opts.workspace, 'import', defaultLockOptions(opts.loaded.config));
  const written = new Set<string>();
  for (const [day, entries] of byDay) {
    await writer.append(dailyFile(day), (cur) => {
      const r = appendEntries(cur, day, entries);
      r.added.forEach((id) => written.add(id));
      return r.added.length ? r.text : undefined;
    });
  }
  const before = res.added.length;
  res.added = res.added.filter((a) => written.has(a.id));
  res.skipped += before - res.added.length;
  return res;
}
