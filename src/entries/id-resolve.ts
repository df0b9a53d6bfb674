/**
 * Which entry a typed id names, for the commands that only read (`mem get`, `trace`, `source`, MCP
 * `memory_get`): an id is up to 80 characters, so a reader may give the exact id, the id in another
 * case, or a prefix of it that only one id has. Pure: the ids in, the match (or why none) out; the
 * full CLI and the fast read bundle (cli/lean-read.ts) both call it through read-commands.ts.
 *
 * Invariant: a query resolves to an id only when exactly one id fits at the first rule that any fits
 * (exact, then the same id in another case, then a prefix of an id, case aside), so a read never shows
 * an entry the user did not name alone. Commands that change memory (`forget --hard`, `restore`) never
 * use this: they need the exact id.
 */
import { MemError } from '../core/errors.js';

export type IdResolution =
  | { kind: 'found'; id: string; how: 'exact' | 'case' | 'prefix' }
  | { kind: 'ambiguous'; matches: string[] }
  | { kind: 'none'; near: string[] };

/** How many ids a message names at most. */
const SHOWN = 3;

/** A typed query is NFKC-folded as titles are before they become slugs (entries/id.ts); an id already was. */
const foldQuery = (s: string) => s.normalize('NFKC').toLowerCase();
const fold = (id: string) => id.toLowerCase();
/** The most edits a suggested id may be away from the query. */
const MAX_EDITS = 6;

export function resolveId(query: string, ids: Iterable<string>): IdResolution {
  const all = [...new Set(ids)].filter(Boolean);
  const q = query.trim();
  if (q && all.includes(q)) return { kind: 'found', id: q, how: 'exact' };
  const fq = foldQuery(q);
  if (!fq) return { kind: 'none', near: [] };
  const folded = all.map((id) => ({ id, f: fold(id) }));
  const same = folded.filter((x) => x.f === fq).map((x) => x.id);
  if (same.length === 1) return { kind: 'found', id: same[0]!, how: 'case' };
  if (same.length > 1) return { kind: 'ambiguous', matches: same.sort() };
  const prefixed = folded.filter((x) => x.f.startsWith(fq)).map((x) => x.id);
  if (prefixed.length === 1) return { kind: 'found', id: prefixed[0]!, how: 'prefix' };
  if (prefixed.length > 1) return { kind: 'ambiguous', matches: prefixed.sort() };
  return { kind: 'none', near: nearestIds(fq, folded) };
}

/**
 * The few ids closest to a query no id fits: the ids holding it (a slug typed without its kind and
 * date), else those nearest by the edits from the query to the id's closest beginning (a typo in a
 * prefix costs one edit, not the rest of the id), the longer shared beginning first among equals.
 * Only ids within a third of the query's length in edits (at most MAX_EDITS), and within one edit of the nearest, are
 * offered: a suggestion that shares nothing with the query helps no one. Ids sharing the longest
 * beginning are measured first, so the bound tightens early and a miss among 20,000 ids stays fast.
 */
function nearestIds(fq: string, folded: { id: string; f: string }[]): string[] {
  const holding = folded
    .filter((x) => x.f.includes(fq))
    .map((x) => x.id)
    .sort();
  if (holding.length) return holding.slice(0, SHOWN);
  const order = folded
    .map((x) => ({ ...x, shared: sharedStart(fq, x.f), dist: 0 }))
    .sort((a, b) => b.shared - a.shared);
  const limit = Math.min(MAX_EDITS, Math.floor(fq.length / 3));
  const scored: typeof order = [];
  let best = Infinity;
  for (const x of order) {
    const cap = Math.min(limit, best + 1);
    x.dist = prefixDistance(fq, x.f, cap);
    if (x.dist > cap) continue;
    scored.push(x);
    best = Math.min(best, x.dist);
  }
  scored.sort((a, b) => a.dist - b.dist || b.shared - a.shared || (a.id < b.id ? -1 : 1));
  return scored
    .filter((x) => x.dist <= best + 1)
    .slice(0, SHOWN)
    .map((x) => x.id);
}

/**
 * The least edits turning `q` into some beginning of `s` (Levenshtein, the last row's minimum), or
 * `cap + 1` once it must exceed `cap`. Only the band of cells within `cap` of the diagonal is filled:
 * every cell outside it is more than `cap` edits away.
 */
function prefixDistance(q: string, s: string, cap: number): number {
  const n = Math.min(s.length, q.length + cap);
  const over = cap + 1;
  let prev = new Int32Array(n + 2);
  let row = new Int32Array(n + 2);
  for (let j = 0; j <= n; j++) prev[j] = j;
  for (let i = 1; i <= q.length; i++) {
    const lo = Math.max(1, i - cap);
    const hi = Math.min(n, i + cap);
    row[lo - 1] = lo === 1 ? i : over;
    let least = row[lo - 1]!;
    const c = q.charCodeAt(i - 1);
    for (let j = lo; j <= hi; j++) {
      const v = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (c === s.charCodeAt(j - 1) ? 0 : 1));
      row[j] = v;
      if (v < least) least = v;
    }
    row[hi + 1] = over;
    if (least > cap) return over;
    [prev, row] = [row, prev];
  }
  let least = over;
  for (let j = Math.max(0, q.length - cap); j <= n; j++) least = Math.min(least, prev[j]!);
  return least;
}

function sharedStart(q: string, f: string): number {
  let n = 0;
  while (n < q.length && q[n] === f[n]) n++;
  return n;
}

const listed = (ids: string[]) =>
  ids.slice(0, SHOWN).join(', ') + (ids.length > SHOWN ? ` and ${ids.length - SHOWN} more` : '');

/** The id `query` names among `ids`, or a one-line MemError: NOT_FOUND naming the nearest ids, USAGE naming the ids it fits. */
export function resolveIdOrThrow(
  query: string,
  ids: Iterable<string>,
  hint = 'find ids with "mem search" or "mem export"',
): string {
  const r = resolveId(query, ids);
  if (r.kind === 'found') return r.id;
  if (r.kind === 'ambiguous')
    throw new MemError(
      'USAGE',
      `"${query}" fits ${r.matches.length} entry ids: ${listed(r.matches)}; give more of the id`,
    );
  const near = r.near.length ? `; nearest: ${r.near.join(', ')}` : `; ${hint}`;
  throw new MemError('NOT_FOUND', `no entry with id ${query}${near}`);
}

/**
 * For a command that changes memory and so takes only the exact id (`restore`, `forget`): the tail of
 * its one-line error saying which id the typed one would have named in a read, or the nearest ids.
 */
export function exactIdHint(query: string, ids: Iterable<string>): string {
  const r = resolveId(query, ids);
  if (r.kind === 'found') return `; did you mean ${r.id}? (this command takes the exact id)`;
  if (r.kind === 'ambiguous') return `; ids beginning so: ${listed(r.matches)} (this command takes the exact id)`;
  return r.near.length ? `; nearest: ${r.near.join(', ')}` : '';
}
