/**
 * The learned scorer (docs/extraction-model.md): multinomial logistic regression over pieceFeatures
 * (model-features.ts), its weights trained on the labelled set's dev split only by
 * scripts/train-extract-model.mjs and committed in model-weights.ts. Pure and offline: the weights
 * are parsed once, on first use, and a sentence is scored by summing the weights of its features per
 * label and taking the softmax.
 *
 * The file's `version` must be MODEL_VERSION: features changed without retraining would score
 * sentences with weights meant for other features, so a mismatch turns the model off.
 */
import type { Kind } from '../entries/model.js';
import { testHook } from '../core/test-hooks.js';
import { readFileSync } from 'node:fs';
import { MODEL_JSON } from './model-weights.js';

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
 * The committed model, read once per value of the test switch: with MEM_TEST_HOOKS=1, MEM_EXTRACT_MODEL
 * `off` runs the rules alone and a weights file replaces the committed one (scripts/cv-extract-model.mjs).
 */
export function currentModel(): Model | undefined {
  const hook = testHook('MEM_EXTRACT_MODEL');
  if (loaded && loaded.hook === hook) return loaded.model;
  const text = hook === 'off' ? undefined : hook ? readFileSync(hook, 'utf8') : MODEL_JSON;
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
