/**
 * Result filters of `mem search` (pure): --since/--until on the chunk's date, --kind, --status,
 * --scope (exact, case-insensitive, whitespace as `-`: scope-key.ts) and --path (a glob: `*` within a folder, `**` across folders).
 * A chunk with no date is left out when a date bound is given.
 */
import { KIND_LIST, kindNamed } from '../../entries/kind-names.js';
import { STATUSES } from '../../entries/model.js';
import { scopeKey } from '../../entries/scope-key.js';
import type { DocRecord } from '../text/types.js';

export interface Filters {
  since?: string;
  until?: string;
  kind?: string;
  status?: string;
  scope?: string;
  path?: string;
}

export function globToRegExp(glob: string): RegExp {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const ch = glob[i]!;
    if (ch === '*') {
      if (glob[i + 1] === '*') {
        re += glob[i + 2] === '/' ? '(?:.*/)?' : '.*';
        i += glob[i + 2] === '/' ? 2 : 1;
      } else re += '[^/]*';
    } else if (ch === '?') re += '[^/]';
    else re += ch.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  // A glob without a slash matches a base name anywhere (`*.md`), like .gitignore.
  return new RegExp(glob.includes('/') ? `^${re}$` : `(?:^|/)${re}$`);
}

export function makeFilter(f: Filters): (r: DocRecord) => boolean {
  const lower = (s: string | null | undefined) => (s ?? '').toLowerCase();
  const glob = f.path ? globToRegExp(f.path) : undefined;
  return (r) => {
    if (f.since && (!r.date || r.date.slice(0, 10) < f.since)) return false;
    if (f.until && (!r.date || r.date.slice(0, 10) > f.until)) return false;
    if (f.kind && lower(r.kind) !== lower(f.kind) && kindNamed(f.kind) !== r.kind) return false;
    if (f.status && lower(r.status) !== lower(f.status)) return false;
    // A retracted entry (mem forget) is hidden unless asked for by status (DESIGN §8).
    if (!f.status && lower(r.status) === 'retracted') return false;
    if (f.scope && scopeKey(r.scope ?? '') !== scopeKey(f.scope)) return false;
    if (glob && !glob.test(r.path)) return false;
    return true;
  };
}

export function hasFilters(f: Filters): boolean {
  return Object.values(f).some((v) => v !== undefined);
}

/**
 * Why --kind or --status may have matched nothing: a value that is none of the kinds or statuses
 * memfold writes (a typo such as `decisions`). Not an error: a hand-written entry may use its own.
 */
export function unknownFilterValues(f: Filters): string[] {
  const out: string[] = [];
  if (f.kind && !kindNamed(f.kind)) out.push(`--kind "${f.kind}" is none of the kinds memfold writes (${KIND_LIST})`);
  if (f.status && !(STATUSES as readonly string[]).includes(f.status.toLowerCase()))
    out.push(`--status "${f.status}" is none of the statuses memfold writes (${STATUSES.join(', ')})`);
  return out;
}
