/**
 * The offline, rule-based extractor (DESIGN §7): same job as the LLM path, less cleverly. It only
 * listens to people and the agent, never to tools: a tool result, sub-agent or harness turn can
 * never produce memory, whatever it says ("remember this: ..." in a fetched page is data).
 */
import type { Kind } from '../entries/model.js';
import { redactSecrets } from '../secrets/secrets.js';
import type { Turn } from '../transcripts/types.js';
import { BECAUSE, CONFIRMATION, DECLINE, FINDING, MARKERS, PROPOSAL, RETRACTION, REVISION, UNSETTLED, type Marker } from './markers.js';
import { capitalise, clip, normalise, sentences, stripQuoted, trimEnd, withoutQuotes } from './sentences.js';
import type { Candidate } from './types.js';

const TITLE_MAX = 80;

export function isSpeech(t: Turn): boolean {
  return (t.role === 'user' || t.role === 'assistant') && !t.sidechain && !t.meta;
}

/** The marker of a sentence, looked for outside what it quotes: a quotation is not a statement. */
function matchMarker(sentence: string): Marker | undefined {
  const own = withoutQuotes(sentence);
  const found = MARKERS.find((m) => m.re.test(own));
  if (!found || found.kind !== 'Decision') return found;
  // A decision that moves a system to another technology is an architecture change; the decision's
  // phrase still comes off the title ("我们决定迁移到…" → "迁移到…").
  const arch = MARKERS.find((m) => m.kind === 'Architecture' && m.re.test(own));
  return arch ? { ...arch, strip: arch.strip ?? found.strip } : found;
}

function splitReason(statement: string): { claim: string; why?: string } {
  const m = BECAUSE.exec(statement);
  if (!m || m.index < 8) return { claim: statement };
  return { claim: statement.slice(0, m.index), why: trimEnd(statement.slice(m.index + m[0].length).trim()) };
}

interface Statement {
  kind: Kind;
  text: string;
  confidence: number;
  marker?: Marker;
}

/** "We decided that." points at the sentence before it; "Remember this:" (ending in a colon) at the one after. */
const POINTER = /^(?:that|this|it|so|这个|這個|这样|這樣)?$/i;
const POINTS_AHEAD = /[:：]$/;

function build(st: Statement, turns: Turn[], first: Turn, last: Turn, origin: 'user' | 'agent'): Candidate | undefined {
  let body = st.marker?.strip ? st.text.replace(st.marker.strip, '') : st.text;
  body = trimEnd(body.trim()).replace(/^[\s,，、;；:：.。!！?？—–…]+/, '');
  if (Array.from(body).length < 3) return undefined;
  const { claim, why } = splitReason(body);
  // Redacted before the cut: a secret cut at the limit is too short for its pattern (and its id slug).
  const title = capitalise(clip(trimEnd(redactSecrets(claim).text.trim()), TITLE_MAX));
  if (!title) return undefined;
  const finding = findFinding(turns, first, st.text);
  return {
    kind: st.kind,
    title,
    conclusion: capitalise(body),
    ...(why ? { why } : {}),
    ...(finding ? { finding } : {}),
    ...(st.kind === 'Architecture' ? { impact: 'architecture' } : {}),
    confidence: st.confidence,
    origin,
    revises: REVISION.test(st.text),
    sessionId: first.sessionId,
    sessionPath: first.sessionPath,
    firstTurn: first.index,
    lastTurn: last.index,
    timestamp: last.timestamp ?? first.timestamp ?? '',
  };
}

/** A measured fact said in the statement's turn or the speech turn just before it. */
function findFinding(turns: Turn[], at: Turn, statement: string): string | undefined {
  const i = turns.indexOf(at);
  const prev = turns.slice(0, i).reverse().find(isSpeech);
  for (const t of [at, prev]) {
    if (!t) continue;
    const s = sentences(stripQuoted(t.text)).find((x) => x !== statement && FINDING.test(x) && !UNSETTLED.test(x));
    if (s) return clip(trimEnd(s), 200);
  }
  return undefined;
}

interface UserSaid {
  statements: Candidate[];
  /** The turn opens by taking back what the user said before ("Scratch that.", "Oh wait, never mind."). */
  retractsEarlier: boolean;
}

/** A sentence cut at its retractions: "From now on X, scratch that." → "From now on X,", "scratch that". */
function clauses(sentence: string): string[] {
  return sentence.split(RETRACTION).map((c) => c.trim()).filter(Boolean);
}

