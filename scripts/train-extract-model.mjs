#!/usr/bin/env node
/**
 * Trains the learned extraction scorer on fixtures/extraction/dev (never the held-out split) and
 * writes its weights file (docs/extraction-model.md). Deterministic: the same dev split gives the
 * same bytes. THRESHOLD is the one the cross-validation chose (scripts/cv-extract-model.mjs). No
 * weights ship with mem: the cross-validation found no clear gain, so the file is for experiments,
 * used through the test switch (MEM_TEST_HOOKS=1 MEM_EXTRACT_MODEL=<file>).
 *
 *   node --import tsx scripts/train-extract-model.mjs --out FILE
 */
import { writeFileSync } from 'node:fs';
import { devRows } from './extract-model/rows.mjs';
import { train } from './extract-model/train.mjs';

export const THRESHOLD = 0.95;

export async function trainedModel() {
  return train(await devRows(), THRESHOLD);
}

const at = process.argv.indexOf('--out');
const out = at > 0 ? process.argv[at + 1] : undefined;
if (!out) {
  console.error('usage: node --import tsx scripts/train-extract-model.mjs --out FILE');
  process.exit(2);
}
const model = await trainedModel();
const text = JSON.stringify(model) + '\n';
writeFileSync(out, text);
console.log(
  `train-extract-model: wrote ${out} (${text.length} bytes, ${Object.keys(model.weights).length} features, threshold ${THRESHOLD})`,
);
