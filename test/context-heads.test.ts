/**
 * The entry table's in-force heads (src/entries/heads.ts): a pack selected from a scope's heads and
 * global's is the pack selected from every entry, for every scope, over entries with supersedes
 * chains, retractions, shared keys, done tasks, core weights, unconfirmed agent statements and
 * MEMORY.md citations of old versions; and `mem context` takes the pack `mem index` kept ready (no
 * tokenizer), else reads the heads, and `mem get` the id index, not the whole table, until a memory
 * file changes.
 */
import assert from 'node:assert/strict';
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { buildHeads, HEAD_DEPTH, headsFor } from '../src/entries/heads.js';
import type { EntryRecord } from '../src/entries/store.js';
import { TABLE_FIELDS, tableRecord, type Row } from '../src/entries/table.js';
import { LIMITS, selectLayers, type Layers } from '../src/pack/select.js';
import { redactSecrets } from '../src/secrets/secrets.js';
import { mem, memOk, tempDir } from './helpers/cli.js';
import { loadRecorder } from './helpers/loaded.js';
import { daily, entry, workspace } from './fixtures/governance/workspace.js';
import { rng } from './helpers/rng.js';

const KINDS = ['Rule', 'Preference', 'Task', 'Goal', 'Decision', 'Architecture', 'Lesson', 'Note'];
const PREFIX: Record<string, string> = {
  Rule: 'RULE',
  Preference: 'PREF',
  Task: 'TASK',
  Goal: 'GOAL',
  Decision: 'DECISION',
  Architecture: 'ARCH',
  Lesson: 'LESSON',
  Note: 'NOTE',
};
const SCOPES = ['global', 'project:shop', 'project:blog', 'project:api', ''];

function records(seed: number, n: number): EntryRecord[] {
  const r = rng(seed);
  const pick = <T>(xs: T[]) => xs[Math.floor(r() * xs.length)]!;
  const out: EntryRecord[] = [];
  for (let i = 0; i < n; i++) {
    const kind = pick(KINDS);
    const day = `2026-${String(1 + Math.floor(r() * 12)).padStart(2, '0')}-${String(1 + Math.floor(r() * 28)).padStart(2, '0')}`;
    const id = `${PREFIX[kind]}-${day.replaceAll('-', '')}-item-${i}`;
    const earlier = out.length ? out[Math.floor(r() * out.length)]!.id : null;
    const fields: Record<string, string | null> = {
      id,
      date: day,
      status: r() < 0.85 ? 'active' : pick(['superseded', 'retracted', 'forgotten']),
      supersedes: earlier && r() < 0.15 ? earlier : null,
      retracts: earlier && r() < 0.03 ? earlier : null,
      key: r() < 0.4 ? `${kind.toLowerCase()}:k${Math.floor(r() * 25)}` : null,
      scope: pick(SCOPES) || null,
      origin: r() < 0.2 ? 'agent' : null,
      confirmed: r() < 0.3 ? 'yes' : null,
      core: r() < 0.1 ? 'true' : null,
      weight: r() < 0.2 ? String(Math.floor(r() * 11)) : null,
      state: kind === 'Task' ? pick(['todo', 'doing', 'done', 'blocked']) : null,
      confidence: r() < 0.5 ? r().toFixed(2) : null,
    };
    const row = [kind, `Item ${i}`, 3 + 4 * i, 5 + 4 * i, ...TABLE_FIELDS.map((f) => fields[f] ?? null)] as Row;
    out.push(tableRecord(`memory/${day}.md`, row));
  }
  return out;
}

const ids = (l: Layers) => ({ core: l.core.map((r) => r.id), scope: l.scope.map((r) => r.id) });

test('the heads are deep enough for every group limit plus every core slot', () => {
  assert.ok(
    HEAD_DEPTH >=
      LIMITS.core + Math.max(LIMITS.rules, LIMITS.tasks, LIMITS.goals, LIMITS.decisions, LIMITS.lessons, LIMITS.notes),
  );
});

