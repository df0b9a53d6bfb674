/**
 * From a sentence the offline extractor kept to a candidate: which marker it carries (looked for
 * outside what it quotes and after no one else's "said"), its kind, and its title: the phrase that
 * states the rule, not its justification, cut whole (issue 27).
 */
import type { Kind } from '../entries/model.js';
import type { Turn } from '../transcripts/types.js';
import { ARCH_SHAPE, CAUSE, FIXED, STYLE_TOPIC } from './kind-markers.js';
import { taskState } from './task-state.js';
import { mayCarry } from './credentials.js';
import { topicOf } from './topics.js';
import { BECAUSE, FINDING, MARKERS, REVISION } from './markers.js';
import { UNSETTLED } from './unsettled.js';
import { type Marker } from './kind-markers.js';
import { capitalise, clip, clipPhrase, sentences, stripQuoted, trimEnd, withoutQuotes } from './sentences.js';
import { REPORTED } from './speech-acts.js';
import type { Candidate } from './types.js';
import { redactSecrets } from '../secrets/secrets.js';

const TITLE_MAX = 80;

export function isSpeech(t: Turn): boolean {
  return (t.role === 'user' || t.role === 'assistant') && !t.sidechain && !t.meta;
}

/**
 * The marker of a sentence, looked for outside what it quotes: a quotation is not a statement, and
 * neither is what someone else is reported to have said ("Alice said we decided…").
 */
export function matchMarker(sentence: string): Marker | undefined {
  const own = withoutQuotes(sentence);
  const found = MARKERS.find((m) => m.re.test(own));
  if (!found || REPORTED.test(own.slice(0, (found.re.exec(own)?.index ?? 0) + 1))) return undefined;
  // "我们决定日志统一用 pino": decided before the rule word, it is a decision ("From now on … we decided" and a "Decision:" label stay rules).
  const at = (m: Marker) => m.re.exec(own)?.index ?? -1;
  const decided =
    found.kind === 'Rule'
      ? MARKERS.find(
          (m) =>
            m.kind === 'Decision' &&
            m.confidence >= 0.9 &&
            at(m) >= 0 &&
            at(m) < at(found) &&
            !/[:：]\s*$/.test(m.re.exec(own)![0]),
        )
      : undefined;
  if (found.kind !== 'Decision' && !decided) return found;
  if (decided) return decided;
  // A decision that moves a system to another technology is an architecture change; the decision's
  // phrase still comes off the title ("我们决定迁移到…" → "迁移到…").
  const arch = MARKERS.find((m) => m.kind === 'Architecture' && !m.broad && m.re.test(own));
  return arch ? { ...arch, strip: arch.strip ?? found.strip } : found;
}

/**
 * The claim and its justification: "X because Y", and "Go with Zustand for state, Redux is overkill"
 * (a clause after a comma with its own subject and "is"/"are" argues for the claim, it is no part of it).
 */
function splitReason(statement: string): { claim: string; why?: string } {
  const m = BECAUSE.exec(statement) ?? ASIDE.exec(statement);
  if (!m || m.index < 8) return { claim: statement };
  return { claim: statement.slice(0, m.index), why: trimEnd(statement.slice(m.index + m[0].length).trim()) };
}

const ASIDE =
  /[,;]\s+(?=(?:[\w.-]+\s+){1,3}(?:isn['’]t|aren['’]t|is\s+not|are\s+not)\s+(?:really\s+)?(?:worth|needed|necessary|required)\b)|[,;]\s+(?=(?!(?:which|that|who|so|and|but|or|e\.g|i\.e)\b)(?:[\w.-]+\s+){1,3}(?:is|are|was|were|isn['’]t|aren['’]t)\s+(?:just\s+|way\s+|too\s+|really\s+)?(?:overkill|too|slow|slower|heavy|heavier|bloated|overcomplicated|unnecessary|painful|a\s+pain|worse|dead|deprecated|unmaintained|flaky|broken)\b)|[，,；;]\s*(?=[^，,；;。]{1,12}(?:太重|太慢|太复杂|太複雜|没必要|沒必要|过时|過時))/i;

/** Words that open a title without saying anything: "Please …", "Instead of that label, …". */
const TITLE_LEAD =
  /^(?:(?:please|so|and|also|then|ok(?:ay)?|alright)[\s,]+)+|^(?:instead\s+of|rather\s+than)\s+[^,]{1,60},\s*(?=\S)|^(?:好的?|嗯|那就?|行)[，,]\s*/i;

