/**
 * The learned scorer beside the rules (docs/extraction-model.md): a settled sentence that no marker
 * list holds lands through the committed model and the rules' entry builder; its unsettled twins (a
 * hedge, a question, someone else's words, a cancel or retraction after it, a one-off) land nothing,
 * since the rules' detectors gate the model too; the test switch turns it off; and the committed
 * weights are what the training script makes of the dev split.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { currentModel, MODEL_VERSION } from '../src/extract/model-score.js';
import { matchMarker } from '../src/extract/statement.js';
import { extract } from './helpers/rule-turns.js';

const SETTLED = 'Release notes go in CHANGELOG.md with every merge.';

test('a settled sentence outside every marker list lands through the model; its decoy twins do not', () => {
  assert.equal(matchMarker(SETTLED), undefined, 'no marker of the rules speaks for it');
  const [c, ...more] = extract(['assistant', 'Anything else for the release process?'], ['user', SETTLED]);
  assert.equal(more.length, 0);
  assert.deepEqual(
    [c?.kind, c?.title, c?.origin],
    ['Rule', 'Release notes go in CHANGELOG.md with every merge', 'user'],
  );
  assert.ok(c!.confidence <= 0.65, 'the least explicit statement has the lowest confidence');
  for (const twin of [
    'Not sure yet whether release notes go in CHANGELOG.md with every merge.',
    'Should release notes go in CHANGELOG.md with every merge?',
    'Alice said release notes go in CHANGELOG.md with every merge.',
    'Release notes go in CHANGELOG.md with every merge. Not settled though.',
    'Release notes go in CHANGELOG.md with every merge, scratch that.',
    'Release notes go in CHANGELOG.md for this one.',
  ])
    assert.deepEqual(extract(['user', twin]), [], twin);
  process.env.MEM_TEST_HOOKS = '1';
  process.env.MEM_EXTRACT_MODEL = 'off';
  try {
    assert.deepEqual(extract(['user', SETTLED]), [], 'MEM_EXTRACT_MODEL=off: the rules alone');
  } finally {
    delete process.env.MEM_EXTRACT_MODEL;
    delete process.env.MEM_TEST_HOOKS;
  }
});

test('the committed weights load, carry this version, and are what the dev split trains', async () => {
  assert.equal(currentModel()?.threshold, 0.95);
  // @ts-expect-error: a plain JavaScript script, run under tsx
  const { moduleText, trainedModel, WEIGHTS_FILE } = await import('../scripts/train-extract-model.mjs');
  const model = await trainedModel();
  assert.equal(model.version, MODEL_VERSION);
  assert.ok(readFileSync(WEIGHTS_FILE, 'utf8') === moduleText(model), 'run scripts/train-extract-model.mjs');
});
