/**
 * Training rows for the learned extraction scorer (docs/extraction-model.md): every user sentence of
 * the labelled set's dev split, read as microsync reads it (the transcript readers, the trust
 * boundary, turn-pieces.ts; attachments, quotes, tool output and fenced logs are never sentences),
 * with its features (model-features.ts) and a label: the gold kind when the sentence holds every
 * required word of a gold entry (and none of its excluded words; eval's own matching, score.mjs
 * `fold`), "none" otherwise: decoys, a must-not-land string, everything else the user said.
 * Sentences of optional gold entries and of agent proposals confirmed are left out (either label
 * would be a guess). Run under tsx (it imports src/ TypeScript).
 */
import { join } from 'node:path';
import { FIXTURES, loadGold } from '../eval/run.mjs';
import { fold } from '../eval/score.mjs';

const { openTranscript } = await import('../../src/transcripts/index.ts');
const { prepareTurns } = await import('../../src/extract/trust.ts');
const { extractWithRules, isSpeech } = await import('../../src/extract/rules.ts');
const { modelPieces } = await import('../../src/extract/model-pieces.ts');

/** The exchange's number: x0123-en-rule → 123. */
export const numberOf = (x) => Number(x.id.slice(1).split('-')[0]);

/** Where each batch of the set starts (fixtures/extraction/README.md): the cross-validation's groups. */
const REVISIONS_FROM = 577;
const ISSUE27_FROM = 597;
const EVERYDAY_FROM = 675;
const FRESH_FROM = 1147;
const PROBES_FROM = 1571;

/** The spec group an exchange was written in: the base cells by language, then each later batch. */
export function groupOf(x) {
  const n = numberOf(x);
  if (n >= PROBES_FROM) return 'probe6+probe7';
  if (n >= FRESH_FROM) return 'fresh';
  if (n >= EVERYDAY_FROM) return 'everyday';
  if (n >= ISSUE27_FROM) return 'issue27';
  if (n >= REVISIONS_FROM) return 'revisions';
  return `base ${x.id.split('-').slice(1, -1).join('-')}`;
}

async function turnsOf(file, format) {
  const turns = [];
  for await (const t of openTranscript(file, format).turns) turns.push(t);
  return prepareTurns(turns).turns;
}

function labelOf(text, x) {
  const f = fold(text);
  if (x.forbid.some((d) => f.includes(fold(d.text)))) return 'none';
  const hit = x.gold.find(
    (g) =>
      !g.retracts &&
      g.words.length > 0 &&
      g.words.every((w) => f.includes(fold(w))) &&
      !(g.exclude ?? []).some((w) => f.includes(fold(w))),
  );
  if (!hit) return 'none';
  return hit.optional || hit.confirmation ? null : hit.kind;
}

/** Rows of one exchange: {exchange, group, text, features, marked, gated, label}. */
export async function exchangeRows(x, split = 'dev') {
  const turns = await turnsOf(join(FIXTURES, split, x.file), x.format);
  const rules = extractWithRules(turns, false);
  const speech = turns.filter(isSpeech);
  const rows = [];
  let previousUser;
  speech.forEach((turn, i) => {
    if (turn.role !== 'user') return;
    const afterAgent = speech[i - 1]?.role === 'assistant';
    const answers = Boolean(previousUser) && rules.some((c) => c.lastTurn === previousUser.index);
    for (const p of modelPieces(turn, afterAgent, answers)) {
      const label = labelOf(p.text, x);
      if (label === null) continue;
      rows.push({
        exchange: x.id,
        group: groupOf(x),
        text: p.text,
        features: p.features,
        marked: p.marked,
        gated: p.gated,
        label,
      });
    }
    previousUser = turn;
  });
  return rows;
}

export async function devRows() {
  const rows = [];
  for (const x of loadGold('dev', 0)) rows.push(...(await exchangeRows(x)));
  return rows;
}
