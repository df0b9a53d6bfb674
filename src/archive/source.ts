/**
 * `mem source <id>`: the original turns behind an entry (its session_path and message_range, with
 * N turns around), redacted as on write. Memory entries are conclusions; this shows the words they
 * came from. A transcript that moved is an error; one that changed is read anyway and says how:
 * the cited turns no longer hold the statement, and where in the file it is now, if anywhere
 * (placement.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { LoadedConfig } from '../config/load.js';
import { MemError } from '../core/errors.js';
import { notRegularFile } from '../core/regular-file.js';
import { resolveIdOrThrow } from '../entries/id-resolve.js';
import { getField, getSource, type EntrySource } from '../entries/model.js';
import { loadEntries, type EntryRecord } from '../entries/store.js';
import { redactSecrets } from '../secrets/secrets.js';
import { listTranscriptFiles, openTranscript, type SourceKind, type Turn } from '../transcripts/index.js';
import { expandHome } from '../workspace/locate.js';
import { checkCursor, loadCursors } from '../transcripts/cursors.js';
import { placeStatement, type Placement } from './placement.js';

/** Longer turns (tool output, pasted files) are cut in the output. */
const TURN_TEXT_MAX = 2000;

export interface SourceTurn {
  index: number;
  role: string;
  timestamp: string | null;
  text: string;
  cited: boolean;
  /** Byte offset just past the turn in the transcript file. */
  endOffset: number;
}

export interface SourceResult {
  id: string;
  source: EntrySource;
  file: string;
  kind: SourceKind;
  range: [number, number];
  sessionMatches: boolean;
  /** The cited turns hold the entry's statement, and no other run of as many turns holds more of it. */
  statementFound: boolean;
  /** When not: the turns that hold it now (as many as cited), if any. */
  nowAt: [number, number] | null;
  /**
   * The file against the hash microsync stored of what it read (`.mem/cursors.json`): `unchanged`
   * (byte for byte), `appended` (same bytes, more after), `rewritten` (shrank or bytes before the
   * cursor changed), `unknown` (no cursor for this path: read on another machine, or `.mem/` deleted).
   */
  read: 'unchanged' | 'appended' | 'rewritten' | 'unknown';
  turns: SourceTurn[];
  warnings: string[];
}

function parseRange(range: string, id: string): [number, number] {
  const m = /^(\d+)(?:-(\d+))?$/.exec(range.trim());
  if (!m) throw new MemError('NOT_FOUND', `${id}: message_range "${range}" is not N-M`);
  const a = Number(m[1]);
  return [a, Number(m[2] ?? a)];
}

/** What a run of several look-ups shares: the transcript files of each configured source. */
export interface SourceContext {
  workspace: string;
  loaded: LoadedConfig;
  filesBySource?: Map<string, string[]>;
}

/** The first `bytes` of a regular file as text (readSource has checked it is one), not the whole file. */
function readHead(file: string, bytes: number): string {
  const fd = fs.openSync(file, 'r');
  try {
    const buf = Buffer.alloc(bytes);
    return buf.toString('utf8', 0, fs.readSync(fd, buf, 0, bytes, 0));
  } finally {
    fs.closeSync(fd);
  }
}

/** The configured source kind that holds this file (a regular file), else a guess from the file itself. */
async function kindOf(file: string, ctx: SourceContext): Promise<SourceKind> {
  ctx.filesBySource ??= new Map();
  for (const s of ctx.loaded.config.sources) {
    let files = ctx.filesBySource.get(s.name);
    if (!files)
      ctx.filesBySource.set(
        s.name,
        (files = await listTranscriptFiles(s.kind, s.path, ctx.workspace).catch(() => [] as string[])),
      );
    if (files.includes(file)) return s.kind;
  }
  if (file.endsWith('.md')) return 'markdown';
  const head = readHead(file, 4096);
  if (/"type":\s*"session"/.test(head)) return 'openclaw';
  if (/"type":\s*"session_meta"|"payload":|"record_type"/.test(head)) return 'codex';
  if (/"sessionId":/.test(head) && /"uuid":/.test(head)) return 'claude-code';
  return 'jsonl';
}

/** The turns behind the entry `typed` names (the exact id, another case, or a prefix only one id has: entries/id-resolve.ts). */
export async function findSource(
  workspace: string,
  loaded: LoadedConfig,
  typed: string,
  around: number,
): Promise<SourceResult> {
  const records = await loadEntries(workspace);
  const id = resolveIdOrThrow(
    typed,
    records.map((r) => r.id),
  );
  return readSource(
    records.find((r) => r.id === id)!,
    { workspace, loaded },
    around,
  );
}

