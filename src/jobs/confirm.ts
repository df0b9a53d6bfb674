/**
 * `mem confirm <id>`: a person stands behind an agent's statement (entries/standing.ts). Every
 * copy of the entry that has `origin: agent` and no `confirmed:` gets one line, `- confirmed: <day>
 * by mem confirm`, right after its `origin` line; nothing else in the file changes, byte for byte.
 * Under the write lock with the `confirm` allowance, logged in the weekly log, so compound may
 * promote it from its next run on and `mem context` may put it in layer 0.
 */
import type { DateTime } from 'luxon';
import type { LoadedConfig } from '../config/load.js';
import { MemError } from '../core/errors.js';
import { unconfirmedEntry as unconfirmedAgent } from '../entries/standing.js';
import { getField } from '../entries/model.js';
import { entryBlocks, fieldLines, parseBlocks, serializeBlocks, splitLines } from '../entries/parse.js';
import { loadEntries } from '../entries/store.js';
import { appendRun, weeklyLogOf } from '../governance/weekly-log.js';
import { defaultLockOptions } from '../write/defaults.js';
import { WorkspaceWriter } from '../write/writer.js';
import { runStamp } from './forget-hard.js';

export interface ConfirmResult {
  id: string;
  /** Files where the entry was (or would be) confirmed. */
  files: string[];
  /** Why nothing was to confirm: the entry's origin is not agent, or it is confirmed already. */
  already: 'not-agent' | 'confirmed' | null;
  dryRun: boolean;
  log: string | null;
}

/** The text with each unconfirmed agent copy of `id` confirmed; undefined when none is left. Pure. */
export function confirmIn(text: string, id: string, value: string): string | undefined {
  const blocks = parseBlocks(text);
  let changed = false;
  for (const b of entryBlocks(blocks)) {
    if (getField(b.entry, 'id')?.trim() !== id || !unconfirmedAgent(b.entry)) continue;
    const lines = splitLines(b.raw);
    const at = fieldLines(b, 'origin')[0]!;
    const line = lines[at]!;
    const eol = line.endsWith('\r\n') ? '\r\n' : '\n';
    const indent = /^[ \t]*[-*+][ \t]+/.exec(line)?.[0] ?? '- ';
    if (!line.endsWith('\n')) lines[at] = line + eol;
    lines.splice(at + 1, 0, `${indent}confirmed: ${value}${line.endsWith('\n') ? eol : ''}`);
    b.raw = lines.join('');
    changed = true;
  }
  return changed ? serializeBlocks(blocks) : undefined;
}

export async function runConfirm(opts: {
  workspace: string;
  loaded: LoadedConfig;
  now: DateTime;
  id: string;
  dryRun: boolean;
}): Promise<ConfirmResult> {
  const held = (await loadEntries(opts.workspace)).filter((r) => r.id === opts.id);
  if (!held.length)
    throw new MemError('NOT_FOUND', `no entry with id ${opts.id} (ids are listed by "mem search" and "mem export")`);
  const res: ConfirmResult = { id: opts.id, files: [], already: null, dryRun: opts.dryRun, log: null };
  const todo = [...new Set(held.filter((r) => unconfirmedAgent(r.entry)).map((r) => r.file))];
  if (!todo.length) {
    res.already = held.some((r) => (getField(r.entry, 'origin') ?? '').trim().toLowerCase() === 'agent')
      ? 'confirmed'
      : 'not-agent';
    return res;
  }
  const value = `${opts.now.toISODate()} by mem confirm`;
  if (opts.dryRun) return { ...res, files: todo };
  const writer = new WorkspaceWriter(opts.workspace, 'confirm', defaultLockOptions(opts.loaded.config));
  for (const file of todo)
    if (await writer.update(file, (cur) => (cur === undefined ? undefined : confirmIn(cur, opts.id, value))))
      res.files.push(file);
  if (res.files.length) {
    const log = weeklyLogOf(opts.now);
    await writer.update(log.file, (cur) =>
      appendRun(cur, log.header, `${runStamp(opts.now)} (mem confirm)`, [`confirmed: ${opts.id} by \`mem confirm\``]),
    );
    res.log = log.file;
  }
  return res;
}
