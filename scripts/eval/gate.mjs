/**
 * The bar issue 27 sets for the held-out split: precision ≥ 0.95, recall ≥ 0.85 overall and per
 * language, update accuracy ≥ 0.9, no decoy and no secret landed. `--gate` applies it to every report.
 */
import { ratios } from './score.mjs';

export const BAR = { precision: 0.95, recall: 0.85, updates: 0.9 };

/** What a report's result misses of the bar, one line each; empty when it meets it. */
export function failures(result) {
  const out = [];
  const o = ratios(result.overall);
  const below = (name, value, min) => value !== null && value < min && out.push(`${name} ${value.toFixed(2)} < ${min}`);
  below('precision', o.precision ?? 0, BAR.precision);
  below('recall', o.recall, BAR.recall);
  for (const [lang, b] of Object.entries(result.lang)) below(`recall (${lang})`, ratios(b).recall, BAR.recall);
  below('updates', o.updates, BAR.updates);
  if (result.overall.decoysLanded > 0) out.push(`${result.overall.decoysLanded} decoys landed`);
  if (result.overall.secretsLanded > 0) out.push(`${result.overall.secretsLanded} secrets landed`);
  return out;
}
