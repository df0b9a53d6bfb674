/**
 * Which entry keeps an id both machines created with different content (`mem merge-driver`), pure.
 * An id the merge base holds keeps its meaning: the two versions are one entry, merged field by
 * field (./merge-fields.ts), never renamed. An id new on both sides goes to the entry with the
 * earlier source time when both have one (a `timestamp` under `source:`, which microsync writes:
 * the time of the last message of the cited range; or a top-level `timestamp`), compared as instants;
 * else the earlier `date` (an id's two entries share it, as the id holds it); then to the one whose
 * text has the smaller sha256; the other gets the next free suffix
 * (`-2`, `-3`). Both sides decide the same way whichever is ours, so a criss-cross merge no longer
 * hands the bare id to each machine's own entry (it used to go to ours every time, so the id meant
 * a different entry on each machine and the next merge swapped them). The same plan, made from the
 * daily files of both commits (./merge-context.ts), renames the losing side's citations in the weekly
 * logs and MEMORY.md of the same merge.
 */
import { createHash } from 'node:crypto';
import { nextFreeId } from '../entries/id.js';
import { getField } from '../entries/model.js';
import { parseBlocks, type Block, type EntryBlock } from '../entries/parse.js';
import { idOf } from './merge-text-blocks.js';
import { toLf } from '../write/line-endings.js';

export interface IdRenames {
  /** Ours' entries that lose their id: old id → new id. */
  ours: Map<string, string>;
  theirs: Map<string, string>;
}

function byId(blocks: Block[]): Map<string, EntryBlock[]> {
  const m = new Map<string, EntryBlock[]>();
  for (const b of blocks) if (b.type === 'entry') m.set(idOf(b), [...(m.get(idOf(b)) ?? []), b]);
  return m;
}

/** When the entry was said, in ms: the `timestamp` under `source:` (or a top-level one); NaN without. */
function timeOf(b: EntryBlock): number {
  const source = b.entry.fields.find((f) => f.key === 'source')?.children?.find((c) => c.key === 'timestamp')?.value;
  return Date.parse((source ?? getField(b.entry, 'timestamp') ?? '').trim());
}

const hashOf = (b: EntryBlock) => createHash('sha256').update(b.raw.trim()).digest('hex');

/** Whether `a` keeps the id against `b`: the earlier time when both have one, else the earlier date, else the smaller hash. */
function keeps(a: EntryBlock, b: EntryBlock): boolean {
  const [ta, tb] = [timeOf(a), timeOf(b)];
  if (Number.isFinite(ta) && Number.isFinite(tb) && ta !== tb) return ta < tb;
  const [da, db] = [a, b].map((x) => (getField(x.entry, 'date') ?? '').trim());
  if (da && db && da !== db) return da < db;
  return hashOf(a) <= hashOf(b);
}

export function planIdRenames(base: Block[], ours: Block[], theirs: Block[]): IdRenames {
  const [b, o, t] = [byId(base), byId(ours), byId(theirs)];
  const out: IdRenames = { ours: new Map(), theirs: new Map() };
  const taken = new Set([...b.keys(), ...o.keys(), ...t.keys()]);
  const collisions = [...o.keys()].filter((id) => !id.startsWith('raw:') && t.has(id) && !b.has(id)).sort();
  for (const id of collisions) {
    const [mine, their] = [o.get(id)!, t.get(id)!];
    // An id held twice on a side is merged by text (./merge-shared-ids.ts), not renamed.
    if (mine.length !== 1 || their.length !== 1 || mine[0]!.raw.trim() === their[0]!.raw.trim()) continue;
    const free = nextFreeId(id, (x) => taken.has(x));
    taken.add(free);
    (keeps(mine[0]!, their[0]!) ? out.theirs : out.ours).set(id, free);
  }
  return out;
}

/** The plan for three versions of a daily file's text. */
export function planIdRenamesOfTexts(base: string, ours: string, theirs: string): IdRenames {
  return planIdRenames(parseBlocks(toLf(base)), parseBlocks(toLf(ours)), parseBlocks(toLf(theirs)));
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `text` with every citation of a renamed id (a whole id, not the start of a longer one) renamed. */
export function renameCitations(text: string, renames: Map<string, string>): string {
  if (!renames.size) return text;
  const ids = [...renames.keys()].sort((x, y) => y.length - x.length).map(escape);
  const re = new RegExp(`(?<![\\p{L}\\p{N}_-])(${ids.join('|')})(?![\\p{L}\\p{N}_]|-[\\p{L}\\p{N}])`, 'gu');
  return text.replace(re, (id) => renames.get(id)!);
}
