/**
 * How `mem search --archive` prints its answer, whoever computed it: this process (archive-search.ts)
 * or the resident search server (which replies with the data only). One printer, so a served archive
 * search prints the cold one's bytes by construction: the warnings, then the response as JSON or as
 * text. Import-lean (terminal and types only). A server's reply is checked for every field printed
 * here before anything is printed; anything else is no answer.
 */
import type { ArchiveHit, ArchiveResponse } from '../archive/search.js';
import { c, type Output } from '../terminal/output.js';
import { count } from '../core/count.js';

/** An archive search's answer: its response and the warnings printed before it (the query's embedding). */
export interface ArchiveAnswer {
  archive: ArchiveResponse;
  warnings: string[];
}

export function reportArchive(out: Output, a: ArchiveAnswer): void {
  const r = a.archive;
  for (const w of a.warnings) out.warn(w);
  if (r.outdated)
    out.warn('the archive index was written by an older memfold: run "mem archive" to rebuild it (nothing searched)');
  if (!r.indexed) out.warn('there is no archive index yet: run "mem archive" to index the raw transcripts');
  for (const d of r.damaged)
    out.warn(`archive segment damaged (${d}): its windows were left out; run "mem archive" to rebuild it`);
  if (r.behind)
    out.warn(
      `${count(r.behind, 'transcript')} changed since the last "mem archive": their new lines are not searched yet`,
    );
  out.json(r);
  out.result(formatArchive(r));
}

export function formatArchive(r: ArchiveResponse): string {
  if (!r.results.length) return c.dim(`no archive hits for "${r.query}" (${r.docs} windows searched)`);
  return r.results
    .map(
      (h, i) =>
        `${c.bold(`${i + 1}. ${h.sessionPath}`)} ${c.dim(`turns ${h.turns} · ${h.timestamp ?? 'no time'} · ${h.source} · session ${h.sessionId} · score ${h.score}`)}\n   ${h.snippet}`,
    )
    .join('\n');
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const strings = (v: unknown): v is string[] => Array.isArray(v) && v.every((s) => typeof s === 'string');
const isHit = (h: unknown): h is ArchiveHit =>
  isObj(h) &&
  ['sessionPath', 'turns', 'source', 'sessionId', 'snippet'].every((f) => typeof h[f] === 'string') &&
  typeof h.score === 'number' &&
  (h.timestamp === null || typeof h.timestamp === 'string');

/** A server's archive reply (protocol.ts), when it is one whose every printed field is there. */
export function archiveIn(reply: unknown): ArchiveAnswer | undefined {
  if (!isObj(reply) || reply.ok !== true || !strings(reply.warnings)) return undefined;
  const r = reply.archive;
  const ok =
    isObj(r) &&
    typeof r.query === 'string' &&
    typeof r.docs === 'number' &&
    typeof r.behind === 'number' &&
    typeof r.indexed === 'boolean' &&
    typeof r.outdated === 'boolean' &&
    strings(r.damaged) &&
    Array.isArray(r.results) &&
    r.results.every(isHit);
  return ok ? { archive: r as unknown as ArchiveResponse, warnings: reply.warnings } : undefined;
}
