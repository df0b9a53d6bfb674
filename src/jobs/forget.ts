/**
 * `mem forget`: soft (status → retracted, kept for audit) or hard (removed from every Markdown file
 * that holds it, purged from `.mem/`). Every change is a read-modify-write under the write lock with
 * the `forget` allowance, so a concurrent microsync append is never lost; each run adds one weekly-log
 * run. A hard forget also holds the consolidation lock, so a wrapup or compound never writes back
 * what it removes. A hard forget logs only a hash of each id, so the log keeps no trace of what was removed.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { DateTime } from 'luxon';
import type { LoadedConfig } from '../config/load.js';
import { MemError } from '../core/errors.js';
import { getField } from '../entries/model.js';
import { loadEntries, type EntryRecord } from '../entries/store.js';
import { appendRun, weeklyLogOf } from '../governance/weekly-log.js';
import { defaultLockOptions } from '../write/defaults.js';
import type { LockOptions } from '../write/locks.js';
import { markdownFilesUnder } from '../workspace/markdown-files.js';
import { WorkspaceWriter } from '../write/writer.js';
import { withConsolidationLock } from './consolidation-lock.js';
import { mentionMatcher, removeFrom, retractIn, type KeptMention } from './forget-plan.js';
import { entryMarks, recordForgotten } from './forgotten.js';

export interface ForgetOptions {
  workspace: string;
  loaded: LoadedConfig;
  now: DateTime;
  ids: string[];
  hard: boolean;
  dryRun: boolean;
}

export interface FileChange {
  file: string;
  entries: number;
  lines: number;
}

/** A line naming or quoting a removed entry that hard forget leaves alone (see forget-plan.ts). */
export interface KeptLine extends Omit<KeptMention, 'after'> {
  /** `line` is in the file as the run leaves it (unchanged by a dry run). */
  file: string;
}

export interface ForgetResult {
  mode: 'soft' | 'hard';
  dryRun: boolean;
  ids: string[];
  /** Soft: id → the status it had. */
  retracted: Array<{ id: string; file: string; from: string }>;
  alreadyRetracted: string[];
  files: FileChange[];
  /** Hard: lines inside other entries (or headings) that still name or quote a removed entry, left as they are. */
  kept: KeptLine[];
  derived: string[];
  /** Transcript windows purged from the archive tier (`.mem/archive/`), null without one. */
  archive: { docs: number; segments: number } | null;
  log: string | null;
  warnings: string[];
}

/** Every workspace Markdown file hard forget looks in: MEMORY.md, memory/**, second-brain/**. */
function markdownFiles(workspace: string): string[] {
  const out: string[] = [];
  if (fs.existsSync(path.join(workspace, 'MEMORY.md'))) out.push('MEMORY.md');
  for (const dir of ['memory', 'second-brain']) out.push(...markdownFilesUnder(path.join(workspace, dir)).map((n) => `${dir}/${n}`));
  return out;
}

export const hashId = (id: string) => createHash('sha256').update(id).digest('hex').slice(0, 12);

const read = (ws: string, rel: string) => fs.promises.readFile(path.join(ws, rel), 'utf8').catch(() => undefined);

export async function runForget(opts: ForgetOptions): Promise<ForgetResult> {
  if (!opts.hard || opts.dryRun) return forget(opts, new WorkspaceWriter(opts.workspace, 'forget', defaultLockOptions(opts.loaded.config)));
  // Held like wrapup and compound hold it: either job plans with the entry and writes later, and
  // would write the entry back into MEMORY.md or a summary after it is gone.
  const locks = defaultLockOptions(opts.loaded.config);
  return withConsolidationLock(opts.workspace, 'forget', locks, (jobLock) => forget(opts, new WorkspaceWriter(opts.workspace, 'forget', locks, jobLock)));
}

