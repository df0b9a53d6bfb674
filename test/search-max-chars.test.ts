/**
 * `mem search --max-chars` (issue 32 item 2, src/search/query/fit-chars.ts): the hits' text stays within the
 * budget; the first hit that does not fit is narrowed to whole lines around its snippet's line, with
 * startLine/endLine narrowed so `path:lines` names exactly the text shown; the rest are left out.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fitToChars } from '../src/search/query/fit-chars.js';
import type { SearchOutcome, SearchResult } from '../src/search/query/outcome.js';
import { exampleWorkspace, mem, memOk } from './helpers/cli.js';

const hit = (path: string, startLine: number, lines: string[], snippet: string): SearchResult => ({
  path,
  startLine,
  endLine: startLine + lines.length - 1,
  heading: lines[0]!,
  snippet,
  text: lines.join('\n'),
  score: 1,
  scores: { lexical: 1, lexicalRank: 1, vector: null, vectorRank: null, fused: 1, recency: 1, status: 1 },
  id: null,
  kind: null,
  status: null,
  date: null,
  source: null,
  tier: 'warm',
  supersededBy: null,
});

const outcome = (results: SearchResult[]): SearchOutcome => ({
  response: { query: 'q', tier: 'warm', indexBehind: false, results },
  notices: [],
});

test('fitToChars keeps whole hits while they fit, narrows the next to lines around its snippet, leaves the rest out', () => {
  const a = hit('memory/a.md', 10, ['## Rule: A', '- id: RULE-A', '- conclusion: alpha'], 'alpha');
  const long = [
    '## Decision: B',
    '- id: DEC-B',
    ...Array.from({ length: 20 }, (_, i) => `- filler line ${i} with some words in it`),
    '- conclusion: the answer is beta',
    '- status: active',
  ];
  const b = hit('memory/b.md', 100, long, '…the answer is beta');
  const c = hit('memory/c.md', 5, ['## Note: C', '- conclusion: gamma'], 'gamma');
  const all = outcome([a, b, c]);
  assert.equal(fitToChars(all, 100_000), all, 'everything fits: the same outcome');

  const budget = a.text.length + 120;
  const fitted = fitToChars(all, budget);
  const [first, second, third] = fitted.response.results;
  assert.equal(first, a, 'the first hit fits whole');
  assert.equal(third, c, 'a later hit that fits whole in what is left is kept');
  assert.ok(fitted.response.results.reduce((n, r) => n + r.text.length, 0) <= budget);
  assert.equal(second!.cut, true);
  assert.ok(second!.text.includes('- conclusion: the answer is beta'), "the snippet's line is kept");
  // The narrowed lines are the original's lines startLine..endLine, whole.
  const offset = second!.startLine - b.startLine;
  assert.equal(second!.text, long.slice(offset, offset + second!.endLine - second!.startLine + 1).join('\n'));
  assert.ok(second!.endLine - second!.startLine >= 1, 'neighbours are added while they fit');
  assert.match(
    fitted.notices.at(-1)!,
    /^--max-chars \d+: 1 cut to its matching lines \(\d+ characters of text shown\)$/,
  );

  // Too little room for anything useful: left out rather than cut to a few characters.
  const [big, small] = [
    hit('memory/e.md', 1, ['## Note: E', `- conclusion: ${'e '.repeat(60)}`], 'e e'),
    hit('memory/f.md', 1, ['## Note: F', `- conclusion: ${'f '.repeat(60)}`], 'f f'),
  ];
  const alone = fitToChars(outcome([big, small]), big.text.length + 40);
  assert.deepEqual(alone.response.results, [big]);
  assert.match(alone.notices.at(-1)!, /: 1 left out \(/);
  // A snippet line longer than the room is cut within it, on one line.
  const wide = hit('memory/d.md', 1, ['## Note: D', `- conclusion: ${'x'.repeat(500)} delta`], '…xxxx delta');
  const one = fitToChars(outcome([wide]), 200).response.results[0]!;
  assert.deepEqual([one.startLine, one.endLine, one.text.length], [2, 2, 200]);
});

test('mem search --max-chars on the bundled example: the text within the budget, each hit citing the lines it shows', async (t) => {
  const { ws } = exampleWorkspace(t);
  const env = { MEM_SEARCH_SERVER: 'off' };
  await memOk(['-C', ws, 'microsync', '--since', 'all', '--now', '2026-11-22T09:00:00Z'], { env });
  const whole = JSON.parse(
    (await memOk(['-C', ws, 'search', 'rule', '--json', '-k', '10'], { env })).stdout,
  ) as SearchOutcome['response'];
  const total = whole.results.reduce((n, r) => n + r.text.length, 0);
  assert.ok(whole.results.length >= 2 && total > 700, `${whole.results.length} hits, ${total} characters`);
  const r = await memOk(['-C', ws, 'search', 'rule', '--json', '-k', '10', '--max-chars', '700'], { env });
  const fitted = JSON.parse(r.stdout) as SearchOutcome['response'];
  assert.ok(fitted.results.reduce((n, x) => n + x.text.length, 0) <= 700);
  assert.ok(
    fitted.results.some((x) => x.cut),
    'one hit was narrowed',
  );
  for (const x of fitted.results) {
    const lines = readFileSync(join(ws, x.path), 'utf8')
      .split('\n')
      .slice(x.startLine - 1, x.endLine)
      .join('\n');
    assert.equal(x.text, lines, `${x.path}:${x.startLine}-${x.endLine} is the text shown`);
  }
  assert.match(r.stderr, /--max-chars 700: /);
  const archive = await mem(['-C', ws, 'search', 'rollback', '--archive', '--max-chars', '500'], { env });
  assert.deepEqual(
    [archive.code, archive.stderr.trim()],
    [2, 'mem: --max-chars applies to memory searches, not to --archive'],
  );
  const bad = await mem(['-C', ws, 'search', 'rollback', '--max-chars', '10'], { env });
  assert.equal(bad.code, 2);
  assert.equal(bad.stderr.trim(), 'mem: --max-chars must be a whole number from 200 to 100000 (got "10")');
});
