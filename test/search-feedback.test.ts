// Ranking at a budget (issue 32 item 2): pseudo-relevance feedback, the asked day of a milestone,
// a past question's successor raised above its superseded entry, Chinese stop words of one character.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { loadConfig } from '../src/config/load.js';
import { runIndex, runSearch } from '../src/search/index.js';
import { addFeedback, feedbackTerms } from '../src/search/query/feedback.js';
import { dayOffset, liftAskedDay } from '../src/search/query/day-lift.js';
import { successorsFirst } from '../src/search/query/assemble.js';
import type { SearchResult } from '../src/search/query/outcome.js';
import { cutChineseStopWords } from '../src/search/text/stop-words.js';
import { queryTerms } from '../src/search/text/tokenize.js';
import { searchWorkspace } from './search-helpers.js';

const entry = (kind: string, title: string, date: string, lines: string[]) =>
  `## ${kind}: ${title}\n- id: ${kind.toUpperCase()}-${date.replace(/-/g, '')}-${title.toLowerCase().replace(/[^a-z]+/g, '-')}\n- date: ${date}\n${lines.map((l) => `- ${l}`).join('\n')}\n- status: active\n`;

test('a question that needs two entries finds the second through the words of the first (feedback)', async (t) => {
  const ws = searchWorkspace(t);
  // Distractors: the same two people and three components again and again, as a real memory holds them.
  const owners = Array.from({ length: 6 }, (_, i) => {
    const [who, what] = [['Ines', 'Tomas'][i % 2]!, ['runners', 'gateway', 'queue'][i % 3]!];
    return entry('Note', `${who} owns timeouts of the ${what} ${i}`, `2026-05-0${i + 1}`, [
      `why: ${who} knows the ${what} config best`,
      `conclusion: ${who} reviews changes to the ${what}`,
    ]);
  });
  writeFileSync(
    join(ws, 'memory', '2026-05-14.md'),
    [
      '# 2026-05-14\n',
      entry('Decision', 'Logs go to Loki', '2026-05-14', [
        'why: Elasticsearch needed 9 nodes and a caretaker',
        'conclusion: Promtail ships logs to Loki; Elasticsearch is retired',
      ]),
      entry('Note', 'Observability stack owned by Dana', '2026-05-06', [
        'why: Sam is overloaded',
        'conclusion: Dana looks after Prometheus, Mimir, Loki and Grafana',
      ]),
      ...owners,
    ].join('\n'),
  );
  const loaded = loadConfig(ws);
  await runIndex(ws, loaded);
  const { response } = await runSearch({
    workspace: ws,
    query: 'who owns the place our logs go now',
    k: 5,
    deep: false,
    filters: {},
    today: '2026-06-27',
    extraPaths: loaded.config.extraPaths,
    search: loaded.config.search,
  });
  const headings = response.results.map((r) => r.heading);
  assert.equal(headings[0], 'Decision: Logs go to Loki');
  assert.ok(headings.includes('Note: Observability stack owned by Dana'), JSON.stringify(headings));
});

test('feedback terms: the rarest words of the best hits the query lacks, no bookkeeping, none for a short query', () => {
  const hits = [
    {
      text: '## Decision: Logs go to Loki\n- id: DECISION-20260514-logs-go-to-loki\n- session_id: abc123\n- conclusion: Promtail ships logs to Loki',
      score: 10,
    },
    {
      text: '- Logs in Loki ([DECISION-20260514-logs-go-to-loki](memory/2026-05-14.md#decision-logs-go-to-loki))',
      score: 5,
    },
  ];
  const df: Record<string, number> = { loki: 4, promtail: 2, ships: 40, decision: 900, abc123: 1 };
  const terms = feedbackTerms(hits, queryTerms('who owns the place our logs go now'), (w) => df[w] ?? 0, 1000);
  assert.deepEqual(
    terms.map(([w]) => w),
    ['loki', 'promtail', 'ships'],
  );
  assert.ok(terms[0]![1] > terms[2]![1] * 10, 'a rare name weighs far more than a common word');
  assert.deepEqual(
    feedbackTerms(hits, queryTerms('logs go'), (w) => df[w] ?? 0, 1000),
    [],
  );
  // Scores add, scaled so the feedback search's best adds half the best lexical score; the best lexical
  // hit keeps first place and its score, the rest are scaled with it; a chunk found only by feedback joins.
  const merged = addFeedback(
    [
      { doc: 1, score: 10 },
      { doc: 2, score: 4 },
    ],
    [
      { doc: 3, score: 8 },
      { doc: 1, score: 4 },
    ],
  );
  assert.deepEqual(
    merged.map((h) => [h.doc, Math.round(h.score * 1000) / 1000]),
    [
      [1, 10],
      [3, 4],
      [2, 3.2],
    ],
  );
  const capped = addFeedback(
    [
      { doc: 1, score: 10 },
      { doc: 2, score: 9 },
    ],
    [{ doc: 2, score: 8 }],
  );
  assert.deepEqual(
    capped.map((h) => [h.doc, h.score]),
    [
      [1, 10],
      [2, 9.99],
    ],
  );
});

const result = (id: string, score: number, date: string | null, supersededBy: string | null = null) =>
  ({ id, score, date, supersededBy, scores: { recency: 1 } }) as unknown as SearchResult;

test('the day before or after a milestone: the best results of that day lifted right below it', () => {
  assert.equal(dayOffset('what was planned the day before the last service moved'), -1);
  assert.equal(dayOffset('賽季上線隔天的狀況'), 1);
  assert.equal(dayOffset('切库前一天的安排'), -1);
  assert.equal(dayOffset('who signs off a Friday afternoon hotfix'), null);
  const rs = [result('MILESTONE', 100, '2026-04-11'), result('X', 50, '2026-04-11'), result('WRAPUP', 5, '2026-04-10')];
  const lifted = liftAskedDay(rs, -1);
  assert.deepEqual(
    lifted.map((r) => r.id),
    ['MILESTONE', 'WRAPUP', 'X'],
  );
  assert.equal(lifted[1]!.score, 99);
  assert.equal(lifted[1]!.scores.recency, 99 / 5);
  assert.deepEqual(
    liftAskedDay([result('A', 9, '2026-04-11'), result('B', 1, '2026-04-10')], null).map((r) => r.id),
    ['A', 'B'],
  );
});

test('a question about the past raises a successor above its superseded entry instead of pushing the entry down', () => {
  const rs = () => [result('OLD', 9, null, 'NEW'), result('X', 8, null), result('Y', 7, null), result('NEW', 6, null)];
  assert.deepEqual(
    successorsFirst(rs()).map((r) => r.id),
    ['X', 'Y', 'NEW', 'OLD'],
  );
  assert.deepEqual(
    successorsFirst(rs(), true).map((r) => r.id),
    ['NEW', 'OLD', 'X', 'Y'],
  );
});

test('a Chinese stop word of one character is cut only where it stands as a word', () => {
  assert.equal(cutChineseStopWords('退款在哪个服务').replace(/\s+/g, ' ').trim(), '退款 服务');
  assert.equal(cutChineseStopWords('把关'), '把关');
  assert.equal(cutChineseStopWords('首都机场'), '首都机场');
});
