/**
 * What a resident server's answer carries, as data: the SearchOutcome the cold path computes (with,
 * for a client that read no configuration, that configuration's warnings), or what a served
 * `mem index` run produced. The server prints nothing: the client prints the data with the cold
 * path's own code (search/report.ts, search/index-report.ts), so served and cold output are the
 * same bytes by construction, whatever the client's --json, -q, terminal or colours.
 *
 * Invariant: a client prints a reply only after it passed these checks, which cover every field the
 * printing code reads; anything else on the socket (a foreign process, a malformed line) is no
 * answer, and the client answers itself having printed nothing. Import-lean: types and plain checks.
 * (A reply comes in as `unknown`: protocol.ts's Reply types name this module's.)
 */
import type { SearchOutcome } from '../query/outcome.js';
import type { IndexResult } from '../run/update.js';

/** A served `mem index`: the configuration's warnings, the run's result and time, and a job log it could not append to. */
export interface ServedIndexRun {
  warnings: string[];
  result: IndexResult;
  seconds: number;
  logged?: string;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const strings = (v: unknown): v is string[] => Array.isArray(v) && v.every((s) => typeof s === 'string');

function isResult(r: unknown): boolean {
  return (
    isObj(r) &&
    typeof r.path === 'string' &&
    typeof r.snippet === 'string' &&
    typeof r.startLine === 'number' &&
    typeof r.endLine === 'number' &&
    (r.source === null || r.source === undefined || isObj(r.source))
  );
}

export function isOutcome(o: unknown): o is SearchOutcome {
  if (!isObj(o) || !strings(o.notices) || !isObj(o.response) || (o.marks !== undefined && !strings(o.marks)))
    return false;
  const res = o.response;
  return typeof res.query === 'string' && Array.isArray(res.results) && res.results.every(isResult);
}

function isIndexRun(r: unknown): r is ServedIndexRun {
  return (
    isObj(r) &&
    strings(r.warnings) &&
    typeof r.seconds === 'number' &&
    (r.logged === undefined || typeof r.logged === 'string') &&
    isObj(r.result) &&
    strings(r.result.warnings) &&
    isObj(r.result.tiers) &&
    Object.values(r.result.tiers).every(isObj)
  );
}

/** A search reply's outcome and the warnings to print before it (none unless the client asked with `fill`). */
export function outcomeIn(reply: unknown): { outcome: SearchOutcome; warnings: string[] } | undefined {
  if (!isObj(reply) || reply.ok !== true || !isOutcome(reply.outcome)) return undefined;
  const warnings = reply.warnings ?? [];
  return strings(warnings) ? { outcome: reply.outcome, warnings } : undefined;
}

/** An index reply's run, when it is one. */
export function indexRunIn(reply: unknown): ServedIndexRun | undefined {
  return isObj(reply) && reply.ok === true && isIndexRun(reply.index) ? reply.index : undefined;
}
