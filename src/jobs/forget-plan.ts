/**
 * Decide, don't do: what `mem forget` changes, as pure functions of file texts. Soft forget flips the
 * named entries' status to `retracted` (kept for audit); hard forget removes them: their entry blocks
 * wherever they are, and every line outside entries naming their id (MEMORY.md items, weekly-log
 * lines, summary citations) or quoting their conclusion. In another entry only a removed id leaves its
 * `supersedes:`/`refs:` list; any other line of it that names or quotes a removed entry is reported,
 * not edited (DESIGN §2: forget writes only what is named). Nothing else in a file changes, byte for byte.
 */
import { getField, idList } from '../entries/model.js';
import { ID_PREFIXES } from '../entries/id.js';
import { entryBlocks, parseBlocks, serializeBlocks, splitLines, type Block } from '../entries/parse.js';
import { flipStatus } from './compound/flip.js';
import { idMention } from '../governance/id-match.js';

/** Statuses forget can retract, and restore can bring back to active (DESIGN §5 status machine). */
export const RETRACTABLE = ['active', 'superseded', 'archived'] as const;
export const RESTORABLE = ['superseded', 'archived', 'retracted'] as const;

/**
 * Soft forget of entry `id` in one file's text: every copy of it there that is not retracted yet (an
 * id written twice in a file is two entries); `from` holds each one's status, in file order.
 * Undefined when the file holds no copy forget can retract.
 */
export function retractIn(text: string, id: string): { text: string; from: string[] } | undefined {
  const from = entryBlocks(parseBlocks(text))
    .filter((b) => getField(b.entry, 'id')?.trim() === id)
    .map((b) => (getField(b.entry, 'status') ?? 'active').trim().toLowerCase())
    .filter((status) => (RETRACTABLE as readonly string[]).includes(status));
  if (!from.length) return undefined;
  let next = text;
  for (const status of new Set(from)) next = flipStatus(next, id, status, 'retracted') ?? next;
  return { text: next, from };
}

export interface Removal {
  text: string;
  /** Entry blocks removed. */
  entries: number;
  /** Other lines removed (items, log lines, quotes). */
  lines: number;
  /** Lines left as they are though they name a removed id or quote a removed conclusion. */
  kept: KeptMention[];
}

/** A line hard forget leaves alone: inside another entry (beyond its id lists), a line citing one, or a heading. */
export interface KeptMention {
  /** 1-based, in the file as it is now, and as it is once the removal is written. */
  line: number;
  after: number;
  /** The entry the line belongs to or cites; null for a heading outside entries. */
  entry: string | null;
  why: 'names a removed id' | 'quotes a removed conclusion' | 'names a removed title';
}

/**
 * What hard forget matches in a line. `quotes` are the removed entries' conclusions (20 characters
 * or more); `keptTexts` are the titles and conclusions of the entries that stay. A kept text holding a
 * quote is masked before the quote is looked for, so "Deploys happen on Tuesdays only, except
 * hotfixes" (another rule) is not taken for a quote of "Deploys happen on Tuesdays only".
 */
export function mentionMatcher(
  ids: string[],
  quotes: string[],
  keptTexts: string[] = [],
  titles: string[] = [],
): (line: string) => KeptMention['why'] | undefined {
  const pats = ids.map(idMention);
  const qs = [...new Set(quotes.map((q) => q.trim()).filter((q) => q.length >= 20))];
  // A title in quotes (as a wrap-up lists what a session settled) at any length; bare from 20 characters.
  const ts = [
    ...new Set(
      titles
        .map((t) => t.trim())
        .filter(Boolean)
        .flatMap((t) => [`"${t}"`, ...(t.length >= 20 ? [t] : [])]),
    ),
  ];
  const all = [...qs, ...ts];
  const masks = [...new Set(keptTexts.map((k) => k.trim()))]
    .filter((k) => all.some((q) => k.length > q.length && k.includes(q)))
    .sort((a, b) => b.length - a.length);
  return (line) => {
    if (pats.some((p) => p.test(line))) return 'names a removed id';
    if (!all.some((q) => line.includes(q))) return undefined;
    let rest = line;
    for (const m of masks) rest = rest.split(m).join('\u0000');
    return qs.some((q) => rest.includes(q))
      ? 'quotes a removed conclusion'
      : ts.some((t) => rest.includes(t))
        ? 'names a removed title'
        : undefined;
  };
}

