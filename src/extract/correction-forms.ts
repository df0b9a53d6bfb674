/**
 * Corrections known by their form (issue 27 item 3): a sentence that opens as one ("update:",
 * "changed my mind,", "算了，还是 X 吧"), a second thought ("还是 Prettier 吧"), and a short reply to the
 * agent that swaps or restates a value ("wait no, vitest", "改成七月"). rules.ts takes a bare one as a
 * correction only right after the agent answered a statement of the user's and only when what
 * follows is a short value, so "actually the build is slow" stays a remark, not a revision.
 */
import type { Marker } from './kind-markers.js';

/** A sentence that is a correction on its own form: "update:", "eh changed my mind,", "算了，还是 X 吧". */
export const CORRECTION_OPENERS =
  /^\s*(?:(?:eh|oh|hmm+|ok(?:ay)?|well)[\s,]+)?(?:update|changed\s+my\s+mind|i\s+changed\s+my\s+mind|更正一下|修正一下|改一下|改一改|换一下|換一下)\s*[:：,，—–-]?\s*(?=\S)|^\s*(?:scratch|scrap|forget|ditch|drop)\s+(?!that\b|it\b|this\b)(?:the\s+)?[\w.-]+(?:\s+[\w.-]+)?\s*[,，;—–-]\s*(?=\S)|^\s*算了[，,。\s]*(?=(?:还是|還是|改|[换換]|用))/i;

/** "还是 Prettier 吧", "還是改用 Vitest 好了": a choice made on second thought. */
export const SECOND_THOUGHT: Marker = {
  kind: 'Decision',
  confidence: 0.75,
  weak: true,
  topical: true,
  re: /^[\s,，]*(?:还是|還是)\s*(?:用|改用|换成|換成|改成)?\s*[A-Za-z][\w.+ -]{0,30}?\s*(?:吧|好了|好)\s*[。！!.]?$/i,
  strip: /^[\s,，]*(?:还是|還是)\s*(?:用|改用|换成|換成|改成)?\s*/,
};

/**
 * A correction word opening a short reply ("wait no, vitest", "ugh actually
 * spaces", "make it 2k", "不不不，pnpm", "改主意了，用 Vitest", "hmm 还是 Postgres 吧"): rules.ts takes it as
 * a correction only right after the agent answered a statement of the user's, and only when what
 * follows is a short value (shortValue), so "actually the build is slow" stays a remark.
 */
export const BARE_CORRECTION =
  /^\s*(?:(?:no+|nope|nah|wait|hmm+|ugh|eh|oh|actually|on\s+second\s+thought|make\s+(?:it|that)|嗯|哦|啊)[\s,.!:;—–-]+)+|^\s*(?:不不不?|不是不是|改主意了|[换換][个個]主意|我改主意了)[\s,，。!！]*/i;

/** A reaction, not a value: "oh nice", "wait what", "ok thanks". */
const REACTION =
  /^(?:(?:nice|cool|great|thanks|thank\s+you|thx|ty|ok(?:ay)?|sure|lol|haha|got\s+it|what|why|right|yes|yep|good|perfect|awesome|interesting|really|hmm+|wow|that|this|it|好的?|谢谢|謝謝|收到|知道了|明白)[\s,.!。！~]*)+$/i;

/** At most six words or twenty characters of CJK, and no question or reaction: a value, not a remark. */
export function shortValue(rest: string): boolean {
  const text = rest.trim();
  if (!text || /[?？]\s*$/.test(text) || REACTION.test(text)) return false;
  const words = text.split(/\s+/).filter(Boolean);
  const cjk = (text.match(/\p{sc=Han}/gu) ?? []).length;
  return words.length <= 6 && cjk <= 20;
}

/** A short reply restating the value it changes, kept whole: "改成七月", "延到 Q4", "make it tuesdays". */
export const RESTATED =
  /^\s*(?:改成|改[为為]|[换換]成|改到|延到|推[迟遲]到|提前到|挪到|change\s+it\s+to|make\s+it)\s*\S/i;
