/**
 * An agent's proposal the user confirms ("Should I also add Prettier with a pre-commit hook?" →
 * "yep do it"): the proposal becomes the statement, over both turns. An offer to edit a named file
 * ("要我替换 src/cache/redis.ts 吗？") or to "start" is an action, not knowledge, and lands nothing.
 */
import type { Turn } from '../transcripts/types.js';
import { CONFIRMATION, DECLINE, OFFER, PROPOSAL } from './proposal-words.js';
import { RETRACTION, UNSETTLED } from './unsettled.js';
import { sentences, stripQuoted, withoutQuotes } from './sentences.js';
import { build, matchMarker } from './statement.js';
import { holdsOpen } from './hedges.js';
import type { Candidate } from './types.js';

/**
 * A short reply that opens with a yes and does not take it back: "Yes, do that" confirms; "Ok, but
 * not yet", "Yeah, no", "sure?", "Sure, just asking" and "好，我再想想" do not. Quoted words are not the reply.
 */
export function confirms(reply: string): boolean {
  const own = withoutQuotes(reply);
  const opener = CONFIRMATION.exec(own);
  if (reply.length > 120 || !opener) return false;
  // A question or a hedge in the opening sentence; a "no", "not yet", "scratch that" or a hold
  // ("好，我再想想", "ok, let me think", "可以，等老板确认") anywhere after the yes.
  const rest = own.slice(opener[0].length);
  return !UNSETTLED.test(sentences(own)[0] ?? '') && !DECLINE.test(rest) && !RETRACTION.test(rest) && !holdsOpen(rest);
}