/** The turns behind one entry; MemError when it has no transcript or the transcript is gone. */
export async function readSource(record: EntryRecord, ctx: SourceContext, around: number): Promise<SourceResult> {
  const { id } = record;
  const source = getSource(record.entry);
  if (!source?.session_path)
    throw new MemError(
      'NOT_FOUND',
      `${id} has no transcript source (origin ${getField(record.entry, 'origin') ?? 'unknown'}): it was written by hand`,
    );
  const file = path.resolve(ctx.workspace, expandHome(source.session_path));
  // Before anything opens it: reading a FIFO never returns, and a blocked read ignores SIGTERM.
  const what = notRegularFile(file);
  if (what === 'gone') {
    throw new MemError(
      'SOURCE_UNREADABLE',
      `${id}: its transcript ${source.session_path} is gone (moved or deleted); the entry's own text is all that is left ("mem get ${id}")`,
    );
  }
  if (what)
    throw new MemError(
      'SOURCE_UNREADABLE',
      `${id}: its transcript ${source.session_path} is ${what}, not a file; not read`,
    );
  const range = parseRange(source.message_range, id);
  const check = await checkCursor(file, loadCursors(ctx.workspace).cursors[file], fs.statSync(file));
  const read = check.state === 'none' ? 'unknown' : check.state === 'grown' ? 'appended' : check.state;
  const kind = await kindOf(file, ctx);
  const stream = openTranscript(file, kind, { maxLineBytes: ctx.loaded.config.limits.maxLineBytes });
  const placer = placeStatement(getField(record.entry, 'conclusion') ?? record.entry.title, range);
  const turns: SourceTurn[] = [];
  let sessionId = '';
  for await (const t of stream.turns) {
    sessionId ||= t.sessionId;
    placer.add(t);
    if (t.index >= range[0] - around && t.index <= range[1] + around) turns.push(show(t, range));
  }
  const cited = turns.filter((t) => t.cited);
  const placed = placer.result();
  const warnings: string[] = [];
  if (check.state === 'rewritten')
    warnings.push(
      `${source.session_path} ${check.why} since microsync read it (its stored hash no longer matches): the turns below are what the file holds now`,
    );
  // No turn read (an empty or binary file) names no session: the turn-count warning below says what is wrong.
  const sessionMatches = !source.session_id || !sessionId || sessionId === source.session_id;
  if (!sessionMatches)
    warnings.push(
      `${source.session_path} now holds session ${sessionId}, not ${source.session_id}: the file was replaced`,
    );
  if (cited.length < range[1] - range[0] + 1)
    warnings.push(
      `${source.session_path} has fewer turns than the cited ${source.message_range}: it was truncated or rewritten`,
    );
  if (placed.nowAt) warnings.push(movedWarning(placed, placed.nowAt, range));
  else if (!placed.found) warnings.push(absentWarning(read));
  return {
    id,
    source,
    file,
    kind,
    range,
    sessionMatches,
    statementFound: placed.found,
    nowAt: placed.nowAt,
    read,
    turns,
    warnings,
  };
}

/** No turn holds the statement: the transcript changed, or (read as microsync read it) the entry says what its turns never did. */
function absentWarning(read: SourceResult['read']): string {
  if (read === 'rewritten')
    return 'the cited turns no longer hold the statement; the transcript changed and no turn holds it now';
  if (read === 'unknown') return 'the cited turns do not hold the statement, and no turn holds it now';
  return `the cited turns do not hold the statement, and no turn does; the transcript is as microsync read it (${read}), so the entry says what its turns never said`;
}

function movedWarning(p: Placement, nowAt: [number, number], range: [number, number]): string {
  const pct = (x: number) => `${Math.round(x * 100)}%`;
  const by = nowAt[0] - range[0];
  return `turns ${nowAt.join('-')} hold the statement (${pct(p.nowScore)} of its words), not the cited ${range.join('-')} (${pct(p.cited)}): the range is off by ${by > 0 ? '+' : ''}${by}, as when turns were inserted or removed before it`;
}

function show(t: Turn, range: [number, number]): SourceTurn {
  const text = redactSecrets(t.text).text;
  return {
    index: t.index,
    role: t.role,
    timestamp: t.timestamp,
    text: text.length > TURN_TEXT_MAX ? `${text.slice(0, TURN_TEXT_MAX)} …` : text,
    cited: t.index >= range[0] && t.index <= range[1],
    endOffset: t.endOffset,
  };
}
