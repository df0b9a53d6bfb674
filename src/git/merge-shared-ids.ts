/**
 * Entries that share one id on some side (a hand-added entry reusing an id, a pasted copy) cannot be
 * paired one to one by id, so ./merge-entries.ts merges them by their text instead, pure: a version
 * is kept when both sides hold it, or when one side holds it and the base does not (that side wrote
 * it); a version the base holds and one side no longer does was removed or edited there, and goes.
 * Identical copies are kept once. Pairing by id kept only the first entry of each id and dropped the
 * others without a word, on either side.
 */
import type { Block, EntryBlock } from '../entries/parse.js';
import { idOf } from './merge-text-blocks.js';
import { append } from '../core/group.js';

export interface SharedIds {
  /** The ids some side holds in more than one entry. */
  ids: Set<string>;
  /** Whether to write this entry of a shared id: true once for each version kept, false otherwise. */
  take: (b: EntryBlock) => boolean;
}

const versionsById = (blocks: Block[]) => {
  const m = new Map<string, string[]>();
  for (const b of blocks) if (b.type === 'entry') append(m, idOf(b), b.raw.trim());
  return m;
};

export function sharedIds(base: Block[], ours: Block[], theirs: Block[]): SharedIds {
  const [b, o, t] = [versionsById(base), versionsById(ours), versionsById(theirs)];
  const ids = new Set([b, o, t].flatMap((m) => [...m].filter(([, versions]) => versions.length > 1).map(([id]) => id)));
  const holds = (m: Map<string, string[]>, id: string, text: string) => m.get(id)?.includes(text) ?? false;
  const taken = new Set<string>();
  const take = (e: EntryBlock) => {
    const [id, text] = [idOf(e), e.raw.trim()];
    const [inBase, inOurs, inTheirs] = [holds(b, id, text), holds(o, id, text), holds(t, id, text)];
    if (taken.has(`${id}\0${text}`) || !((inOurs && inTheirs) || (!inBase && (inOurs || inTheirs)))) return false;
    taken.add(`${id}\0${text}`);
    return true;
  };
  return { ids, take };
}
