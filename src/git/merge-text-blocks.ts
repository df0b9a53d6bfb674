/**
 * Three-way plan for a memory file's text blocks (the headings and prose that are not entries), pure;
 * ./merge-entries.ts applies it. Each text block the base holds once is followed to each side: kept
 * as in the base, edited (a new block under its heading or where it stood), or removed. A block one
 * side left as in the base takes the other side's outcome, its edit or its removal: a removal used
 * to be undone, as ours' unchanged copy was always kept. Where the sides disagree nothing is lost,
 * and the plan names the block so the driver can warn: edited on one side and removed on the other,
 * the edit is kept; edited differently on both sides, ours stays in place and theirs follows later
 * in the file (that used to pass without a word).
 */
import { getField } from '../entries/model.js';
import type { Block, EntryBlock, TextBlock } from '../entries/parse.js';

export const idOf = (b: EntryBlock) => getField(b.entry, 'id') ?? `raw:${b.raw.trim()}`;
const keyOf = (b: Block) => (b.type === 'entry' ? `entry:${idOf(b)}` : `text:${b.raw.trim()}`);

/** A block both sides disagree on, named by its heading or first words in the version kept. */
export interface TextConflict {
  block: string;
  /** both: edited differently on each side; ours or theirs: edited there, removed on the other side. */
  edited: 'both' | 'ours' | 'theirs';
}

export interface TextPlan {
  /** Ours' text blocks that change, by identity: their edit in its place, or undefined when it goes. */
  ours: Map<Block, TextBlock | undefined>;
  conflicts: TextConflict[];
}

function counts(blocks: Block[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const b of blocks) m.set(keyOf(b), (m.get(keyOf(b)) ?? 0) + 1);
  return m;
}

// A blank block (the blank line before a title) is layout: never paired, removed or reported.
const isProse = (b: Block | undefined): b is TextBlock => b?.type === 'text' && b.raw.trim() !== '';

/**
 * A side's edits of base text blocks: the base block's key → the side's version. A base block (held
 * once) the side no longer holds was replaced by a new block of the side that stands where it stood
 * (right after the same block, or right before it) or has its first line (the heading). Same first
 * line goes first, across the file: a neighbour with it, else the only such base block; then a
 * neighbour with another first line (the heading was edited too). Taking neighbours first paired a
 * removed block with the edit of the block after it: the edit replaced the removed block in ours and
 * the block it did edit counted as removed.
 */
function editsOf(
  base: Block[],
  side: Block[],
  inBase: Map<string, number>,
  inSide: Map<string, number>,
): Map<string, TextBlock> {
  const open = new Set(
    base.filter((b) => isProse(b) && inBase.get(keyOf(b)) === 1 && !inSide.has(keyOf(b))).map(keyOf),
  );
  const edits = new Map<string, TextBlock>();
  const pairedTo = new Map<Block, string>(); // an edit stands for its base block as a neighbour
  const baseIndex = (b: Block) => base.findIndex((x) => keyOf(x) === (pairedTo.get(b) ?? keyOf(b)));
  const firstLine = (key: string) => key.slice('text:'.length).split('\n', 1)[0]!.trim();
  const fresh = side.flatMap((s, i) => (isProse(s) && !inBase.has(keyOf(s)) ? [{ s, i }] : []));
  for (const byHeading of [true, false]) {
    for (const { s, i } of fresh) {
      if (pairedTo.has(s)) continue;
      const [prev, next] = [side[i - 1], side[i + 1]];
      const after = prev ? (baseIndex(prev) < 0 ? undefined : base[baseIndex(prev) + 1]) : base[0];
      const before = next ? (baseIndex(next) < 0 ? undefined : base[baseIndex(next) - 1]) : base[base.length - 1];
      const near = [after, before].flatMap((b) => (b && open.has(keyOf(b)) ? [keyOf(b)] : []));
      const named = [...open].filter((k) => firstLine(k) === firstLine(keyOf(s)));
      const key = byHeading
        ? (near.find((k) => named.includes(k)) ?? (named.length === 1 ? named[0] : undefined))
        : near[0];
      if (!key) continue;
      open.delete(key);
      edits.set(key, s);
      pairedTo.set(s, key);
    }
  }
  return edits;
}

/** The block's first non-blank line, cut to about 60 characters at a space. */
export function labelOf(b: Block): string {
  const line =
    b.raw
      .split('\n')
      .find((l) => l.trim())
      ?.trim() ?? '';
  if (line.length <= 60) return line;
  const cut = line.slice(0, 60);
  return `${cut.includes(' ') ? cut.slice(0, cut.lastIndexOf(' ')) : cut}…`;
}

/** The whole files' blocks (preamble and body), LF line breaks. */
export function planTextBlocks(base: Block[], ours: Block[], theirs: Block[]): TextPlan {
  const [inBase, inOurs, inTheirs] = [counts(base), counts(ours), counts(theirs)];
  const [ourEdits, theirEdits] = [editsOf(base, ours, inBase, inOurs), editsOf(base, theirs, inBase, inTheirs)];
  const plan: TextPlan = { ours: new Map(), conflicts: [] };
  // A block held twice in the base or on a side is not followed: ours' copies stay as they are.
  const fate = (key: string, held: Map<string, number>, edits: Map<string, TextBlock>) =>
    held.get(key) === 1 ? 'kept' : held.has(key) ? undefined : edits.has(key) ? 'edited' : 'removed';
  for (const b of base) {
    const key = keyOf(b);
    if (!isProse(b) || inBase.get(key) !== 1) continue;
    const [our, their] = [fate(key, inOurs, ourEdits), fate(key, inTheirs, theirEdits)];
    const mine = ours.find((o) => keyOf(o) === key);
    const [ourEdit, theirEdit] = [ourEdits.get(key), theirEdits.get(key)];
    if (our === 'kept' && mine && their === 'removed') plan.ours.set(mine, undefined);
    // Their edit replaces our copy, unless ours already holds it elsewhere: then our copy just goes.
    else if (our === 'kept' && mine && theirEdit)
      plan.ours.set(mine, inOurs.has(keyOf(theirEdit)) ? undefined : theirEdit);
    else if (ourEdit && their === 'removed') plan.conflicts.push({ block: labelOf(ourEdit), edited: 'ours' });
    else if (theirEdit && our === 'removed') plan.conflicts.push({ block: labelOf(theirEdit), edited: 'theirs' });
    else if (ourEdit && theirEdit && keyOf(ourEdit) !== keyOf(theirEdit))
      plan.conflicts.push({ block: labelOf(ourEdit), edited: 'both' });
  }
  return plan;
}
