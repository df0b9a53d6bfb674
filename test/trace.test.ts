/** `mem trace`: the whole supersedes chain, oldest to newest, with the weekly-log lines naming each id. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { mem } from './helpers/cli.js';
import { daily, entry, files, workspace } from './fixtures/governance/workspace.js';

const V1 = 'DECISION-20261001-cache-in-redis';
const V2 = 'DECISION-20261015-cache-in-process';
const V3 = 'DECISION-20261120-cache-in-redis-again';
const V3_2 = `${V3}-2`;

test('trace from any link of the chain gives the chain oldest to newest, statuses, dates and log lines', async (t) => {
  const ws = workspace(t, {
    'memory/archive/2026-10-01.md': daily('2026-10-01', [
      entry({ id: V1, title: 'Cache in Redis', date: '2026-10-01', fields: { status: 'superseded' } }),
    ]),
    'memory/2026-10-15.md': daily('2026-10-15', [
      entry({
        id: V2,
        title: 'Cache in process',
        date: '2026-10-15',
        fields: { status: 'superseded', supersedes: V1 },
      }),
    ]),
    'memory/2026-11-20.md': daily('2026-11-20', [
      entry({ id: V3, title: 'Cache in Redis again', date: '2026-11-20', fields: { supersedes: V2 } }),
      // Another entry whose id merely starts with V3's: never part of V3's log lines.
      entry({ id: V3_2, title: 'Cache in Redis again', date: '2026-11-20', fields: { conclusion: 'unrelated' } }),
    ]),
    'memory/archive/weekly-2026-W42.md': `# Weekly log 2026-W42\n\n## Run 2026-10-19T03:00:00Z\n\n- superseded: ${V1} (explicit supersedes in ${V2})\n`,
    'memory/archive/weekly-2026-W47.md': `# Weekly log 2026-W47\n\n## Run 2026-11-23T03:00:00Z\n\n- superseded: ${V2} (explicit supersedes in ${V3})\n- promoted: ${V3_2}\n`,
  });
  const before = files(ws);
  for (const from of [V1, V2, V3]) {
    const r = await mem(['-C', ws, '--json', 'trace', from]);
    assert.equal(r.code, 0, r.stderr);
    const tr = JSON.parse(r.stdout);
    assert.deepEqual(
      tr.chain.map((s: { id: string; status: string; date: string }) => [s.id, s.status, s.date]),
      [
        [V1, 'superseded', '2026-10-01'],
        [V2, 'superseded', '2026-10-15'],
        [V3, 'active', '2026-11-20'],
      ],
    );
    assert.equal(tr.current, V3);
    assert.deepEqual(
      tr.chain.map((s: { log: unknown[] }) => s.log),
      [
        [
          {
            file: 'memory/archive/weekly-2026-W42.md',
            line: 5,
            run: '2026-10-19T03:00:00Z',
            text: `superseded: ${V1} (explicit supersedes in ${V2})`,
          },
        ],
        [
          {
            file: 'memory/archive/weekly-2026-W42.md',
            line: 5,
            run: '2026-10-19T03:00:00Z',
            text: `superseded: ${V1} (explicit supersedes in ${V2})`,
          },
          {
            file: 'memory/archive/weekly-2026-W47.md',
            line: 5,
            run: '2026-11-23T03:00:00Z',
            text: `superseded: ${V2} (explicit supersedes in ${V3})`,
          },
        ],
        [
          {
            file: 'memory/archive/weekly-2026-W47.md',
            line: 5,
            run: '2026-11-23T03:00:00Z',
            text: `superseded: ${V2} (explicit supersedes in ${V3})`,
          },
        ],
      ],
    );
  }
  const human = await mem(['-C', ws, 'trace', V2]);
  assert.match(
    human.stdout,
    /^ {2}2026-10-01 {2}superseded {1}DECISION-20261001-cache-in-redis {2}memory\/archive\/2026-10-01\.md:3\n/,
  );
  assert.match(human.stdout, /\ncurrent: DECISION-20261120-cache-in-redis-again\n$/);
  const missing = await mem(['-C', ws, 'trace', 'NOTE-20990101-none']);
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /no entry with id NOTE-20990101-none/);
  assert.deepEqual(files(ws), before, 'trace writes nothing');
});

test('chainIds: a chain of 20,000 entries is ordered oldest first with no stack overflow; a hand-made cycle still ends', async () => {
  const { chainIds } = await import('../src/governance/trace.js');
  const rec = (i: number, sup?: string) => ({
    id: `N${i}`,
    entry: {
      kind: 'Note',
      title: '',
      fields: sup
        ? [
            { key: 'supersedes', value: sup },
            { key: 'date', value: '2026-11-20' },
          ]
        : [{ key: 'date', value: '2026-11-20' }],
    },
  });
  // Listed newest first, so only the depth puts them in order.
  const chain = Array.from({ length: 20_000 }, (_, i) => rec(19_999 - i, 19_999 - i ? `N${19_998 - i}` : undefined));
  const ids = chainIds(chain as never, 'N12345');
  assert.equal(ids.length, 20_000);
  assert.deepEqual([ids[0], ids[1], ids[19_999]], ['N0', 'N1', 'N19999']);
  const cycle = [rec(0, 'N2'), rec(1, 'N0'), rec(2, 'N1')];
  assert.deepEqual(chainIds(cycle as never, 'N1').sort(), ['N0', 'N1', 'N2']);
});

test('after a refresh, trace reads the chain links (links-NNN.json) and answers as the whole table does; a bucket of other files or a hand edit since sends it to the whole table', async (t) => {
  const { appendFileSync, readdirSync, readFileSync, rmSync, writeFileSync } = await import('node:fs');
  const { join } = await import('node:path');
  const { bucketOfText } = await import('../src/entries/heads-hash.js');
  const K = (n: number, scope: string) =>
    entry({
      kind: 'Preference',
      id: `PREF-2026110${n}-editor-${scope}`,
      title: `Editor ${n}`,
      date: `2026-11-0${n}`,
      fields: { key: 'pref:editor', scope: `project:${scope}` },
    });
  const ws = workspace(t, {
    'memory/2026-10-01.md': daily('2026-10-01', [
      entry({ id: V1, title: 'Cache in Redis', date: '2026-10-01', fields: { status: 'superseded' } }),
    ]),
    'memory/2026-10-15.md': daily('2026-10-15', [
      entry({ id: V2, title: 'Cache in process', date: '2026-10-15', fields: { supersedes: V1 } }),
    ]),
    // One key in two scopes: two chains, not one.
    'memory/2026-11-01.md': daily('2026-11-01', [K(1, 'a'), K(2, 'b'), K(3, 'a')]),
  });
  const trace = async (id: string) => {
    const r = await mem(['-C', ws, '--json', 'trace', id]);
    assert.equal(r.code, 0, r.stderr);
    return r.stdout;
  };
  const ids = [V1, V2, 'PREF-20261101-editor-a', 'PREF-20261102-editor-b', 'PREF-20261103-editor-a'];
  const whole = await Promise.all(ids.map(trace));
  assert.deepEqual(
    JSON.parse(whole[2]!).chain.map((s: { id: string }) => s.id),
    ['PREF-20261101-editor-a', 'PREF-20261103-editor-a'],
  );
  assert.equal((await mem(['-C', ws, 'index'])).code, 0);
  const heads = join(ws, '.mem', 'entries', 'heads');
  assert.ok(readdirSync(heads).includes('links.json'));
  assert.deepEqual(await Promise.all(ids.map(trace)), whole, 'the links answer as the whole table');
  // The links are what the trace reads: a forged "newer" in V1's bucket shows up in V1's chain.
  const file = join(heads, `links-${String(bucketOfText(V1, 256)).padStart(3, '0')}.json`);
  const real = readFileSync(file, 'utf8');
  const forged = JSON.parse(real);
  // Each linked id with its file (links-index.ts Held).
  forged.newer[V1] = [
    [V2, 'memory/2026-10-15.md'],
    ['PREF-20261102-editor-b', 'memory/2026-11-02.md'],
  ];
  writeFileSync(file, JSON.stringify(forged));
  assert.match(await trace(V1), /PREF-20261102-editor-b/);
  // A bucket of another generation than the meta names: the whole table answers.
  writeFileSync(file, JSON.stringify({ ...forged, digest: 'other' }));
  assert.equal(await trace(V1), whole[0]);
  // A bucket the list names gone, or the list gone: the whole table answers.
  rmSync(file);
  assert.equal(await trace(V1), whole[0]);
  writeFileSync(file, JSON.stringify(forged));
  rmSync(join(heads, 'links.json'));
  assert.equal(await trace(V1), whole[0]);
  // A hand edit after the refresh (a third version): seen at once.
  appendFileSync(
    join(ws, 'memory', '2026-10-15.md'),
    '\n' + entry({ id: V3, title: 'Cache in Redis again', date: '2026-10-15', fields: { supersedes: V2 } }),
  );
  assert.deepEqual(
    JSON.parse(await trace(V1)).chain.map((s: { id: string }) => s.id),
    [V1, V2, V3],
  );
});
