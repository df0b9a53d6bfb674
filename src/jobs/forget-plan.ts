/**
 * Decide, don't do: what `mem forget` changes, as pure functions of file texts. Soft forget flips the
 * named entries' status to `retracted` (kept for audit); hard forget removes them: their entry blocks
 * wherever they are, and every other line naming their id (MEMORY.md items, weekly-log lines, summary
 * citations) or quoting their conclusion. Nothing else in a file changes, byte for byte.
 */
import { getField } from '../entries/model.js';
import { parseBlocks, serializeBlocks, splitLines } from '../entries/parse.js';
import { flipStatus } from './compound/flip.js';
import { idMention } from '../governance/id-match.js';

/** Statuses forget can retract, and restore can bring back to active (DESIGN §5 status machine). */
export const RETRACTABLE = ['active', 'superseded', 'archived'] as const;
export const RESTORABLE = ['superseded', 'archived', 'retracted'] as const;

/** Soft forget of one entry in one file's text: undefined when it is not there or already retracted. */
export function retractIn(text: string, id: string): { text: string; from: string } | undefined {
  for (const b of parseBlocks(text)) {
    if (b.type !== 'entry' || getField(b.entry, 'id')?.trim() !== id) continue;
    const from = (getField(b.entry, 'status') ?? 'active').trim().toLowerCase();
    if (!(RETRACTABLE as readonly string[]).includes(from)) return undefined;
    const next = flipStatus(text, id, from, 'retracted');
    return next === undefined ? undefined : { text: next, from };
  }
  return undefined;
}

export interface Removal {
  text: string;
  /** Entry blocks removed. */
  entries: number;
  /** Other lines removed (items, log lines, quotes). */
  lines: number;
}

/**
 * Hard forget in one file's text. `quotes` are the removed entries' conclusions: a line quoting one
 * (a summary's paraphrase-free copy) goes too. A removed list item takes its indented continuation
 * lines with it. Undefined when the file holds none of it.
 */
export function removeFrom(text: string, ids: string[], quotes: string[]): Removal | undefined {
  const pats = ids.map(idMention);
  const qs = quotes.map((q) => q.trim()).filter((q) => q.length >= 20);
  const names = (line: string) => pats.some((p) => p.test(line)) || qs.some((q) => line.includes(q));
  let entries = 0;
  let lines = 0;
  const blocks = parseBlocks(text).filter((b) => {
    if (b.type === 'entry' && ids.includes(getField(b.entry, 'id')?.trim() ?? '')) {
      entries++;
      return false;
    }
    return true;
  });
  for (const b of blocks) {
    if (b.type === 'entry' && !names(b.raw)) continue;
    if (b.type === 'text' && !names(b.raw)) continue;
    const kept: string[] = [];
    let dropping = false;
    for (const line of splitLines(b.raw)) {
      const isContinuation: boolean = dropping && /^[ \t]+\S/.test(line);
      if (isContinuation || names(line)) {
        lines++;
        dropping = isContinuation || /^\s*[-*+]\s/.test(line);
        continue;
      }
      dropping = false;
      kept.push(line);
    }
    b.raw = kept.join('');
  }
  if (!entries && !lines) return undefined;
  return { text: serializeBlocks(blocks), entries, lines };
}
