/**
 * What the learned scorer (model-score.ts) reads of one user sentence: words that generalise past
 * the marker lists, not the marker lists themselves. Latin words, lower-cased; Han
 * text as character pairs after 繁→简 folding (han-fold.ts), so 简体 and 繁體 share one weight; and
 * the rule path's softer signals that are no marker on their own (a lexicon topic, a system-shape
 * word, a style topic, a cause, a fix, a standing phrase, the sentence's place in its message).
 * Training (scripts/train-extract-model.mjs) and scoring call this one function, so the two can
 * never read a sentence differently.
 */
import { foldHan } from './han-fold.js';
import { ARCH_SHAPE, CAUSE, FIXED, STYLE_TOPIC } from './kind-markers.js';
import { withoutQuotes } from './sentences.js';
import { STANDING } from './speech-acts.js';
import { EVERYWHERE, topicOf } from './topics.js';

/** Where the sentence stands: its message and the turn before it. */
export interface PieceContext {
  /** The sentence's place in its message (0-based) and how many the message has. */
  index: number;
  count: number;
  /** The turn before is the agent's. */
  afterAgent: boolean;
  /** The sentence corrects what was just said ("不对，改成…", "Actually, …"): turn-pieces.ts. */
  corrected: boolean;
}

const LATIN = /[a-z0-9][a-z0-9'’+#_-]*/g;
const HAN_RUN = /\p{sc=Han}+/gu;

/** Latin words (numbers as "0"), lower-cased, apostrophes straight: "We’ll" → "we'll". */
function words(text: string): string[] {
  return (text.match(LATIN) ?? []).map((w) => (/^\d/.test(w) ? '0' : w.replace(/’/g, "'").replace(/[-_]+$/, '')));
}

const lengthBucket = (n: number) => (n < 4 ? 'xs' : n < 8 ? 's' : n < 16 ? 'm' : n < 30 ? 'l' : 'xl');

/** The sentence's features, each a short string; repeats are dropped. */
export function pieceFeatures(piece: string, ctx: PieceContext): string[] {
  const own = withoutQuotes(piece);
  const text = foldHan(own);
  const out = new Set<string>(['bias']);
  const ws = words(text);
  // Word pairs were tried and dropped: on cross-validation they fit the groups trained on and lost precision elsewhere.
  for (const w of ws) out.add(`w:${w}`);
  if (ws[0]) out.add(`f:${ws[0]}`);
  let han = 0;
  for (const run of text.match(HAN_RUN) ?? []) {
    const cs = Array.from(run);
    han += cs.length;
    if (cs.length === 1) out.add(`u:${cs[0]}`);
    for (let i = 1; i < cs.length; i += 1) out.add(`h:${cs[i - 1]}${cs[i]}`);
  }
  const first = Array.from(text.match(HAN_RUN)?.[0] ?? '');
  if (first.length && text.indexOf(first[0]!) <= 1) out.add(`hf:${first.slice(0, 2).join('')}`);
  const topic = topicOf(own);
  if (topic) out.add(`s:topic:${topic.name}`);
  if (ARCH_SHAPE.test(own)) out.add('s:arch');
  if (STYLE_TOPIC.test(own)) out.add('s:style');
  if (CAUSE.test(own)) out.add('s:cause');
  if (FIXED.test(own)) out.add('s:fixed');
  if (STANDING.test(own)) out.add('s:standing');
  if (EVERYWHERE.test(own)) out.add('s:everywhere');
  if (/[!！]\s*$/.test(own)) out.add('s:bang');
  if (/[:：]/.test(own)) out.add('s:colon');
  out.add(`c:len:${lengthBucket(ws.length + Math.ceil(han / 2))}`);
  if (ctx.index === 0) out.add('c:first');
  if (ctx.index === ctx.count - 1) out.add('c:last');
  if (ctx.count === 1) out.add('c:alone');
  if (ctx.afterAgent) out.add('c:after-agent');
  if (ctx.corrected) out.add('c:corrected');
  return [...out];
}