const LEAD =
  /^.*?\b(?:shall\s+we|should\s+we|should\s+i|shall\s+i|(?:do\s+you\s+)?want\s+me\s+to|would\s+you\s+like\s+me\s+to|i\s+(?:propose|suggest|recommend)(?:\s+(?:that\s+)?we)?|how\s+about|let['’]?s)\b\s*(?:also\s+|just\s+|go\s+ahead\s+and\s+)?|^.*?(?:建[议議]|要不要我?|我[们們]可以|需要我|要我)\s*(?:[帮幫]你)?\s*/i;

/** An offer that names nothing but points back: "set that up", "do that for you", "把这个加上". */
const DEICTIC = /^(?:\S+\s+){0,2}(?:that|this|it)(?:\s+\S+){0,2}$|^(?:[这這那][个個样樣]|它)/i;
/** The agent's own recommendation: "I would use R2", "I'd go with Zustand", "我建议用 R2". */
const RECOMMENDS =
  /\bI(?:['’]d|\s+would)\s+(?=(?:use|go\s+with|pick|choose|switch\s+to|put|store|keep)\b)|^I\s+(?:could|can)\s+(?=\w)|我(?:会|會)(?=用|换成|換成|改用)|我?(?:建[议議]|推[荐薦])(?=用|换成|換成|改用|放|採用|采用|存)/i;
/** A question asking only whether to go ahead: "要这样做吗？", "這樣可以嗎？", "Shall I go ahead?". */
const PROCEED =
  /^(?:那)?(?:要|需要)?(?:[这這][样樣]|[这這][么麼])(?:做|办|辦|处理|處理)?(?:可以)?[吗嗎好]|^(?:shall|should)\s+i\s+(?:go\s+ahead|do\s+(?:it|that|this))\b|^(?:ok|okay|sound\s+good|good\s+to\s+go)\s*\?|^(?:want|need)\s+(?:that|this|it)\s*\?/i;

/** An offer with its question asked last, as a tag: "…, should I?", "…, want me to?", "…，要吗？". */
const TAG =
  /^(.{6,}?)[,，]\s*(?:should\s+i|shall\s+i|(?:do\s+you\s+)?want\s+me\s+to|ok(?:ay)?|sound\s+good|要(?:做|弄|加|装|裝)?[吗嗎]|好[吗嗎]|可以[吗嗎])\s*[?？]$/i;
const I_CAN =
  /^(?:i|we)\s+(?:can|could|will|would)\s+|^(?:i|we)['’]ll\s+|^我(?:可以|能|来|來)(?:[帮幫]你)?|^我?(?:建[议議]|推[荐薦])(?:我[们們])?/i;

/** Too few words to say what is proposed: "设定", "do it". */
function isShort(text: string): boolean {
  const words = text.match(/[\p{L}\p{N}]+/gu) ?? [];
  return /\p{sc=Han}/u.test(text) ? Array.from(words.join('')).length < 4 : words.length < 2;
}

/** What an offer may not be about: a vague next step, or a named file. */
const VAGUE =
  /^(?:start|begin|proceed|continue|go\s+ahead|go\s+on|do\s+(?:it|that|this)|fix\s+(?:it|that|this)|try|run\s+it|开始|開始|继续|繼續)\b/i;
const FILE =
  /(?:^|[\s(`'"])(?:[\w.-]+\/)+[\w.-]+|\b[\w-]+\.(?:ts|tsx|js|jsx|mjs|py|go|rs|java|rb|json|md|ya?ml|toml|css|html|sql|sh)\b/i;

/** "Shall we cap uploads at 25 MB?" followed by the user's "Yes, agreed." */
export function confirmedProposal(turn: Turn, reply: Turn, turns: Turn[]): Candidate | undefined {
  if (reply.role !== 'user' || !confirms(reply.text)) return undefined;
  const list = sentences(stripQuoted(turn.text));
  const last = list[list.length - 1] ?? '';
  // The reply answers the question the turn ends with: "…上限设为 5 万条。要我替换吗？" → "可以" confirms
  // the offer, not the earlier sentence.
  const proposes = (s: string) => PROPOSAL.test(withoutQuotes(s)) || PROCEED.test(withoutQuotes(s));
  const proposal = /[?？]$/.test(last) ? (proposes(last) ? last : undefined) : [...list].reverse().find(proposes);
  if (!proposal) return undefined;
  // "I can add a Docker Compose file for local development, should I?": the offer is before its tag.
  const tagged = TAG.exec(proposal)?.[1]?.replace(I_CAN, '');
  const asked =
    tagged ??
    (PROCEED.test(withoutQuotes(proposal)) ? 'that' : proposal.replace(LEAD, '').replace(/\s*[吗嗎呢][?？]?$/, ''));
  // "I would use R2 instead of S3. Want me to set that up?", "…我建议放阿里云 OSS…。要这样做吗？": the offer
  // points back at the recommendation; naming nothing else, it confirms nothing.
  const bare = DEICTIC.test(asked) || isShort(asked);
  const pointed = bare ? list.find((s) => s !== proposal && RECOMMENDS.test(withoutQuotes(s))) : undefined;
  if (DEICTIC.test(asked) && !pointed) return undefined;
  const text = pointed ? pointed.replace(RECOMMENDS, '') : asked;
  if (OFFER.test(withoutQuotes(proposal)) && !pointed && (isShort(text) || VAGUE.test(text) || FILE.test(text)))
    return undefined;
  // Its marker may open what is proposed: "Shall we always run the linter?" proposes a rule.
  const marker = matchMarker(proposal) ?? matchMarker(text);
  return build({ kind: marker?.kind ?? 'Decision', text, confidence: 0.75 }, turns, turn, reply, 'agent');
}

/** The options an agent's question offers: "Redis or Memcached", "Jest 还是 Vitest". */
const OPTIONS =
  /\b([A-Za-z][\w.+-]*)\s+or\s+([A-Za-z][\w.+-]*)\b|([A-Za-z][\w.+-]*)\s*(?:还是|還是)\s*([A-Za-z][\w.+-]*)/i;

/**
 * A one-word pick between the options of the agent's question: "Should I use Redis or Memcached for the
 * cache?" → "redis" is the decision "use Redis for the cache". The reply names one option and nothing
 * that holds it open; the question's asking words go.
 */
export function chosenOption(turn: Turn, reply: Turn, turns: Turn[]): Candidate | undefined {
  if (reply.role !== 'user') return undefined;
  const own = withoutQuotes(reply.text).trim();
  const words = own.split(/\s+/).filter(Boolean);
  if (words.length > 4 || /[?？]/.test(own) || DECLINE.test(own) || RETRACTION.test(own)) return undefined;
  const last = sentences(stripQuoted(turn.text)).at(-1) ?? '';
  const m = /[?？]$/.test(last) ? OPTIONS.exec(last) : null;
  // A choice offered, not a question of fact ("Is it the API or the worker that crashes?").
  if (!m || !/\b(?:use|want|prefer|go\s+with|pick|choose|which|switch\s+to)\b|用|[选選]|要/i.test(last))
    return undefined;
  const [a, b] = [m[1] ?? m[3]!, m[2] ?? m[4]!];
  const names = (x: string) =>
    new RegExp(`(?<![\\w.+-])${x.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w+-])`, 'i').test(own);
  const picked = names(a) && !names(b) ? a : names(b) && !names(a) ? b : undefined;
  if (!picked) return undefined;
  const text = last
    .replace(m[0], picked)
    .replace(LEAD, '')
    .replace(/\s*[吗嗎呢]?\s*[?？]$/, '');
  return build({ kind: 'Decision', text, confidence: 0.75 }, turns, turn, reply, 'agent');
}