async function forget(opts: ForgetOptions, writer: WorkspaceWriter): Promise<ForgetResult> {
  const { workspace, now } = opts;
  const records = await loadEntries(workspace);
  const missing = opts.ids.filter((id) => !records.some((r) => r.id === id));
  if (missing.length) throw new MemError('NOT_FOUND', `no entry with id ${missing.join(', ')} (ids are listed by "mem search" and "mem export")`);
  const res: ForgetResult = { mode: opts.hard ? 'hard' : 'soft', dryRun: opts.dryRun, ids: opts.ids, retracted: [], alreadyRetracted: [], files: [], kept: [], derived: [], archive: null, log: null, warnings: [] };
  const stamp = now.toISO({ suppressMilliseconds: true }) ?? '';
  const log = weeklyLogOf(now);
  if (!opts.hard) {
    for (const id of opts.ids) {
      for (const r of records.filter((x) => x.id === id)) {
        const text = await read(workspace, r.file);
        const change = text === undefined ? undefined : retractIn(text, id);
        if (!change) {
          res.alreadyRetracted.push(id);
          continue;
        }
        if (!opts.dryRun) await writer.update(r.file, (cur) => (cur === undefined ? undefined : retractIn(cur, id)?.text));
        res.retracted.push({ id, file: r.file, from: change.from });
      }
    }
    if (res.retracted.length && !opts.dryRun) {
      await writer.update(log.file, (cur) => appendRun(cur, log.header, `${stamp} (mem forget)`, res.retracted.map((x) => `retracted: ${x.id} (was ${x.from}) by \`mem forget\``)));
      res.log = log.file;
    }
    return res;
  }
  // First, so no catch-up or back-fill learns them again, even from a run stopped part-way.
  if (!opts.dryRun) await recordForgotten(writer, records.filter((r) => opts.ids.includes(r.id)).flatMap((r) => entryMarks(r.id, r.entry)));
  const quotes = records.filter((r) => opts.ids.includes(r.id)).map((r) => getField(r.entry, 'conclusion') ?? '');
  const keptTexts = records.filter((r) => !opts.ids.includes(r.id)).flatMap((r) => [r.entry.title, getField(r.entry, 'conclusion') ?? '']);
  const keptIds = new Set(records.filter((r) => r.id && !opts.ids.includes(r.id)).map((r) => r.id));
  const names = mentionMatcher(opts.ids, quotes, keptTexts);
  for (const file of markdownFiles(workspace)) {
    const text = await read(workspace, file);
    const plan = text === undefined ? undefined : removeFrom(text, opts.ids, quotes, keptTexts, keptIds);
    if (!plan) continue;
    res.kept.push(...plan.kept.map(({ after, ...k }) => ({ file, ...k, line: opts.dryRun ? k.line : after })));
    if (!plan.entries && !plan.lines) continue;
    res.files.push({ file, entries: plan.entries, lines: plan.lines });
    if (!opts.dryRun) await writer.update(file, (cur) => (cur === undefined ? undefined : removeFrom(cur, opts.ids, quotes, keptTexts, keptIds)?.text));
  }
  res.derived = await derivedNaming(workspace, names);
  const archive = await purgeArchiveOf(workspace, writer, records.filter((r) => opts.ids.includes(r.id)), opts.dryRun, defaultLockOptions(opts.loaded.config));
  if (opts.dryRun) return withArchive(res, archive);
  await purgeDerived(workspace, writer, res.derived, opts.ids, names);
  withArchive(res, archive);
  await writer.update(log.file, (cur) => appendRun(cur, log.header, `${stamp} (mem forget --hard)`, opts.ids.map((id) => `removed: entry sha256:${hashId(id)} from ${res.files.length} file(s) by \`mem forget --hard\``)));
  res.log = log.file;
  if (fs.existsSync(path.join(workspace, '.mem', 'index'))) {
    // A rebuild writes fresh segments and drops the old ones, which still held the removed text.
    const { runIndex } = await import('../search/index.js');
    const run = await runIndex(workspace, opts.loaded, { rebuild: true });
    res.warnings.push(...run.result.warnings);
    if (opts.loaded.config.embedding) res.warnings.push('the embedding cache may keep vectors (never text) of the removed chunks until it is deleted: rm -r .mem/embeddings && mem index');
  }
  return res;
}

/** `.mem/` files (outside the index, which is rebuilt) that name an id or quote a removed conclusion. */
async function derivedNaming(workspace: string, names: (line: string) => unknown): Promise<string[]> {
  const root = path.join(workspace, '.mem');
  const files = await fs.promises.readdir(root, { recursive: true }).catch(() => [] as string[]);
  const out: string[] = [];
  for (const n of files.map((x) => x.split(path.sep).join('/')).sort()) {
    if (n.startsWith('index/') || n.startsWith('embeddings/') || n.startsWith('archive/')) continue;
    const text = await fs.promises.readFile(path.join(root, n), 'utf8').catch(() => undefined);
    if (text !== undefined && text.split('\n').some((l) => names(l))) out.push(`.mem/${n}`);
  }
  return out;
}

/**
 * A line log keeps every line not about the removed entries: a use-log line (`ids: [...]`) loses just
 * those ids, and goes only when none is left, so another entry's reads still count. Any other
 * derived file is deleted (DESIGN §9.1: rebuildable).
 */
async function purgeDerived(workspace: string, writer: WorkspaceWriter, files: string[], ids: string[], names: (line: string) => unknown): Promise<void> {
  const purgeLine = (line: string): string | undefined => {
    const event = parseJsonLine(line);
    if (event && Array.isArray(event.ids)) {
      const left = (event.ids as unknown[]).filter((x) => !(typeof x === 'string' && ids.includes(x)));
      if (!left.length) return undefined;
      const next = left.length === event.ids.length ? line : JSON.stringify({ ...event, ids: left });
      return names(next) ? undefined : next;
    }
    return names(line) ? undefined : line;
  };
  for (const rel of files) {
    if (rel.endsWith('.jsonl')) await writer.update(rel, (cur) => cur?.split('\n').flatMap((l) => purgeLine(l) ?? []).join('\n'));
    else await fs.promises.rm(writer.resolve(rel), { force: true });
  }
}

function parseJsonLine(line: string): Record<string, unknown> | undefined {
  try {
    const v: unknown = JSON.parse(line);
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** The archive tier's windows citing the entries' turns or quoting them (see archive/purge.ts). */
async function purgeArchiveOf(workspace: string, writer: WorkspaceWriter, records: EntryRecord[], dryRun: boolean, locks: LockOptions): Promise<{ docs: number; segments: number } | null> {
  if (!fs.existsSync(path.join(workspace, '.mem', 'archive', 'state.json'))) return null;
  const { purgeArchive, targetsOf } = await import('../archive/purge.js');
  return purgeArchive(workspace, writer, targetsOf(workspace, records), locks, dryRun);
}

function withArchive(res: ForgetResult, archive: { docs: number; segments: number } | null): ForgetResult {
  res.archive = archive;
  if (archive) res.derived.push(`.mem/archive/ (${archive.docs} transcript window(s) citing or quoting the entries; the transcripts themselves are the agent's and are not touched)`);
  return res;
}
