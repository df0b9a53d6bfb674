/**
 * Three-way merge of a memory file by entry id (`mem merge-driver`), pure. Daily files are
 * append-only and keyed by ids, so two machines appending on the same day merge without a conflict:
 * the result is ours in our order, then what only they added in their order — every entry once, no
 * conflict markers ever. Per entry: unchanged on one side → the other side's version; changed on
 * both → merged field by field (./merge-fields.ts: a typo fixed on one side and a status flipped on
 * the other both stay), else the one further along the status machine (active → superseded |
 * archived | retracted), ours on a tie. An entry present in the base and removed on one side (a hard
 * `mem forget`) stays removed. The same new id with different content on both sides keeps both, the
 * later or, at the same time, the one with the larger hash taking the next free suffix (./merge-ids.ts).
 * An id some side holds in several entries is merged by the entries' text (./merge-shared-ids.ts).
 * The head stays at the top: YAML front matter (changed on one side → that side's; on both → merged
 * key by key, ours for a key both changed, which the result names: ./merge-front-matter.ts), then
 * the preamble before the first entry (changed on one side → that side's; on both → ours, then
 * their text blocks that neither we nor the base hold, the rule every text block follows). Text
 * blocks follow a three-way plan (./merge-text-blocks.ts): one only one side edited or removed takes
 * that side's version in its place, or goes; their edit of a block we left as in the base replaces
 * ours (it used to be added after our entries, beside the old version it replaced), and their
 * removal of one removes ours (it used to stay). Where the sides disagree the plan names the block.
 * Line endings: each side is read with LF line breaks, so a block that differs only in CRLF vs LF is
 * the same block on both sides, and the result is written with one line ending throughout — the one
 * most of ours' line breaks use (theirs', then the base's, when ours has none). Blocks taken from
 * each side used to keep their own endings, and the separators added were LF: a CRLF file came out
 * mixed.
 */
import { nextFreeId } from '../entries/id.js';
import { getField } from '../entries/model.js';
import { parseBlocks, type Block, type EntryBlock } from '../entries/parse.js';
import { mergeEntryFields } from './merge-fields.js';
import { mergeFrontMatter } from './merge-front-matter.js';
import { planIdRenames, renameCitations, type IdRenames } from './merge-ids.js';
import { sharedIds } from './merge-shared-ids.js';
import { idOf, planTextBlocks, type TextConflict } from './merge-text-blocks.js';
import { lineEndingOf, toLf } from '../write/line-endings.js';

const RANK: Record<string, number> = { active: 0, superseded: 1, archived: 2, retracted: 3 };

const same = (a: string, b: string) => a.trim() === b.trim();

function entriesById(blocks: Block[]): Map<string, EntryBlock> {
  const m = new Map<string, EntryBlock>();
  for (const b of blocks) if (b.type === 'entry') m.set(idOf(b), b);
  return m;
}

function pick(
  ours: EntryBlock,
  theirs: EntryBlock,
  base: EntryBlock | undefined,
  conflicts: FieldConflict[],
): EntryBlock {
  if (same(ours.raw, theirs.raw)) return ours;
  if (base && same(ours.raw, base.raw)) return theirs;
  if (base && same(theirs.raw, base.raw)) return ours;
  const fields = base && mergeEntryFields(base.raw, ours.raw, theirs.raw);
  if (fields) {
    if (fields.conflicts.length) conflicts.push({ id: idOf(ours), fields: fields.conflicts });
    return { ...ours, raw: fields.raw };
  }
  const rank = (b: EntryBlock) => RANK[getField(b.entry, 'status') ?? 'active'] ?? 0;
  return rank(theirs) > rank(ours) ? theirs : ours;
}

function withId(b: EntryBlock, from: string, to: string): EntryBlock {
  return {
    ...b,
    raw: b.raw.replace(
      new RegExp(`^(\\s*[-*+]\\s+id:\\s*)${from.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`, 'm'),
      `$1${to}`,
    ),
  };
}

