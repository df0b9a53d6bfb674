/**
 * Whether a weak statement (Marker.weak: "缓存用 Redis", "目标是…", said without a settling word) is
 * left open by its message: a plain statement is the user's word only when nothing around it says
 * it is not settled, so "Redis for the cache? or Memcached" and a statement about a pasted log land
 * nothing. The hedges themselves are in hedges.ts.
 */
import type { Kind } from '../entries/model.js';
import type { Turn } from '../transcripts/types.js';
import { notNow, othersPractice, unsettledBy } from './hedges.js';
import type { Marker } from './kind-markers.js';
import { stripQuoted, withoutQuotes } from './sentences.js';

/** A quotation this long is someone's words, not a name ("用 'feat:' 前缀" quotes a name). */
const QUOTE_MIN = 8;
const quotesWords = (s: string) => Array.from(s).length - Array.from(withoutQuotes(s)).length >= QUOTE_MIN;
/** The message carries material (a paste, an attachment, a fenced log): what the user says around it is about it. */
const carriesMaterial = (text: string) => stripQuoted(text).replace(/\s+/g, '') !== text.replace(/\s+/g, '');

/**
 * A weak statement (Marker.weak: "缓存用 Redis", "目标是…") is left open by anything in its message
 * that says it is not settled (hedges.ts): in its own sentence, someone else's practice, the past or
 * a negation before it;
 * in any other sentence but a settled statement of its own, a question, a hedge, a condition, options
 * or someone else's voice; a quotation or pasted material in the message.
 */
export function leftOpen(
  list: string[],
  i: number,
  markers: (Marker | undefined)[],
  turn: Turn,
  at: number,
  kind?: Kind,
): boolean {
  const own = withoutQuotes(list[i]!);
  const before = own.slice(0, at);
  // A task's wait is its state ("卡住了，等 Stripe 回复"), a lesson's cause may be a lack ("沒有索引造成的"): neither is a hedge.
  const by = unsettledBy(own);
  if ((by && !(kind === 'Task' && by === 'pending')) || othersPractice(before) || (kind !== 'Lesson' && notNow(before)))
    return true;
  if (carriesMaterial(turn.text) || list.some(quotesWords)) return true;
  return list.some(
    (s, j) => j !== i && !(markers[j] && !markers[j]!.weak) && unsettledBy(withoutQuotes(s)) !== undefined,
  );
}