test('selecting from the heads gives the pack selecting from every entry gives, for every scope', () => {
  let compared = 0;
  for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) {
    // Enough entries that every scope's kinds overflow the heads (HEAD_DEPTH each).
    const all = records(seed, seed % 2 ? 5000 : 300);
    const cited = [all[3]!.id, all[10]!.id, all[42]!.id, 'RULE-20260101-gone'];
    const heads = buildHeads(all, cited);
    for (const scope of ['project:shop', 'project:blog', 'project:api', 'project:none', undefined]) {
      const expected = selectLayers(all, { scope, promoted: cited, hitIds: [] });
      const rows = ['global', ...(scope ? [scope] : [])].flatMap((k) => heads.scopes[k] ?? []);
      const sub = headsFor(rows, heads.cited, cited);
      assert.ok(sub, 'every cited id is in the heads');
      assert.ok(sub.records.length < all.length / 2 || all.length < 400, 'the heads are a fraction of the entries');
      assert.deepEqual(
        ids(selectLayers(sub.records, { scope, promoted: sub.promoted, hitIds: [] })),
        ids(expected),
        `seed ${seed}, scope ${scope}`,
      );
      compared += expected.core.length + expected.scope.length;
    }
    // MEMORY.md naming an id the heads were built without: they cannot answer.
    assert.equal(headsFor(heads.scopes.global ?? [], heads.cited, [...cited, all[7]!.id]), undefined);
  }
  assert.ok(compared > 500, `compared ${compared} selected entries`);
});