const sep = (raw: string) => (raw.endsWith('\n\n') ? raw : raw.endsWith('\n') ? raw + '\n' : raw + '\n\n');

// YAML front matter: a `---` first line to a closing `---` or `...` line.
const FRONT_MATTER = /^---[ \t]*\r?\n(?:[\s\S]*?\r?\n)?(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/;

interface Parts {
  frontMatter: string;
  /** The text blocks before the first entry. */
  preamble: Block[];
  /** The first entry and all that follows it. */
  body: Block[];
}

function partsOf(text: string): Parts {
  const fm = FRONT_MATTER.exec(text)?.[0] ?? '';
  // A "front matter" holding an entry heading is a pair of thematic breaks around entries.
  const frontMatter = parseBlocks(fm).some((b) => b.type === 'entry') ? '' : fm;
  const blocks = parseBlocks(text.slice(frontMatter.length));
  const first = blocks.findIndex((b) => b.type === 'entry');
  const cut = first < 0 ? blocks.length : first;
  return { frontMatter, preamble: blocks.slice(0, cut), body: blocks.slice(cut) };
}

/** The side that changed, ours when neither did; undefined when both changed it differently. */
function oneSided(base: string, ours: string, theirs: string): 'ours' | 'theirs' | undefined {
  if (same(ours, theirs) || same(theirs, base)) return 'ours';
  return same(ours, base) ? 'theirs' : undefined;
}

const joined = (blocks: Block[]) => blocks.map((b) => b.raw).join('');

/** An entry both sides changed in the same fields: ours kept, theirs under `merge_conflict:`. */
export interface FieldConflict {
  id: string;
  fields: string[];
}

export interface MergedFile {
  text: string;
  /** Entries whose same field both sides changed differently. */
  fieldConflicts?: FieldConflict[];
  /** Entries that lost an id both sides created (./merge-ids.ts). */
  renamed?: IdRenames;
  /** Both sides changed the front matter differently and ours was kept for these keys (none: for the whole block). */
  frontMatterConflict?: { keys: string[] };
  /** Text blocks the sides disagree on, each kept as ./merge-text-blocks.ts says. */
  textConflicts?: TextConflict[];
  /** Ids the result holds in more than one entry, each with its own text (./merge-shared-ids.ts). */
  sharedIds?: string[];
}

export function mergeMemoryFile(baseText: string, oursText: string, theirsText: string): MergedFile {
  const eol = lineEndingOf(oursText, theirsText, baseText);
  const merged = mergeLf(toLf(baseText), toLf(oursText), toLf(theirsText));
  return eol === '\n' ? merged : { ...merged, text: merged.text.replace(/\n/g, eol) };
}

function mergeLf(baseText: string, oursText: string, theirsText: string): MergedFile {
  const baseParts = partsOf(baseText);
  const oursParts = partsOf(oursText);
  const theirsParts = partsOf(theirsText);
  // An id both sides created: the losing side's entry, and its citations of it (`supersedes:`,
  // `refs:`) anywhere in its file, take the new id first; then nothing collides.
  const renames = planIdRenames(baseParts.body, oursParts.body, theirsParts.body);
  if (renames.ours.size || renames.theirs.size) {
    return {
      ...mergeLf(baseText, renameCitations(oursText, renames.ours), renameCitations(theirsText, renames.theirs)),
      renamed: renames,
    };
  }
  const fmSide = oneSided(baseParts.frontMatter, oursParts.frontMatter, theirsParts.frontMatter);
  const fm = fmSide
    ? { text: fmSide === 'theirs' ? theirsParts.frontMatter : oursParts.frontMatter }
    : mergeFrontMatter(baseParts.frontMatter, oursParts.frontMatter, theirsParts.frontMatter);
  const frontMatter = fm.text;
  const plan = planTextBlocks(
    [...baseParts.preamble, ...baseParts.body],
    [...oursParts.preamble, ...oursParts.body],
    [...theirsParts.preamble, ...theirsParts.body],
  );
  const planned = (blocks: Block[]) => blocks.flatMap((b) => (plan.ours.has(b) ? (plan.ours.get(b) ?? []) : [b]));
  const oursPreamble = planned(oursParts.preamble);
  const oursBlocks = planned(oursParts.body);
  const theirsBlocks = theirsParts.body;
  const base = entriesById(baseParts.body);
  const ours = entriesById(oursBlocks);
  const theirs = entriesById(theirsBlocks);
  // Their text blocks that neither we nor the base hold anywhere in the file are kept after ours.
  const known = new Set(
    [...oursPreamble, ...oursBlocks, ...baseParts.preamble, ...baseParts.body]
      .filter((b) => b.type === 'text')
      .map((b) => b.raw.trim()),
  );
  const isNewText = (b: Block) => b.type === 'text' && !known.has(b.raw.trim());
  const side = oneSided(joined(baseParts.preamble), joined(oursParts.preamble), joined(theirsParts.preamble));
  // Their preamble may have grown by a block that followed an entry they removed: ours has that
  // block after the entry (as it was, as they edited it, or as we edited it), where it is kept, or
  // we removed it; either way it is not taken twice.
  const inBody = new Set([...oursBlocks, ...baseParts.body].filter((b) => b.type === 'text').map((b) => b.raw.trim()));
  const out: Block[] =
    side === 'theirs' ? theirsParts.preamble.filter((b) => !inBody.has(b.raw.trim())) : [...oursPreamble];
  if (!side) out.push(...theirsParts.preamble.filter(isNewText));
  const shared = sharedIds(baseParts.body, oursBlocks, theirsBlocks);
  const fieldConflicts: FieldConflict[] = [];
  const taken = new Set<string>();
  for (const b of oursBlocks) {
    if (b.type === 'text') {
      out.push(b);
      continue;
    }
    const id = idOf(b);
    if (shared.ids.has(id)) {
      if (shared.take(b)) out.push(b);
      continue;
    }
    const t = theirs.get(id);
    const inBase = base.get(id);
    if (!t && inBase) continue; // They removed it.
    if (t && !inBase && !same(b.raw, t.raw) && !id.startsWith('raw:')) {
      out.push(b); // Both added this id with different content: both kept below.
    } else out.push(t ? pick(b, t, inBase, fieldConflicts) : b);
    taken.add(id);
  }
  const allIds = new Set([...ours.keys(), ...theirs.keys()]);
  for (const b of theirsBlocks) {
    if (b.type === 'text') {
      if (isNewText(b)) out.push(b);
      continue;
    }
    const id = idOf(b);
    if (shared.ids.has(id)) {
      if (shared.take(b)) out.push(b);
      continue;
    }
    const o = ours.get(id);
    if (o && (same(o.raw, b.raw) || base.has(id))) continue; // Merged above.
    if (!o && base.has(id)) continue; // We removed it.
    if (!o) {
      out.push(b);
      taken.add(id);
      continue;
    }
    // Same new id, different content on each side, not renamed above (a raw id): theirs gets the next free suffix.
    const free = nextFreeId(id, (x) => allIds.has(x) || taken.has(x));
    out.push(withId(b, id, free));
    taken.add(free);
  }
  const body = out.map((b, i) => (i === out.length - 1 ? b.raw : sep(b.raw))).join('');
  const text = (frontMatter && body && !frontMatter.endsWith('\n') ? `${frontMatter}\n` : frontMatter) + body;
  const conflict = 'conflict' in fm ? fm.conflict : undefined;
  const sharedKept = [...shared.ids].filter((id) => out.filter((b) => b.type === 'entry' && idOf(b) === id).length > 1);
  return {
    text: text.endsWith('\n') || !text ? text : text + '\n',
    ...(conflict && { frontMatterConflict: conflict }),
    ...(plan.conflicts.length && { textConflicts: plan.conflicts }),
    ...(fieldConflicts.length && { fieldConflicts }),
    ...(sharedKept.length && { sharedIds: sharedKept }),
  };
}
