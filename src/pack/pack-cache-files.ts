/**
 * The ready packs' files in `.mem/entries/packs/` (pack-cache.ts): one per scope the heads hold and
 * one for a folder of no known scope, each stamped with the heads' digest, MEMORY.md's text and
 * memfold's version, beside the counts of the packs' own lines and the stamp of the last build.
 *
 * Invariant: a file is taken only when every field has the shape a build writes (an item points into
 * its own layers, every count is an integer); anything else reads as missing, so a damaged or
 * foreign file sends the read to the heads instead of into a wrong pack.
 */
import path from 'node:path';
import { VERSION } from '../core/version.js';
import { stampOfTexts } from '../entries/heads-hash.js';
import type { CurrentHeads } from '../entries/heads-store.js';
import { readDerivedJson } from '../write/atomic.js';
import { isKept, type Kept } from './kept.js';

// Raised whenever what the files hold changes: a refresh sees files of another layout as stale.
export const LAYOUT = 4;
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
// memfold's version too: another version may choose or render a pack otherwise.
export const stampOf = (heads: CurrentHeads, memoryText: string | undefined) =>
  stampOfTexts(String(LAYOUT), VERSION, heads.digest, memoryText === undefined ? '' : 'MEMORY.md', memoryText ?? '');

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

export function readScopeMeta(dir: string): string | undefined {
  const v = readDerivedJson(path.join(dir, META)) as { layout?: unknown; stamp?: unknown } | undefined;
  return v?.layout === LAYOUT && typeof v.stamp === 'string' ? v.stamp : undefined;
}
