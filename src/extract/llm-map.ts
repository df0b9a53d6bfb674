/**
 * Validated model entries → Candidates, for one batch. The model's word is checked, not trusted:
 * a cited turn range must overlap the batch (clamped into it, dropped otherwise), and at least one
 * cited turn must be a user or assistant turn, so tool output can never become memory by being the
 * only thing an entry points at (DESIGN §5 trust boundary). Every text the model wrote is redacted and
 * freed of control characters like a transcript's (a model can repeat a key it was never shown), and
 * `origin: user` needs a user turn in the cited range, as the rule-based extractor's does, and an
 * agent's statement the user's yes in the reply after it (else it is dropped). And the
 * cited user and assistant turns must hold most of the entry's words (grounding.ts): a real turn
 * cited for an invented rule is not a source of it.
 */
import type { Turn } from '../transcripts/types.js';
import { ID_PREFIXES } from '../entries/id.js';
import type { Candidate } from './types.js';
import type { LlmEntry } from './llm-schema.js';
import { SCOPE, TYPED_KEY } from '../entries/model.js';
import { cleanModelText } from './clean.js';
import { GROUNDED, groundedShare } from './grounding.js';
import { isTrustedTurn } from './llm-prompt.js';
import { confirms } from './proposal.js';

const ENTRY_ID_RE = new RegExp(`^(?:${ID_PREFIXES})-\\d{8}-\\S+$`);
/** The rule-based extractor's confidence in what the assistant said and the user confirmed. */
const AGENT_CONFIDENCE = 0.75;

function text(value: string | null | undefined): string | undefined {
  const t = value == null ? '' : cleanModelText(value);
  return t ? t : undefined;
}

/** The folder the cited turns ran in (the last one that says). */
const cwdOf = (turns: readonly Turn[]) => turns.findLast((t) => t.cwd)?.cwd;

/** The time of the last cited turn; when it has none, the nearest earlier turn's, then any turn's. */
function timestampFor(batch: readonly Turn[], last: number): string | undefined {
  const before = batch.filter((t) => t.index <= last).reverse();
  return before.find((t) => t.timestamp)?.timestamp ?? batch.find((t) => t.timestamp)?.timestamp ?? undefined;
}

/**
 * The turns an entry must be grounded in: the cited user and assistant turns and the one just before
 * them. A confirmation ("Yes, agreed.", "好") holds none of the words it confirms; they are in the
 * proposal before it, which may be in the context section, where the model may not cite it.
 */
function groundingTurns(shown: readonly Turn[], firstTurn: number, lastTurn: number): Turn[] {
  const trusted = shown.filter(isTrustedTurn);
  const before = trusted.filter((t) => t.index < firstTurn).slice(-1);
  return [...before, ...trusted.filter((t) => t.index >= firstTurn && t.index <= lastTurn)];
}

/**
 * The user's reply that confirms what the assistant said by `lastTurn`: the turn right after the last
 * assistant turn up to it (which may be in the context section; tool output between them aside), a
 * user's short yes (proposal.ts confirms). Undefined when the user has not answered in this batch,
 * answered otherwise, or the assistant spoke again first.
 */
function userYes(shown: readonly Turn[], batch: readonly Turn[], lastTurn: number): Turn | undefined {
  const said = shown.filter((t) => t.role === 'assistant' && isTrustedTurn(t) && t.index <= lastTurn).at(-1);
  if (!said) return undefined;
  const reply = batch.find((t) => t.index > said.index && isTrustedTurn(t));
  return reply?.role === 'user' && confirms(reply.text) ? reply : undefined;
}