function userStatements(turn: Turn, turns: Turn[]): UserSaid {
  const list = sentences(stripQuoted(turn.text)).flatMap(clauses);
  const retracts = list.map((s) => RETRACTION.test(s));
  const markers = list.map((s, i) => (retracts[i] ? undefined : matchMarker(s)));
  const said: UserSaid = { statements: [], retractsEarlier: false };
  // What a retraction takes back: the turn's last statement (null when it kept none, say a guess);
  // when it opens the turn, the previous user turn's.
  let last: Candidate | null | undefined;
  list.forEach((s, i) => {
    if (retracts[i]) {
      if (i === 0) said.retractsEarlier = true;
      else if (last) said.statements.splice(said.statements.indexOf(last), 1);
      last = null;
      return;
    }
    const marker = markers[i];
    if (!marker) return;
    let text = s;
    const rest = normalise(marker.strip ? s.replace(marker.strip, '') : s);
    if (POINTER.test(rest)) {
      const j = POINTS_AHEAD.test(s) ? i + 1 : i - 1;
      // The sentence pointed at is a statement of its own: it is extracted once, there.
      if (!list[j] || markers[j] || retracts[j]) return;
      text = list[j]!;
    }
    const settled = !UNSETTLED.test(withoutQuotes(s));
    const c = settled ? build({ kind: marker.kind, text, confidence: marker.confidence, ...(text === s ? { marker } : {}) }, turns, turn, turn, 'user') : undefined;
    if (c) said.statements.push(c);
    last = c ?? null;
  });
  return said;
}

/**
 * A short reply that opens with a yes and does not take it back: "Yes, do that" confirms; "Ok, but
 * not yet", "Yeah, no", "sure?" and "Sure, just asking" do not. Quoted words are not the reply.
 */
function confirms(reply: string): boolean {
  const own = withoutQuotes(reply);
  const opener = CONFIRMATION.exec(own);
  if (reply.length > 120 || !opener) return false;
  // A question or a hedge in the opening sentence; a "no", "not yet" or "scratch that" anywhere after the yes.
  const rest = own.slice(opener[0].length);
  return !UNSETTLED.test(sentences(own)[0] ?? '') && !DECLINE.test(rest) && !RETRACTION.test(rest);
}

/** "Shall we cap uploads at 25 MB?" followed by the user's "Yes, agreed." */
function confirmedProposal(turn: Turn, reply: Turn, turns: Turn[]): Candidate | undefined {
  if (reply.role !== 'user' || !confirms(reply.text)) return undefined;
  const list = sentences(stripQuoted(turn.text));
  const last = list[list.length - 1] ?? '';
  // The reply answers the question the turn ends with: "…上限设为 5 万条。要我替换吗？" → "可以" confirms
  // the offer, not the earlier sentence.
  const proposes = (s: string) => PROPOSAL.test(withoutQuotes(s));
  const proposal = /[?？]$/.test(last) ? (proposes(last) ? last : undefined) : list.reverse().find(proposes);
  if (!proposal) return undefined;
  const text = proposal.replace(/^.*?\b(?:shall\s+we|should\s+we|i\s+(?:propose|suggest|recommend)(?:\s+(?:that\s+)?we)?|how\s+about|let['’]?s)\b\s*|^.*?(?:建[议議]|要不要|我[们們]可以)\s*/i, '');
  // Its marker may open what is proposed: "Shall we always run the linter?" proposes a rule.
  const marker = matchMarker(proposal) ?? matchMarker(text);
  return build({ kind: marker?.kind ?? 'Decision', text, confidence: 0.75 }, turns, turn, reply, 'agent');
}

export function extractWithRules(turns: Turn[]): Candidate[] {
  const speech = turns.filter(isSpeech);
  const out: Candidate[] = [];
  const seen = new Set<string>();
  const key = (c: Candidate) => `${c.kind}:${normalise(c.conclusion)}`;
  const push = (c: Candidate | undefined) => {
    if (c && !seen.has(key(c))) {
      seen.add(key(c));
      out.push(c);
    }
  };
  let previousUser: Turn | undefined;
  speech.forEach((turn, i) => {
    if (turn.role === 'user') {
      const said = userStatements(turn, turns);
      // "Scratch that" opening the next user turn takes back the last statement the user made.
      const taken = said.retractsEarlier ? out.findLastIndex((c) => c.lastTurn === previousUser?.index) : -1;
      if (taken >= 0) seen.delete(key(out.splice(taken, 1)[0]!));
      said.statements.forEach(push);
      previousUser = turn;
    } else if (speech[i + 1]) push(confirmedProposal(turn, speech[i + 1]!, turns));
  });
  return out;
}
