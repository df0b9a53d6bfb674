/** `mem tick` on a fixture with a known link graph and use log: the documented scores, computed by hand here. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { mem } from './helpers/cli.js';
import { daily, entry, files, workspace } from './fixtures/governance/workspace.js';

const A = 'RULE-20261101-always-tag-releases';
const B = 'DECISION-20261110-use-postgresql';
const C = 'NOTE-20261120-release-checklist-lives-in-the-wiki';
const D = 'DECISION-20260801-use-sqlite';
const E = 'NOTE-20260701-printer-on-floor-two';
const F = 'NOTE-20260801-staging-database-resets-every-monday-morning';
const G = 'NOTE-20260802-staging-database-resets-every-monday-morning-at-six';

const usage =
  [
    { t: '2026-11-25T00:00:00Z', kind: 'access', via: 'get', ids: [A] },
    { t: '2026-11-28T00:00:00Z', kind: 'access', via: 'get', ids: [C] },
    { t: '2026-11-29T00:00:00Z', kind: 'traverse', via: 'context', ids: [A, C] },
    // After --now: a replay ignores the future.
    { t: '2026-12-05T00:00:00Z', kind: 'access', via: 'get', ids: [C, E] },
  ]
    .map((e) => JSON.stringify(e))
    .join('\n') + '\n{"t":"2026-11-29T00:00:00Z","kind":"acc'; // a torn last line

test('tick scores links, use, recency and age as documented, suggests, and changes no file', async (t) => {
  const ws = workspace(t, {
    'memory/2026-11-01.md': daily('2026-11-01', [
      // A names B in refs and links to C in its text: out = 2.
      entry({
        id: A,
        title: 'Always tag releases',
        date: '2026-11-01',
        fields: { conclusion: `tag every release; see [the checklist](2026-11-20.md#${C})`, refs: B },
      }),
      entry({ id: B, title: 'Use PostgreSQL', date: '2026-11-10', fields: { conclusion: 'postgres', supersedes: D } }),
      entry({
        id: C,
        title: 'Release checklist lives in the wiki',
        date: '2026-11-20',
        fields: { conclusion: 'wiki page' },
      }),
    ]),
    'memory/2026-08-01.md': daily('2026-08-01', [
      entry({ id: D, title: 'Use SQLite', date: '2026-08-01', fields: { conclusion: 'sqlite', status: 'superseded' } }),
      entry({ id: E, title: 'Printer on floor two', date: '2026-07-01', fields: { conclusion: 'printer' } }),
      entry({
        id: F,
        title: 'Staging database resets every Monday morning',
        date: '2026-08-01',
        fields: { conclusion: 'Staging database resets every Monday morning', scope: 'project:shop' },
      }),
      entry({
        id: G,
        title: 'Staging database resets every Monday morning at six',
        date: '2026-08-02',
        fields: { conclusion: 'Staging database resets every Monday morning', scope: 'project:shop' },
      }),
    ]),
    '.mem/usage.jsonl': usage,
  });
  const before = files(ws);
  const r = await mem(['-C', ws, '--now', '2026-11-30T00:00:00Z', '--json', 'tick']);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(files(ws), before, 'tick writes nothing: Markdown and .mem/ are byte-identical');
  const out = JSON.parse(r.stdout);

  // score = 1.0·ln(1+in) + 0.5·ln(1+out) + 1.0·ln(1+access) + 0.5·ln(1+traverse) + 2·exp(−daysSinceUse/30) − 0.01·ageDays
  const score = (inb: number, outb: number, access: number, traverse: number, sinceUse: number, age: number) =>
    Math.log(1 + inb) +
    0.5 * Math.log(1 + outb) +
    Math.log(1 + access) +
    0.5 * Math.log(1 + traverse) +
    2 * Math.exp(-sinceUse / 30) -
    0.01 * age;
  const expected: Record<string, [number, string]> = {
    [A]: [score(0, 2, 1, 1, 1, 29), 'active'], // last use 11-29, dated 11-01
    [B]: [score(1, 1, 0, 0, 20, 20), 'active'], // named by A; names D; never used: recency from its date
    [C]: [score(1, 0, 1, 1, 1, 10), 'active'], // linked from A; the 12-05 read is in the future
    [D]: [score(1, 0, 0, 0, 121, 121), 'inactive'], // superseded: scored, never suggested
    [E]: [score(0, 0, 0, 0, 152, 152), 'delete-candidate'], // no inbound link, unused 152 days
    [F]: [score(0, 0, 0, 0, 121, 121), 'delete-candidate'],
    [G]: [score(0, 0, 0, 0, 120, 120), 'delete-candidate'],
  };
  const got = Object.fromEntries(
    out.entries.map((e: { id: string; score: number; state: string }) => [e.id, [e.score, e.state]]),
  );
  assert.deepEqual(Object.keys(got).sort(), Object.keys(expected).sort());
  for (const [id, [s, state]] of Object.entries(expected)) {
    assert.ok(Math.abs(got[id][0] - s) < 1e-6, `${id}: ${got[id][0]} vs ${s}`);
    assert.equal(got[id][1], state, id);
  }
  assert.deepEqual(out.deleteCandidates.sort(), [E, F, G].sort());
  // Same kind and scope, Jaccard 6/7 over title + conclusion words, both scoring below 1.
  assert.deepEqual(out.mergeCandidates, [{ a: F, b: G, similarity: 0.857 }]);
  assert.match(
    (await mem(['-C', ws, '--now', '2026-11-30T00:00:00Z', 'tick'])).stdout,
    /7 entries scored: 3 active, 0 cold, 3 delete candidates, 1 merge candidates/,
  );
});

test('merge candidates: one kind and scope, the first copy of an id decides, pairs ordered by similarity, then ids', async (t) => {
  const note = (id: string, title: string, fields: Record<string, string> = {}) =>
    entry({ id, title, date: '2026-08-01', fields: { conclusion: 'staging database resets', ...fields } });
  const ws = workspace(t, {
    'memory/2026-08-01.md': daily('2026-08-01', [
      note('NOTE-20260801-c', 'Staging database resets every Monday'),
      note('NOTE-20260801-a', 'Staging database resets every Monday'),
      note('NOTE-20260801-b', 'Staging database resets every Monday morning'),
      // Retired first copy: its active duplicate below is not a candidate.
      note('NOTE-20260801-d', 'Staging database resets every Monday', { status: 'superseded' }),
      // Another scope (case and spaces do not count) or another kind: never paired with the above.
      note('NOTE-20260801-e', 'Staging database resets every Monday', { scope: ' Project:Shop ' }),
      note('NOTE-20260801-f', 'Staging database resets every Monday', { scope: 'project:shop' }),
      entry({
        id: 'RULE-20260801-g',
        title: 'Staging database resets every Monday',
        date: '2026-08-01',
        fields: { conclusion: 'staging database resets' },
      }),
    ]),
    'memory/2026-08-02.md': daily('2026-08-02', [note('NOTE-20260801-d', 'Staging database resets every Monday')]),
  });
  const r = await mem(['-C', ws, '--now', '2026-11-30T00:00:00Z', '--json', 'tick']);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout).mergeCandidates, [
    { a: 'NOTE-20260801-a', b: 'NOTE-20260801-c', similarity: 1 },
    { a: 'NOTE-20260801-e', b: 'NOTE-20260801-f', similarity: 1 },
    { a: 'NOTE-20260801-a', b: 'NOTE-20260801-b', similarity: 0.833 },
    { a: 'NOTE-20260801-b', b: 'NOTE-20260801-c', similarity: 0.833 },
  ]);
});