export function toCandidates(
  entries: readonly LlmEntry[],
  batch: readonly Turn[],
  context: readonly Turn[],
  warn: (msg: string) => void,
): Candidate[] {
  const head = batch[0];
  const tail = batch[batch.length - 1];
  if (!head || !tail) return [];
  const lo = head.index;
  const hi = tail.index;
  const out: Candidate[] = [];
  for (const e of entries) {
    const title = text(e.title) ?? '';
    const name = `"${title}"`;
    const from = Math.min(e.first_turn, e.last_turn);
    const to = Math.max(e.first_turn, e.last_turn);
    if (to < lo || from > hi) {
      warn(`LLM entry ${name} dropped: it cites turns ${from}-${to}, outside the batch's turns ${lo}-${hi}`);
      continue;
    }
    const firstTurn = Math.max(from, lo);
    const lastTurn = Math.min(to, hi);
    const cited = batch.filter((t) => t.index >= firstTurn && t.index <= lastTurn);
    if (!cited.some(isTrustedTurn)) {
      warn(
        `LLM entry ${name} dropped: turns ${firstTurn}-${lastTurn} hold no user or assistant turn (tool output is never a source)`,
      );
      continue;
    }
    const timestamp = timestampFor(batch, lastTurn);
    if (!timestamp) {
      warn(`LLM entry ${name} dropped: no turn of ${head.sessionPath} near turn ${lastTurn} has a timestamp`);
      continue;
    }
    const conclusion = text(e.conclusion);
    if (!title || !conclusion) {
      warn(`LLM entry ${name} dropped: its title or conclusion is empty once cleaned`);
      continue;
    }
    const share = groundedShare(`${title}\n${conclusion}`, groundingTurns([...context, ...batch], firstTurn, lastTurn));
    if (share < GROUNDED) {
      warn(
        `LLM entry ${name} dropped: turns ${firstTurn}-${lastTurn} and the turn before them hold ${Math.round(share * 100)}% of its words (${GROUNDED * 100}% needed): the model wrote what nobody said`,
      );
      continue;
    }
    // Without a user turn in the range, nobody but the assistant said it: an agent statement at most.
    const userSaid = cited.some((t) => t.role === 'user' && isTrustedTurn(t));
    const demoted = e.origin === 'user' && !userSaid;
    if (demoted)
      warn(`LLM entry ${name}: origin "user" changed to "agent" (turns ${firstTurn}-${lastTurn} hold no user turn)`);
    // An agent's statement lands only with the user's yes after it, as on the rule path (proposal.ts).
    const yes = demoted || e.origin === 'agent' ? userYes([...context, ...batch], batch, lastTurn) : undefined;
    if ((demoted || e.origin === 'agent') && !yes) {
      warn(
        `LLM entry ${name} dropped: the assistant said it (turns ${firstTurn}-${lastTurn}) and no user reply confirms it`,
      );
      continue;
    }
    const c: Candidate = {
      kind: e.kind,
      title,
      conclusion,
      confidence: demoted ? Math.min(e.confidence, AGENT_CONFIDENCE) : e.confidence,
      origin: demoted ? 'agent' : e.origin,
      revises: e.revises,
      sessionId: head.sessionId,
      sessionPath: head.sessionPath,
      ...(cwdOf(cited) ? { cwd: cwdOf(cited) } : {}),
      firstTurn,
      lastTurn: Math.max(lastTurn, yes?.index ?? lastTurn),
      timestamp: (yes && timestampFor(batch, yes.index)) || timestamp,
      ...(yes ? { confirmedAt: yes.index } : {}),
    };
    const why = text(e.why);
    const finding = text(e.finding);
    const impact = text(e.impact);
    if (why) c.why = why;
    if (finding) c.finding = finding;
    if (impact) c.impact = impact;

    const key = text(e.key);
    if (key && TYPED_KEY.test(key)) c.key = key;
    else if (key)
      warn(`LLM entry ${name}: key "${key}" ignored (expected a typed key such as decision:<project>:<topic>)`);
    const scope = text(e.scope);
    if (scope && SCOPE.test(scope)) c.scope = scope;
    else if (scope)
      warn(`LLM entry ${name}: scope "${scope}" ignored (expected global, project:<name> or lang:<name>)`);

    if (e.retracts) c.retracting = true;
    if (e.kind === 'Task') c.state = e.state ?? 'todo';

    const refs = [...new Set((e.refs ?? []).map((r) => text(r)).filter((r): r is string => r !== undefined))];
    if (refs.length > 0) c.refs = refs;
    // The model never sees existing ids unless the conversation names one; a free-text hint only
    // confirms `revises`, and the planner finds the superseded entry by key and similarity.
    const hint = text(e.supersedes_hint);
    if (hint && ENTRY_ID_RE.test(hint)) {
      c.supersedes = hint;
      c.revises = true;
    }
    out.push(c);
  }
  return out;
}