export function titleFrom(claim: string): string {
  const t = trimEnd(trimEnd(claim.trim()).replace(/[,，]\s*please$/i, '')).replace(TITLE_LEAD, '');
  // Redacted before the cut: a secret cut at the limit is too short for its pattern (and its id slug).
  return capitalise(clipPhrase(redactSecrets(t).text, TITLE_MAX));
}

export interface Statement {
  kind: Kind;
  text: string;
  confidence: number;
  marker?: Marker;
  revises?: boolean;
  /** A correction of what was just said (rules.ts): the candidate's `corrects`. */
  corrects?: boolean;
}

const OBLIGED = /只能|只可以|只[许許准準]|必[须須]|一定要|不[得准準]|禁止|\bmust\b|\bonly\s+ever\b/i;
const UNIFY = /[统統]一(?:用|使用|採用|采用)|\bstandardi[sz]e\s+on\b/i;

/** Marker-less topical instructions about the user's style or tools are preferences. */
function kindOf(st: Statement): Kind {
  // A note giving a problem's cause and its fix is a lesson ("备忘：邮件进垃圾箱是因为 SPF…，加进 SPF 记录后就正常了").
  if (st.kind === 'Note' && CAUSE.test(st.text) && FIXED.test(st.text)) return 'Lesson';
  // Standardising on a tool of a lexicon topic is choosing it ("端到端测试统一用 Cypress"): a decision, not a rule.
  if (st.kind === 'Rule' && UNIFY.test(st.text) && topicOf(st.text) && !STYLE_TOPIC.test(st.text)) return 'Decision';
  // A decision or rule about the system's shape (a gateway, a queue, event sourcing) is architecture.
  if (
    (st.kind === 'Decision' || (st.kind === 'Rule' && !STYLE_TOPIC.test(st.text))) &&
    ARCH_SHAPE.test(withoutQuotes(st.text))
  )
    return 'Architecture';
  // A plain choice said with an obligation ("正式環境的金鑰只能放在 Secret Manager") is a rule.
  if (st.kind === 'Decision' && st.marker?.weak && OBLIGED.test(st.text)) return 'Rule';
  // Running or checking with a tool before something is a duty, not a taste ("always run the formatter before you commit").
  const duty = st.kind === 'Rule' && /\b(?:run|check|verify|review|test)\b[^.?!]*\b(?:before|after)\b/i.test(st.text);
  return st.marker?.topical && !duty && (st.kind === 'Rule' || st.kind === 'Decision') && STYLE_TOPIC.test(st.text)
    ? 'Preference'
    : st.kind;
}

export function build(
  st: Statement,
  turns: Turn[],
  first: Turn,
  last: Turn,
  origin: 'user' | 'agent',
): Candidate | undefined {
  let body = st.marker?.strip ? st.text.replace(st.marker.strip, '') : st.text;
  body = trimEnd(body.trim()).replace(/^[\s,，、;；:：.。!！?？—–…-]+/, '');
  if (Array.from(body).length < 3) return undefined;
  // A lesson is its problem, cause and fix together: its "because" is the point, not an aside.
  const kind = kindOf(st);
  // A value of a credential is knowledge only as something asked to be kept or done (credentials.ts).
  if (!mayCarry(kind, st.text)) return undefined;
  const { claim, why } = kind === 'Lesson' ? { claim: body, why: undefined } : splitReason(body);
  const title = titleFrom(claim);
  if (!title) return undefined;
  const finding = findFinding(turns, first, st.text);
  return {
    kind,
    title,
    conclusion: capitalise(body),
    ...(why ? { why } : {}),
    ...(finding ? { finding } : {}),
    ...(kind === 'Architecture' ? { impact: 'architecture' } : {}),
    ...(kind === 'Task' ? { state: taskState(st.text) } : {}),
    // The folder the session ran in, when the reader knows it (Turn.cwd): the planner's scope comes from it.
    ...(cwdOf(first) ? { cwd: cwdOf(first) } : {}),
    confidence: st.confidence,
    origin,
    // An agent's proposal lands only with the user's yes, which is the last turn (proposal.ts).
    ...(origin === 'agent' ? { confirmedAt: last.index } : {}),
    revises: st.revises === true || REVISION.test(st.text),
    ...(st.corrects ? { corrects: true } : {}),
    sessionId: first.sessionId,
    sessionPath: first.sessionPath,
    firstTurn: first.index,
    lastTurn: last.index,
    timestamp: last.timestamp ?? first.timestamp ?? '',
  };
}

const cwdOf = (t: Turn): string | undefined => t.cwd || undefined;

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
