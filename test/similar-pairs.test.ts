/** similarPairs (prefix filtering) finds exactly the pairs comparing every pair finds, in the same order. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { similarPairs } from '../src/entries/similar-pairs.js';
import { jaccard } from '../src/entries/similarity.js';

function everyPair(sets: Set<string>[], min: number) {
  const out = [];
  for (let i = 0; i < sets.length; i++) {
    for (let j = i + 1; j < sets.length; j++) {
      const similarity = jaccard(sets[i]!, sets[j]!);
      if (similarity >= min) out.push({ i, j, similarity });
    }
  }
  return out;
}

test('similarPairs equals the all-pairs comparison on random sets and thresholds', () => {
  const word = fc.constantFrom(...'ab ac ad ae af ag ah ai aj ak al am'.split(' '));
  const sets = fc.array(
    fc.uniqueArray(word, { maxLength: 9 }).map((w) => new Set(w)),
    { maxLength: 40 },
  );
  const min = fc.oneof(fc.constantFrom(0.6, 0.5, 1), fc.double({ min: 0.05, max: 1, noNaN: true }));
  fc.assert(
    fc.property(sets, min, (s, m) => assert.deepEqual([...similarPairs(s, m)], everyPair(s, m))),
    { numRuns: 500, seed: 20261124 },
  );
});