const HEADING = /^#{1,6}[ \t]/;
const CITED_ID = new RegExp(String.raw`(?:${ID_PREFIXES})-\d{8}-[\p{L}\p{N}\p{M}_-]+`, 'gu');
/** A kept entry's list of ids: `refs:` or `supersedes:`. */
const ID_LIST = /^([ \t]*[-*+][ \t]*(?:refs|supersedes):[ \t]*)(.*?)(\r?\n)?$/;

/**
 * The one change hard forget makes inside a kept entry: a removed id leaves its `refs:` and
 * `supersedes:` lists (the line goes when nothing is left). A reference to an entry that no longer
 * exists is dangling, and an id's slug can carry the very text being purged.
 */
function dropIdsFrom(line: string, ids: string[]): string | null | undefined {
  const m = ID_LIST.exec(line);
  if (!m) return undefined;
  const listed = idList(m[2]);
  if (!listed.some((x) => ids.includes(x))) return undefined;
  const rest = listed.filter((x) => !ids.includes(x));
  return rest.length ? `${m[1]}${rest.join(', ')}${m[3] ?? ''}` : null;
}

/**
 * Hard forget in one file's text: the named entries' blocks go whole. Outside entries, a line naming
 * a removed id or quoting a removed conclusion (a MEMORY.md item, a weekly-log line, a summary's
 * copy), or one of `titles` (given for wrap-up summaries, which list titles without ids) goes too, a removed list item with its indented continuation lines. In another entry only its
 * `supersedes:`/`refs:` lists lose the removed ids (dropIdsFrom); its other lines, and headings, are
 * never changed: such lines are reported in `kept` for a person to edit or forget. Undefined when the
 * file holds none of it.
 */
export function removeFrom(
  text: string,
  ids: string[],
  quotes: string[],
  keptTexts: string[] = [],
  keptIds: ReadonlySet<string> = new Set(),
  titles: string[] = [],
): Removal | undefined {
  const names = mentionMatcher(ids, quotes, keptTexts, titles);
  // A line citing a kept entry (a MEMORY.md item, a summary line) is that entry's, even when its
  // wording (shortened, say) holds a removed conclusion and the mask above cannot see it.
  const citedKept = (line: string) => [...line.matchAll(CITED_ID)].map((m) => m[0]).find((x) => keptIds.has(x)) ?? null;
  // Inside another entry nothing is removed, so every quote is reported, its own longer text included.
  const quotedIn = mentionMatcher(ids, quotes);
  let entries = 0;
  let lines = 0;
  const kept: KeptMention[] = [];
  const blocks: Block[] = [];
  let outLine = 1;
  const keep = (line: number, after: number, entry: string | null, why: KeptMention['why']) =>
    kept.push({ line, after, entry, why });
  for (const b of parseBlocks(text)) {
    if (b.type === 'entry' && ids.includes(getField(b.entry, 'id')?.trim() ?? '')) {
      entries++;
      continue;
    }
    blocks.push(b);
    if (b.type === 'entry') {
      const id = getField(b.entry, 'id')?.trim() || null;
      const own: string[] = [];
      for (const line of splitLines(b.raw)) {
        const edited = dropIdsFrom(line, ids);
        if (edited === undefined) own.push(line);
        else {
          lines++;
          if (edited !== null) own.push(edited);
        }
      }
      b.raw = own.join('');
      // One report per entry, at its first such line.
      const at = own.findIndex((line) => quotedIn(line));
      if (at >= 0) keep(b.startLine + at, outLine + at, id, quotedIn(own[at]!)!);
      outLine += own.length;
      continue;
    }
    const out: string[] = [];
    let dropping = false;
    for (const [i, line] of splitLines(b.raw).entries()) {
      const isContinuation: boolean = dropping && /^[ \t]+\S/.test(line);
      const why = isContinuation ? undefined : names(line);
      const cited = why && why !== 'names a removed id' ? citedKept(line) : null;
      if (why && (cited || HEADING.test(line))) {
        keep(b.startLine + i, outLine, cited, why);
      } else if (isContinuation || why) {
        lines++;
        dropping = isContinuation || /^\s*[-*+]\s/.test(line);
        continue;
      }
      dropping = false;
      out.push(line);
      outLine++;
    }
    b.raw = out.join('');
  }
  if (!entries && !lines && !kept.length) return undefined;
  return { text: serializeBlocks(blocks), entries, lines, kept };
}
