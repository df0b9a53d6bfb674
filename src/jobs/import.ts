/**
 * `mem import openclaw|claude-md|codex|claude-memory <path>`: adopts another memory as entries (origin
 * manual, a source naming the file and its lines), appended to daily files with the `import` allowance
 * under the write lock. The imported files are only read. Re-running adds nothing: an item whose text an
 * entry of the same kind already holds (in any status, so a forgotten item stays forgotten) is skipped.
 * Each host's reader gives items (import-adopt.ts); redaction, deduplication and writing are one path.
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
import { scopeOfFolder, type ScopeMapping } from '../scope/scope-of.js';
import { append } from '../core/group.js';
import { IMPORT_KINDS } from './import-files.js';
import type { ImportKind } from './import-files.js';
import type { HostImport } from './import-adopt.js';
import { claudeMemoryItems } from './import-claude-memory.js';
import { codexItems } from './import-codex.js';

export interface ImportOptions {
  workspace: string;
  loaded: LoadedConfig;
  now: DateTime;
  kind: string;
  /** What to import; only codex has a default (~/.codex/memories). */
  path?: string;
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

function defaultScope(kind: ImportKind, file: string, mapping: ScopeMapping | undefined): string | undefined {
  if (kind !== 'claude-md') return undefined;
  const dir = path.dirname(file);
  if (path.basename(dir) === '.claude') return 'global';
  return scopeOfFolder(dir, mapping).scope;
}

/** OpenClaw's and CLAUDE.md's items: every list item and paragraph, dated by a daily file's name. */
function markdownItems(
  kind: 'openclaw' | 'claude-md',
  given: string,
  today: string,
  scope: string | undefined,
  mapping: ScopeMapping | undefined,
): HostImport {
  const { files, warnings } = importFiles(kind, given);
  const items = files.flatMap(({ path: file, text }) => {
    // A name that is no real day (2026-02-30.md) is any other name: a daily file with it would be invalid.
    const named = /(\d{4}-\d{2}-\d{2})\.md$/.exec(file)?.[1];
    const day = named && isCalendarDay(named) ? named : today;
    const s = scope ?? defaultScope(kind, file, mapping);
    // The line Claude Code's /init writes at the top says what the file is, not what to do.
    return importItems(text)
      .filter((i) => !(kind === 'claude-md' && BOILERPLATE.test(i.text)))
      .map((i) => ({
        file,
        text: i.text,
        kind: kindFor(kind, redactSecrets(i.text).text),
        ...(s ? { scope: s } : {}),
        day,
        startLine: i.startLine,
        endLine: i.endLine,
        heading: i.heading,
      }));
  });
  return { files: files.map((f) => f.path), items, warnings };
}

function hostItems(kind: ImportKind, opts: ImportOptions): HostImport {
  if (kind === 'codex') return codexItems(opts.path, opts.loaded.zone, opts.scope);
  if (opts.path === undefined) throw new MemError('USAGE', `mem import ${kind} needs a path`);
  if (kind === 'claude-memory') return claudeMemoryItems(opts.path, opts.loaded.zone, opts.scope);
  return markdownItems(kind, opts.path, opts.now.toISODate()!, opts.scope, opts.loaded.config.scopes);
}

export async function runImport(opts: ImportOptions): Promise<ImportResult> {
  if (!(IMPORT_KINDS as readonly string[]).includes(opts.kind))
    throw new MemError('USAGE', `import kind "${opts.kind}" is not one of ${IMPORT_KINDS.join(', ')}`);
  const kind = opts.kind as ImportKind;
  checkLabels({ scope: opts.scope });
  const { files, items: found, warnings } = hostItems(kind, opts);
  const existing = await loadEntries(opts.workspace);
  const held = new Set(existing.map((r) => `${r.entry.kind}\0${normalise(getField(r.entry, 'conclusion') ?? '')}`));
  const candidates: PlanInput['candidates'] = [];
  let items = 0;
  let skipped = 0;
  let redacted = 0;
  for (const item of found) {
    items++;
    const red = redactSecrets(item.text);
    const title = item.title === undefined ? undefined : redactSecrets(item.title);
    redacted += red.count + (title?.count ?? 0);
    const k = item.kind;
    if (held.has(`${k}\0${normalise(red.text)}`)) {
      skipped++;
      continue;
    }
    held.add(`${k}\0${normalise(red.text)}`);
    candidates.push({
      kind: k,
      title: title ? titleOf(title.text) : titleOf(red.text),
      conclusion: red.text,
      confidence: 1,
      origin: 'manual',
      revises: false,
      ...(item.scope ? { scope: item.scope } : {}),
      ...(item.heading ? { tags: [`imported:${redactSecrets(item.heading).text.replace(/[,\n]/g, ' ')}`] } : {}),
      sessionId: `import:${kind}`,
      sessionPath: item.file,
      sessionPathStored: storedSessionPath(item.file),
      firstTurn: item.startLine,
      lastTurn: item.endLine,
      timestamp: toIsoUtc(opts.now),
      day: item.day,
    });
  }
  const res: ImportResult = {
    kind,
    files: files.map(tildePath),
    items,
    added: [],
    skipped,
    redacted,
    warnings,
    dryRun: opts.dryRun,
  };
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
    const source = {
      key: 'source',
      value: '',
      children: [
        { key: 'session_id', value: c.sessionId },
        { key: 'session_path', value: c.sessionPathStored },
        { key: 'message_range', value: `${c.firstTurn}-${c.lastTurn}` },
      ],
    };
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
