/**
 * Multinomial logistic regression for the learned extraction scorer (docs/extraction-model.md):
 * AdaGrad on the log-loss with an L2 penalty, rows visited in a seeded order, so the same rows give
 * the same weights on every machine. Features seen in fewer than `minCount` rows are dropped, and
 * weights are rounded and left out when near zero, which keeps the committed file small.
 * Plain JavaScript, no dependency: the output is the ModelFile that src/extract/model-score.ts reads.
 */
import { rng } from '../../fixtures/extraction/rng.mjs';

export const LABELS = ['none', 'Decision', 'Rule', 'Architecture', 'Note', 'Preference', 'Goal', 'Task', 'Lesson'];
export const VERSION = 1;
export const DEFAULTS = { epochs: 30, rate: 0.3, l2: 1e-3, minCount: 2, seed: 27, digits: 2 };

function shuffled(n, rand) {
  const order = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i -= 1) {
    const j = Math.floor(rand() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  return order;
}

/** rows: {features: string[], label: string}; returns the ModelFile object. */
export function train(rows, threshold, options = {}) {
  const o = { ...DEFAULTS, ...options };
  const count = new Map();
  for (const r of rows) for (const f of r.features) count.set(f, (count.get(f) ?? 0) + 1);
  const kept = [...count.keys()].filter((f) => count.get(f) >= o.minCount || f === 'bias').sort();
  const index = new Map(kept.map((f, i) => [f, i]));
  const K = LABELS.length;
  const W = new Float64Array(kept.length * K);
  const G = new Float64Array(kept.length * K).fill(1e-8);
  const data = rows.map((r) => ({
    x: r.features.filter((f) => index.has(f)).map((f) => index.get(f)),
    y: LABELS.indexOf(r.label),
  }));
  const rand = rng(o.seed);
  const z = new Float64Array(K);
  for (let epoch = 0; epoch < o.epochs; epoch += 1) {
    for (const i of shuffled(data.length, rand)) {
      const { x, y } = data[i];
      z.fill(0);
      for (const f of x) for (let k = 0; k < K; k += 1) z[k] += W[f * K + k];
      const max = Math.max(...z);
      let sum = 0;
      for (let k = 0; k < K; k += 1) sum += z[k] = Math.exp(z[k] - max);
      for (const f of x)
        for (let k = 0; k < K; k += 1) {
          const g = z[k] / sum - (k === y ? 1 : 0) + o.l2 * W[f * K + k];
          G[f * K + k] += g * g;
          W[f * K + k] -= (o.rate * g) / Math.sqrt(G[f * K + k]);
        }
    }
  }
  const scale = 10 ** o.digits;
  const weights = {};
  kept.forEach((f, i) => {
    const parts = [];
    for (let k = 0; k < K; k += 1) {
      const w = Math.round(W[i * K + k] * scale) / scale;
      if (w !== 0) parts.push(`${k}:${w}`);
    }
    if (parts.length) weights[f] = parts.join(' ');
  });
  return { version: VERSION, labels: LABELS, threshold, weights };
}
