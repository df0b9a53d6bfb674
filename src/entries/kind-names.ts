/**
 * How people and agents name a kind (`--kind`, MCP `kind`, `search --kind`): lower case, with the
 * id prefixes' short forms `arch` and `pref` as aliases. One table, so every surface accepts the same
 * words and a new kind reaches them all at once. No imports beyond model.ts: the lean search path loads it.
 */
import { KINDS, type Kind } from './model.js';

const ALIASES: Record<string, Kind> = { arch: 'Architecture', pref: 'Preference' };

/** Every accepted name, lower case: the kinds, then the aliases. */
export const KIND_NAMES = [...KINDS.map((k) => k.toLowerCase()), ...Object.keys(ALIASES)] as [string, ...string[]];

/** The kind a name means, case-insensitive; undefined for none. */
export function kindNamed(name: string): Kind | undefined {
  const n = name.trim().toLowerCase();
  return ALIASES[n] ?? KINDS.find((k) => k.toLowerCase() === n);
}

/** "decision, rule, architecture (arch), …": the list an error message names. */
export const KIND_LIST = KINDS.map((k) => {
  const alias = Object.keys(ALIASES).find((a) => ALIASES[a] === k);
  return alias ? `${k.toLowerCase()} (${alias})` : k.toLowerCase();
}).join(', ');
