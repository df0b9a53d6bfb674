/**
 * The learned scorer's wiring beside the rules (docs/extraction-model.md), with a tiny hand-written
 * weights file: a settled sentence that no marker list holds lands through the model and the rules'
 * entry builder; its unsettled twins (a hedge, a question, someone else's words, a cancel after it)
 * land nothing, since the rules' detectors gate the model too. Without the test switch no model runs.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { ModelFile } from '../src/extract/model-score.js';
import { matchMarker } from '../src/extract/statement.js';
import { extract } from './helpers/rule-turns.js';

const SETTLED = 'Release notes go in CHANGELOG.md with every merge.';
const MODEL: ModelFile = {
  version: 1,
  labels: ['none', 'Decision', 'Rule', 'Architecture', 'Note', 'Preference', 'Goal', 'Task', 'Lesson'],
  threshold: 0.9,
  weights: { bias: '0:2', 'w:changelog': '2:3', 'w:every': '2:2' },
};

test('a settled sentence outside every marker list lands through the model; its decoy twins do not', () => {
  const file = join(mkdtempSync(join(tmpdir(), 'memfold-model-')), 'model.json');
  writeFileSync(file, JSON.stringify(MODEL));
  assert.equal(matchMarker(SETTLED), undefined, 'no marker of the rules speaks for it');
  assert.deepEqual(extract(['user', SETTLED]), [], 'without the test switch the rules run alone');
  process.env.MEM_TEST_HOOKS = '1';
  process.env.MEM_EXTRACT_MODEL = file;
  try {
    const [c, ...more] = extract(['assistant', 'Anything else for the release process?'], ['user', SETTLED]);
    assert.equal(more.length, 0);
    assert.deepEqual(
      [c?.kind, c?.title, c?.origin, c?.confidence],
      ['Rule', 'Release notes go in CHANGELOG.md with every merge', 'user', 0.65],
    );
    for (const twin of [
      'Not sure yet whether release notes go in CHANGELOG.md with every merge.',
      'Should release notes go in CHANGELOG.md with every merge?',
      'Alice said release notes go in CHANGELOG.md with every merge.',
      'Release notes go in CHANGELOG.md with every merge. Not settled though.',
      'Release notes go in CHANGELOG.md with every merge, scratch that.',
    ])
      assert.deepEqual(extract(['user', twin]), [], twin);
    // Below its threshold, a kind does not land: one word of the two is not enough.
    assert.deepEqual(extract(['user', 'Release notes are kept in CHANGELOG.md.']), []);
  } finally {
    delete process.env.MEM_EXTRACT_MODEL;
    delete process.env.MEM_TEST_HOOKS;
  }
});