test('mem context chooses from the heads mem index wrote and mem get looks ids up in its id index, until a memory file changes', async (t) => {
  const D = '2026-11-20';
  const RULE = 'RULE-20261120-deploy-on-tuesdays';
  const ws = workspace(t, {
    [`memory/${D}.md`]: daily(D, [
      entry({
        id: RULE,
        title: 'Deploy on Tuesdays',
        date: D,
        fields: { conclusion: 'deploys happen on Tuesdays only', scope: 'project:shop' },
      }),
    ]),
  });
  const packIds = async () =>
    JSON.parse((await memOk(['-C', ws, 'context', '--scope', 'project:shop', '--json'])).stdout).items.map(
      (i: { id: string }) => i.id,
    );
  await memOk(['-C', ws, 'index']);
  const rec = loadRecorder(tempDir(t, 'memfold-ready-pack-'));
  const context = async () => {
    const r = await memOk(['-C', ws, 'context', '--scope', 'project:shop', '--json'], { env: rec.env });
    return {
      pack: JSON.parse(r.stdout) as { text: string; tokens: number; items: Array<{ id: string }> },
      loaded: rec.take(),
    };
  };
  // No pack was read here yet: none is kept ready, and the first is made from the heads with the tokenizer.
  const packs = join(ws, '.mem', 'entries', 'packs');
  assert.ok(!existsSync(packs), 'packs are kept only once a session start read one');
  assert.match((await context()).loaded, /node_modules\/gpt-tokenizer\//);
  // From then on, mem index keeps the pack ready: taken whole, counted without the tokenizer.
  await memOk(['-C', ws, 'index']);
  const ready = await context();
  assert.deepEqual(
    ready.pack.items.map((i) => i.id),
    [RULE],
  );
  assert.doesNotMatch(ready.loaded, /node_modules\/gpt-tokenizer\//, 'the ready pack needs no tokenizer');
  const tampered = readdirSync(packs).filter((f) => f.startsWith('s-'));
  for (const f of tampered)
    writeFileSync(
      join(packs, f),
      readFileSync(join(packs, f), 'utf8').replaceAll('Deploy on Tuesdays', 'Deploy on Fridays'),
    );
  assert.match((await context()).pack.text, /Deploy on Fridays/, 'the pack came from .mem/entries/packs');
  // At the default budget it is the pack fitted at the refresh; at another, fitted now from the same entries.
  for (const f of tampered)
    writeFileSync(
      join(packs, f),
      readFileSync(join(packs, f), 'utf8').replaceAll('# Memory (memfold)', '# Memory (fitted ahead)'),
    );
  assert.match((await context()).pack.text, /# Memory \(fitted ahead\)/);
  const other = JSON.parse(
    (await memOk(['-C', ws, 'context', '--scope', 'project:shop', '--json', '--budget', '3000'])).stdout,
  ) as { text: string };
  assert.match(other.text, /# Memory \(memfold\)[\s\S]*Deploy on Fridays/);
  // Without it, the same pack and the same count, from the heads and the tokenizer.
  rmSync(packs, { recursive: true });
  const counted = await context();
  assert.match(counted.loaded, /node_modules\/gpt-tokenizer\//);
  assert.deepEqual(counted.pack, ready.pack);
  // The heads name the rule's scope: moved to another project there, the pack no longer holds it.
  const dir = join(ws, '.mem', 'entries', 'heads');
  for (const f of readdirSync(dir))
    writeFileSync(join(dir, f), readFileSync(join(dir, f), 'utf8').replaceAll('"project:shop"', '"project:elsewhere"'));
  assert.deepEqual(await packIds(), [], 'the pack was chosen from the heads');
  // mem get finds the id's file through the id index: with the id renamed there, it finds nothing.
  assert.equal((await mem(['-C', ws, 'get', RULE])).code, 0);
  for (const f of readdirSync(dir))
    writeFileSync(join(dir, f), readFileSync(join(dir, f), 'utf8').replaceAll(`"${RULE}"`, '"RULE-20261120-renamed"'));
  assert.equal((await mem(['-C', ws, 'get', RULE])).code, 1, 'mem get looked the id up in the index');
  // A hand edit anywhere in memory/: neither describes it any more, and every entry is read.
  appendFileSync(join(ws, 'memory', `${D}.md`), '\n');
  assert.deepEqual(await packIds(), [RULE]);
  assert.match((await memOk(['-C', ws, 'get', RULE])).stdout, /## Rule: Deploy on Tuesdays/);
});

test('mem get of an exact id reads the files the id index names as they are now, without the rest of memory/', async (t) => {
  const A = '2026-11-20';
  const B = '2026-11-21';
  const RULE = 'RULE-20261120-deploy-on-tuesdays';
  const rule = (title: string, date: string) =>
    entry({ id: RULE, title, date, fields: { conclusion: 'deploys happen on Tuesdays only', scope: 'project:shop' } });
  const ws = workspace(t, {
    [`memory/${A}.md`]: daily(A, [rule('Deploy on Tuesdays', A)]),
    [`memory/${B}.md`]: daily(B, []),
  });
  await memOk(['-C', ws, 'index']);
  // A hand edit of the named file is read as it is now.
  const fileA = join(ws, 'memory', `${A}.md`);
  writeFileSync(
    fileA,
    readFileSync(fileA, 'utf8').replace('## Rule: Deploy on Tuesdays', '## Rule: Deploy on Tuesdays only'),
  );
  const got = await memOk(['-C', ws, 'get', RULE]);
  assert.match(got.stdout, /## Rule: Deploy on Tuesdays only/);
  // The same id added by hand to a file the index does not name for it: not read (lint reports it), no warning.
  appendFileSync(join(ws, 'memory', `${B}.md`), `\n${rule('Deploy on Wednesdays', B)}`);
  const quick = await memOk(['-C', ws, 'get', RULE]);
  assert.doesNotMatch(quick.stderr, /share id/);
  // A typed prefix reads every file, and sees both.
  const typed = await memOk(['-C', ws, 'get', RULE.toLowerCase()]);
  assert.match(typed.stderr, /2 entries share id/);
  // Moved out of the file the index names: every file is read.
  writeFileSync(fileA, daily(A, []));
  assert.match((await memOk(['-C', ws, 'get', RULE])).stdout, /## Rule: Deploy on Wednesdays/);
});

test('a refresh after a hand edit keeps the ready pack current: the edited entry re-read, the others kept, no tokenizer at the read', async (t) => {
  const D = '2026-11-20';
  const E = '2026-11-21';
  // A scope named like a token (written by hand): the heads hold it, but the secret gate does not pass its name.
  const TOKEN = 'ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8';
  const ws = workspace(t, {
    [`memory/${D}.md`]: daily(D, [
      entry({
        id: 'RULE-20261120-deploy-on-tuesdays',
        title: 'Deploy on Tuesdays',
        date: D,
        fields: { conclusion: 'deploys happen on Tuesdays only', scope: 'project:shop' },
      }),
    ]),
    [`memory/${E}.md`]: daily(E, [
      entry({
        id: 'RULE-20261121-review-every-change',
        title: 'Review every change',
        date: E,
        fields: { conclusion: 'two approvals', scope: 'project:shop' },
      }),
      entry({
        id: 'RULE-20261121-token-scoped',
        title: 'Token scoped',
        date: E,
        fields: { conclusion: 'a scope by hand', scope: `project:${TOKEN}` },
      }),
    ]),
  });
  await memOk(['-C', ws, 'index']);
  // A session start read a pack: refreshes keep it ready from now on.
  await memOk(['-C', ws, 'context', '--scope', 'project:shop']);
  await memOk(['-C', ws, 'index', '--rebuild']);
  assert.match(readFileSync(join(ws, '.mem', 'entries', 'packs', 'records.json'), 'utf8'), /Deploy on Tuesdays/);
  const file = join(ws, 'memory', `${D}.md`);
  writeFileSync(
    file,
    readFileSync(file, 'utf8').replace('## Rule: Deploy on Tuesdays', '## Rule: Deploy on Thursdays'),
  );
  await memOk(['-C', ws, 'index']);
  const kept = readFileSync(join(ws, '.mem', 'entries', 'packs', 'records.json'), 'utf8');
  assert.match(kept, /Deploy on Thursdays/);
  assert.doesNotMatch(kept, /Deploy on Tuesdays/);
  const rec = loadRecorder(tempDir(t, 'memfold-ready-edit-'));
  const r = await memOk(['-C', ws, 'context', '--scope', 'project:shop'], { env: rec.env });
  assert.match(r.stdout, /Deploy on Thursdays/);
  assert.match(r.stdout, /Review every change/);
  assert.doesNotMatch(rec.take(), /node_modules\/gpt-tokenizer\//);
  // The names a folder may take its scope by without the secret scan: only those the gate leaves whole.
  const meta = JSON.parse(readFileSync(join(ws, '.mem', 'entries', 'heads', 'meta.json'), 'utf8')) as {
    scopes: string[];
    passed: string[];
  };
  assert.ok(meta.passed.includes('shop'));
  assert.ok(
    meta.scopes.some((s) => s.startsWith('project:ghp_')),
    'the heads hold the token-named scope',
  );
  assert.ok(
    meta.passed.every((n) => redactSecrets(n).text === n && !n.startsWith('ghp_')),
    `passed: ${meta.passed.join(', ')}`,
  );
  // Run in a folder named like the token, the scope is the gate's: the token never shows.
  const folder = join(tempDir(t, 'memfold-token-folder-'), TOKEN);
  mkdirSync(folder);
  const there = JSON.parse((await memOk(['-C', ws, 'context', '--json'], { cwd: folder })).stdout) as {
    scope: string;
    items: unknown[];
  };
  assert.doesNotMatch(there.scope, /A1b2C3/i);
  assert.match(there.scope, /^project:.*REDACTED/i);
});
