/**
 * The ready packs' files in `.mem/entries/packs/` (pack-cache.ts): one per scope the heads hold and
 * one for a folder of no known scope, each stamped with its key (keyOf: everything the pack depends
 * on), beside the counts of the packs' own lines and `meta.json`, written last, which names the
 * heads' digest and MEMORY.md's text they were built for and every pack's key.
 *
 * Invariant: a file is taken only when every field has the shape a build writes (an item points into
 * its own layers, every count is an integer); anything else reads as missing, so a damaged or
 * foreign file sends the read to the heads instead of into a wrong pack.
 */
import path from 'node:path';
import { VERSION } from '../core/version.js';
import { stampOfTexts } from '../entries/heads-hash.js';
import { scopeFile as headsFile, type CurrentHeads } from '../entries/heads-store.js';
import { DEFAULT_BUDGET } from './fit.js';
import { LIMITS } from './select.js';
import { readDerivedJson } from '../write/atomic.js';
import { isKept, type Kept } from './kept.js';
import { getField } from '../entries/model.js';
import { scopeKey } from '../entries/scope-key.js';
import { tableRecord } from '../entries/table.js';

// Raised whenever what the files hold changes: a refresh sees files of another layout as stale.
export const LAYOUT = 5;
export const DIR = 'packs';
/** The counts of the packs' own lines, for the next refresh. */
export const FIXED = 'fixed.json';
export const META = 'meta.json';
/** The file of a folder whose scope the heads do not hold: layer 0 only. */
export const ELSEWHERE = '';

/** The pack at the default budget as fit.ts makes it: its text, count, and items as [layer, index in that layer, form]. */
export interface Fitted {
  text: string;
  tokens: number;
  overBudget: boolean;
  items: Array<[0 | 1, number, 'full' | 'summary']>;
  /** Each item's title as the pack gives it to the agent: redacted (the secret scan is a read's slowest step after the listing). */
  titles: string[];
  omitted: string[];
}

export interface ScopeFile {
  stamp: string;
  core: Kept[];
  scope: Kept[];
  counts: Array<[string, number]>;
  /** Made with the scope's own name in its heading (none for the file of a folder of no known scope). */
  fitted: Fitted;
}

export const scopeFile = (scope: string) => `s-${stampOfTexts('scope', scope).slice(0, 16)}.json`;
/** MEMORY.md's text as the packs' meta names it. */
export const memoryStamp = (memoryText: string | undefined) =>
  stampOfTexts(memoryText === undefined ? '' : 'MEMORY.md', memoryText ?? '');

/**
 * A pack's key: what it is chosen from (global's heads and its scope's, the cited ends it may take,
 * MEMORY.md's text, pinned text included), the budget and limits it is fitted to, and memfold's version (another
 * version may choose, render or redact a pack otherwise: the secret gate is the version's). The
 * whole entries it prints are checked apart (pack-deps.ts).
 */
export function keyOf(heads: CurrentHeads, scope: string, memoryText: string | undefined): string {
  const part = (s: string) => [heads.gens[headsFile(s)] ?? ''];
  return stampOfTexts(
    String(LAYOUT),
    VERSION,
    String(DEFAULT_BUDGET),
    JSON.stringify(LIMITS),
    scope,
    ...part('global'),
    ...(scope && scope !== 'global' ? part(scope) : []),
    // The cited ends a pack of this scope may take: global's and its own (select.ts coreWorthy).
    JSON.stringify(
      Object.entries(heads.cited).filter(([, end]) => {
        const at = end && getField(tableRecord(end[0], end[1]).entry, 'scope')?.trim();
        return !!at && (scopeKey(at) === 'global' || (!!scope && scopeKey(at) === scope));
      }),
    ),
    memoryStamp(memoryText),
  );
}

export const isFitted = (v: unknown, core: number, scope: number): v is Fitted => {
  const f = v as Fitted;
  return (
    !!f &&
    typeof f.text === 'string' &&
    Number.isInteger(f.tokens) &&
    typeof f.overBudget === 'boolean' &&
    Array.isArray(f.omitted) &&
    f.omitted.every((x) => typeof x === 'string') &&
    Array.isArray(f.titles) &&
    f.titles.length === f.items?.length &&
    f.titles.every((t) => typeof t === 'string') &&
    Array.isArray(f.items) &&
    f.items.every(
      (i) =>
        Array.isArray(i) &&
        (i[0] === 0 || i[0] === 1) &&
        Number.isInteger(i[1]) &&
        i[1] >= 0 &&
        i[1] < (i[0] === 0 ? core : scope) &&
        (i[2] === 'full' || i[2] === 'summary'),
    )
  );
};

export const isCounts = (v: unknown): v is Array<[string, number]> =>
  Array.isArray(v) && v.every((c) => Array.isArray(c) && typeof c[0] === 'string' && Number.isInteger(c[1]));

export function readCounts(file: string): Array<[string, number]> {
  const v = readDerivedJson(file);
  return isCounts(v) ? v : [];
}

export function readScopeFile(file: string): ScopeFile | undefined {
  const v = readDerivedJson(file) as Partial<ScopeFile> | undefined;
  const ok =
    !!v &&
    typeof v.stamp === 'string' &&
    Array.isArray(v.core) &&
    v.core.every(isKept) &&
    Array.isArray(v.scope) &&
    v.scope.every(isKept) &&
    isCounts(v.counts) &&
    isFitted(v.fitted, v.core.length, v.scope.length);
  return ok ? (v as ScopeFile) : undefined;
}

export interface PackMeta {
  layout: number;
  /** The heads' digest (heads-store.ts) and MEMORY.md's stamp the packs were made for. */
  heads: string;
  memory: string;
  /** Each pack's key, by scope (ELSEWHERE included). */
  keys: Record<string, string>;
}

export function readPackMeta(dir: string): PackMeta | undefined {
  const v = readDerivedJson(path.join(dir, META)) as Partial<PackMeta> | undefined;
  return v?.layout === LAYOUT &&
    typeof v.heads === 'string' &&
    typeof v.memory === 'string' &&
    !!v.keys &&
    typeof v.keys === 'object'
    ? (v as PackMeta)
    : undefined;
}
