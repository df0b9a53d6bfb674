/**
 * The learned scorer, an experiment that is off in every real run (docs/extraction-model.md):
 * multinomial logistic regression over pieceFeatures (model-features.ts), its weights trained on the
 * labelled set's dev split by scripts/train-extract-model.mjs. Cross-validated on dev it added no
 * clear recall and landed hand-written decoys of the test suite, so no weights ship: it runs only
 * when the test switch MEM_TEST_HOOKS=1 and MEM_EXTRACT_MODEL=<weights file> are both set.
 *
 * The file's `version` must be MODEL_VERSION: features changed without retraining would score
 * sentences with weights meant for other features, so a mismatch turns the model off.
 */
import type { Kind } from '../entries/model.js';
import { testHook } from '../core/test-hooks.js';
import { readFileSync } from 'node:fs';

export const MODEL_VERSION = 1;

export interface ModelFile {
  version: number;
  /** "none" first, then the kinds. */
  labels: string[];
  /** Lowest probability at which a kind lands (chosen by cross-validation on dev). */
  threshold: number;
  /** feature → "label:weight label:weight …" (labels by index, weights rounded; zeros left out). */
  weights: Record<string, string>;
}

export interface Model {
  labels: string[];
  threshold: number;
  weights: Map<string, Array<[number, number]>>;
}

export function parseModel(file: ModelFile): Model | undefined {
  if (file.version !== MODEL_VERSION) return undefined;
  const weights = new Map<string, Array<[number, number]>>();
  for (const [f, packed] of Object.entries(file.weights))
    weights.set(
      f,
      packed.split(' ').map((p) => {
        const [l, w] = p.split(':');
        return [Number(l), Number(w)];
      }),
    );
  return { labels: file.labels, threshold: file.threshold, weights };
}

let loaded: { hook: string | undefined; model: Model | undefined } | undefined;

/**
 * The model of MEM_EXTRACT_MODEL (with MEM_TEST_HOOKS=1: the cross-validation, scripts/cv-extract-model.mjs,
 * and the tests), read once per value of the switch; none otherwise, and none for `off`.
 */
export function currentModel(): Model | undefined {
  const hook = testHook('MEM_EXTRACT_MODEL');
  if (loaded && loaded.hook === hook) return loaded.model;
  const text = hook && hook !== 'off' ? readFileSync(hook, 'utf8') : undefined;
  loaded = { hook, model: text ? parseModel(JSON.parse(text) as ModelFile) : undefined };
  return loaded.model;
}

/** Probabilities per label of a sentence's features. */
export function probabilities(model: Model, features: string[]): number[] {
  const z = model.labels.map(() => 0);
  for (const f of features) for (const [l, w] of model.weights.get(f) ?? []) z[l] = (z[l] ?? 0) + w;
  const max = Math.max(...z);
  const e = z.map((v) => Math.exp(v - max));
  const sum = e.reduce((a, b) => a + b, 0);
  return e.map((v) => v / sum);
}

/** The kind the model gives a sentence and its probability; undefined when "none" wins or it is below `threshold`. */
export function predictKind(
  model: Model,
  features: string[],
  threshold = model.threshold,
): { kind: Kind; p: number } | undefined {
  const p = probabilities(model, features);
  let best = 0;
  p.forEach((v, i) => (v > p[best]! ? (best = i) : undefined));
  if (best === 0 || p[best]! < threshold) return undefined;
  return { kind: model.labels[best] as Kind, p: p[best]! };
}
