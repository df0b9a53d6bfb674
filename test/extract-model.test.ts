/**
 * The learned scorer beside the rules (docs/extraction-model.md): a settled sentence that no marker
 * list holds lands through the committed model and the rules' entry builder; its unsettled twins (a
 * hedge, a question, someone else's words, a cancel or retraction after it, a one-off) land nothing,
 * since the rules' detectors gate the model too; the test switch turns it off; and the committed
 * weights are what the training script makes of the dev split. With what it lands, revisions link:
 * a statement corrected in its own message is not taken, "…还是…吧" revises, "X 做好了" updates task X.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { getField } from '../src/entries/model.js';
import { currentModel, MODEL_VERSION } from '../src/extract/model-score.js';
import { planEntries, type PlanInput } from '../src/jobs/microsync/plan.js';
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

const planned = (candidates: ReturnType<typeof extract>): PlanInput['candidates'] =>
  candidates.map((c) => ({ ...c, sessionPathStored: '~/s1.jsonl', day: c.timestamp.slice(0, 10) }));

test('what the model lands links like a rule statement', () => {
  // Corrected in its own message, the first sentence is not the user's word: only the correction lands.
  const own = extract(['user', '代码注释用英文写。算了，改成中文注释吧，团队都是中文母语。']);
  assert.deepEqual(
    own.map((c) => c.title),
    ['改成中文注释吧，团队都是中文母语'],
  );
  // "…还是放 Redis 吧" takes back the choice before it.
  const cache = extract(
    ['user', '缓存先用本地内存。'],
    ['assistant', '好的。'],
    ['user', '想了一下，缓存还是放 Redis 吧，本地内存撑不住。'],
  );
  assert.deepEqual(
    cache.map((c) => [c.kind, c.revises]),
    [
      ['Architecture', false],
      ['Architecture', true],
    ],
  );
  const [first, second] = planEntries({ candidates: planned(cache), existing: [] }).entries;
  assert.equal(getField(second!.entry, 'supersedes'), first!.id);
  // "API 限流做好了" names the task "加一個 API 限流": its done state supersedes it.
  const task = extract(['user', '加一個 API 限流'], ['assistant', '記下來了。'], ['user', 'API 限流做好了']);
  assert.deepEqual(
    task.map((c) => [c.kind, c.state]),
    [
      ['Task', 'todo'],
      ['Task', 'done'],
    ],
  );
  const [todo, done] = planEntries({ candidates: planned(task), existing: [] }).entries;
  assert.equal(getField(done!.entry, 'supersedes'), todo!.id);
});
