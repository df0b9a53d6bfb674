/**
 * What `mem forget --hard` removed, kept so no run on any machine learns it again from the
 * transcripts it came from (a catch-up, a `--since all` back-fill, `rm -rf .mem`, a second clone).
 * Only one-way marks are kept, in `memory/.forgotten`, committed with the memory and merged by git as
 * a union of lines: for each entry, sha256 of its id, of its normalised conclusion, and of its kind
 * and source turns, each hashed again with the workspace's salt (a `salt` line in the same file).
 * The salt defeats precomputed tables, nothing more: whoever can guess a statement can test it.
 * Ids are a function of the title and day, so the same statement read again gets the same id; the
 * conclusion mark catches it said again on another day, the source mark a reworded extraction (an
 * LLM's) of the same turns. Two clones that each made a salt before they merged keep both lines:
 * every salt is honoured, and new marks use the smallest, so the clones converge. The per-machine
 * `.mem/forgotten.json` of older versions (unsalted marks) is honoured and migrated into the file.
 * `mem remember` is not held back: saying it again on purpose is how a person takes a forget back.
 */
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { makeId } from '../entries/id.js';
import { getField, getSource, type Entry, type Kind } from '../entries/model.js';
import { normalise } from '../extract/sentences.js';
import type { Candidate } from '../extract/types.js';
import { FORGOTTEN_FILE, LEGACY_FORGOTTEN_FILE } from '../workspace/layout.js';
import type { WorkspaceWriter } from '../write/writer.js';

/** The marks on record; `has` takes an unsalted mark (idMark, entryMarks, candidateMarks). */
export interface ForgottenMarks {
  readonly size: number;
  has(mark: string): boolean;
  /** The weekly log's names for a removed id (logMark), one per salt on record; the first is what a new line uses. */
  logMarks(id: string): string[];
}

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const salted = (salt: string, mark: string) => sha256(`${salt}:${mark}`);

export const idMark = (id: string): string => sha256(`id:${id}`);

/**
 * How the weekly log names an id hard forget removed: the first 12 hex of its salted id mark, which
 * is also how its line in `memory/.forgotten` starts. Never a bare hash of the id: the log is read by
 * people and tools that could look that up in a table of hashed ids.
 */
export const logMark = (salt: string, id: string): string => salted(salt, idMark(id)).slice(0, 12);

/** What logs written before the salt named an id with (`removed: entry sha256:<these>`): read, never written. */
export const legacyLogMark = (id: string): string => sha256(id).slice(0, 12);

function marks(id: string, kind: string, conclusion: string, source: string | undefined): string[] {
  const text = normalise(conclusion);
  return [
    idMark(id),
    ...(text ? [sha256(`conclusion:${text}`)] : []),
    ...(source ? [sha256(`source:${kind} ${source}`)] : []),
  ];
}

export function entryMarks(id: string, entry: Entry): string[] {
  const s = getSource(entry);
  return marks(
    id,
    entry.kind,
    getField(entry, 'conclusion') ?? '',
    s?.session_id && s.message_range ? `${s.session_id} ${s.message_range}` : undefined,
  );
}

export function candidateMarks(c: Candidate & { day: string }): string[] {
  return marks(
    makeId(c.kind as Kind, c.day, c.title),
    c.kind,
    c.conclusion,
    `${c.sessionId} ${c.firstTurn}-${c.lastTurn}`,
  );
}

export const isForgotten = (forgotten: ForgottenMarks, m: string[]): boolean => m.some((x) => forgotten.has(x));

const HEX64 = /^[0-9a-f]{64}$/;
const SALT_LINE = /^salt ([0-9a-f]{32,64})$/;

const HEADER = [
  '# memfold: what "mem forget --hard" removed, so no run on any machine learns it again (docs/agents.md).',
  "# No text: each line is sha256(salt + a one-way hash of an entry's id, conclusion or source turns).",
  '# The salt only defeats precomputed tables; anyone who can guess a statement can test it. Merged by',
  '# git as a union of lines ("mem init" writes the .gitattributes line); delete a line to stop honouring it.',
];

interface Record {
  salts: string[];
  marks: Set<string>;
}

/** Tolerant: comments, blank and unknown lines (a hand edit, a merge) are skipped, duplicates are one. */
function parseRecord(text: string | undefined): Record {
  const salts = new Set<string>();
  const marks = new Set<string>();
  for (const raw of (text ?? '').split('\n')) {
    const line = raw.trim();
    const salt = SALT_LINE.exec(line);
    if (salt) salts.add(salt[1]!);
    else if (HEX64.test(line)) marks.add(line);
  }
  return { salts: [...salts].sort(), marks };
}

/** The unsalted marks of `.mem/forgotten.json` (before marks were committed); a damaged file holds none. */
function parseLegacy(text: string | undefined): string[] {
  try {
    const v = JSON.parse(text ?? '{}') as { sha256?: unknown };
    return Array.isArray(v.sha256) ? v.sha256.filter((x): x is string => typeof x === 'string' && HEX64.test(x)) : [];
  } catch {
    return [];
  }
}

const readOrUndefined = (file: string) => {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
};

/** The marks on record (committed and not yet migrated); missing files are an empty record. */
export function loadForgotten(workspace: string): ForgottenMarks {
  const rec = parseRecord(readOrUndefined(path.join(workspace, FORGOTTEN_FILE)));
  const legacy = new Set(parseLegacy(readOrUndefined(path.join(workspace, LEGACY_FORGOTTEN_FILE))));
  return {
    size: rec.marks.size + legacy.size,
    has: (mark) => legacy.has(mark) || rec.salts.some((s) => rec.marks.has(salted(s, mark))),
    logMarks: (id) => rec.salts.map((s) => logMark(s, id)),
  };
}

/**
 * Adds unsalted marks to the committed record (with a salt line when it has none), appending only
 * lines it lacks: an append merges as a union without a conflict. Returns whether the file changed.
 */
export async function recordForgotten(writer: WorkspaceWriter, m: string[]): Promise<boolean> {
  return writer.update(FORGOTTEN_FILE, (cur) => {
    const rec = parseRecord(cur);
    const lines: string[] = [];
    let salt = rec.salts[0];
    if (!salt) {
      salt = randomBytes(16).toString('hex');
      if (!cur?.trim()) lines.push(...HEADER);
      lines.push(`salt ${salt}`);
    }
    const fresh = [...new Set(m)].filter((x) => !rec.salts.some((s) => rec.marks.has(salted(s, x))));
    lines.push(...fresh.map((x) => salted(salt, x)));
    if (!lines.length) return undefined;
    const base = cur && !cur.endsWith('\n') ? `${cur}\n` : (cur ?? '');
    return base + lines.join('\n') + '\n';
  });
}

/**
 * Moves the marks of `.mem/forgotten.json` into the committed record: an unsalted mark is hashed
 * with the salt like any other. The old file goes once its marks are written.
 */
export async function migrateForgotten(writer: WorkspaceWriter): Promise<number> {
  const file = writer.resolve(LEGACY_FORGOTTEN_FILE);
  const text = readOrUndefined(file);
  if (text === undefined) return 0;
  const legacy = parseLegacy(text);
  if (legacy.length) await recordForgotten(writer, legacy);
  await fs.promises.rm(file, { force: true });
  return legacy.length;
}
