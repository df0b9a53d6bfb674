/**
 * Smoke test of `npm run eval:extract` (scripts/eval-extract.mjs) on a few exchanges of the labelled
 * set: it runs the built CLI end to end and prints a table of the documented shape; and its scoring is
 * right, checked by replacing memory/ with planted entries and re-scoring (`--rescore`): a decoy or a
 * secret anywhere in memory/ counts as landed, an entry needs kind, scope and the required words to
 * match, a revision counts as linked only when its `supersedes` names the entry it revises.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { childEnv, ROOT, tempDir } from './helpers/cli.js';

const run = promisify(execFile);
const SCRIPT = join(ROOT, 'scripts', 'eval-extract.mjs');

interface Gold {
  gid: string;
  kind: string;
  lang: string;
  scope: string;
  words: string[];
  supersedes?: string;
  retracts?: string;
  optional?: boolean;
  state?: string;
}
interface Exchange {
  id: string;
  file: string;
  format: string;
  gold: Gold[];
  forbid: Array<{ text: string; kind: string; lang: string }>;
  secrets: Array<{ text: string }>;
}

const dev: Exchange[] = readFileSync(join(ROOT, 'fixtures', 'extraction', 'dev', 'gold.jsonl'), 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((l) => JSON.parse(l) as Exchange);

async function evalExtract(args: string[]): Promise<{ stdout: string; stderr: string }> {
  return run(process.execPath, [SCRIPT, ...args], {
    cwd: ROOT,
    env: childEnv({ MEM_EVAL_LLM_BASE_URL: undefined, MEM_EVAL_LLM_MODEL: undefined }),
    maxBuffer: 16 * 1024 * 1024,
    timeout: 60_000,
  });
}

test('eval:extract scores a few exchanges end to end and its scoring counts what is planted', async (t) => {
  // The first revision, the first decoy and the first secret of the dev split, and everything before them.
  const revision = dev.findIndex((x) =>
    x.gold.some((g) => g.supersedes && !g.optional && !x.gold.find((o) => o.gid === g.supersedes)?.optional),
  );
  const decoy = dev.findIndex((x) => x.forbid.length > 0);
  const secret = dev.findIndex((x) => x.secrets.length > 0);
  const limit = Math.max(revision, decoy, secret) + 1;
  const dir = tempDir(t, 'memfold-eval-test-');

  const first = await evalExtract(['--split', 'dev', '--limit', String(limit), '--json', '--workspace', dir]);
  const report = JSON.parse(first.stdout) as { mode: string; reports: Array<Record<string, any>> };
  assert.match(report.mode, /offline/);
  assert.equal(report.reports.length, 1);
  const [r] = report.reports as [Record<string, any>];
  assert.equal(r.split, 'dev');
  assert.equal(r.exchanges, limit);
  const required = dev.slice(0, limit).flatMap((x) => x.gold.filter((g) => !g.optional));
  assert.equal(r.overall.counts.gold, required.length, 'every required gold entry of the exchanges is counted');
  for (const key of ['precision', 'recall', 'updates', 'keys']) assert.ok(key in r.overall, key);
  assert.deepEqual(Object.keys(r.format).sort(), [...new Set(dev.slice(0, limit).map((x) => x.format))].sort());

  // Replace what microsync wrote with planted entries whose score is known.
  const memory = join(dir, 'dev', 'ws', 'memory');
  for (const name of readdirSync(memory)) if (name.endsWith('.md')) rmSync(join(memory, name));
  const tr = join(dir, 'dev', 'tr');
  const rev = dev[revision] as Exchange;
  const b = rev.gold.find((g) => g.supersedes && !g.optional) as Gold;
  const a = rev.gold.find((g) => g.gid === b.supersedes) as Gold;
  const entry = (kind: string, title: string, x: Exchange, fields: Record<string, string>) =>
    [
      `## ${kind}: ${title}`,
      `- id: ${fields.id}`,
      '- date: 2026-11-20',
      '- source:',
      '  - session_id: s',
      `  - session_path: ${join(tr, x.file)}`,
      '  - message_range: 1-1',
      `- conclusion: ${title}`,
      ...Object.entries(fields)
        .filter(([k]) => k !== 'id')
        .map(([k, v]) => `- ${k}: ${v}`),
      '- status: active',
      '',
    ].join('\n');
  const decoyText = (dev[decoy] as Exchange).forbid[0]!.text;
  const secretText = (dev[secret] as Exchange).secrets[0]!.text;
  writeFileSync(
    join(memory, '2026-11-20.md'),
    [
      '# 2026-11-20',
      '',
      entry(a.kind, a.words.join(' '), rev, { id: 'PLANT-A', scope: a.scope, ...(a.state && { state: a.state }) }),
      entry(b.kind, b.words.join(' '), rev, {
        id: 'PLANT-B',
        scope: b.scope,
        supersedes: 'PLANT-A',
        ...(b.state && { state: b.state }),
      }),
      entry(b.kind, b.words.join(' '), rev, { id: 'PLANT-WRONG-SCOPE', scope: 'project:somewhere-else' }),
      entry('Decision', decoyText, dev[decoy] as Exchange, { id: 'PLANT-DECOY', scope: 'project:planted' }),
      entry('Note', `token ${secretText}`, dev[secret] as Exchange, { id: 'PLANT-SECRET', scope: 'project:planted' }),
    ].join('\n'),
  );

  const again = JSON.parse(
    (await evalExtract(['--split', 'dev', '--limit', String(limit), '--json', '--workspace', dir, '--rescore'])).stdout,
  ) as { reports: Array<Record<string, any>> };
  const o = (again.reports[0] as Record<string, any>).overall;
  assert.equal(o.counts.landed, 5);
  assert.equal(
    o.counts.correct,
    2,
    'the revised entry and its revision match; the wrong scope, the decoy and the secret do not',
  );
  assert.equal(o.counts.found, 2);
  assert.equal(o.precision, 2 / 5);
  assert.equal(o.counts.decoysLanded, 1, 'the planted decoy counts as a decoy landed');
  assert.equal(o.counts.secretsLanded, 1, 'the planted secret counts as a secret landed');
  assert.equal(o.counts.linked, 1, 'the revision names the entry it revises');
  assert.equal(o.counts.foundAnyScope, 2);

  const table = (await evalExtract(['--split', 'dev', '--limit', String(limit), '--workspace', dir, '--rescore']))
    .stdout;
  assert.match(
    table,
    /^\| +\| precision \| recall \| recall any scope \| +updates \| decoys \| secrets \| keys \| found\/gold \| correct\/landed \|$/m,
  );
  assert.match(table, /^\| overall +\| +0\.40 \|/m);
  for (const row of ['kind Decision', 'lang en', `format ${rev.format}`])
    assert.match(table, new RegExp(`^\\| ${row} +\\|`, 'm'), row);

  await assert.rejects(
    evalExtract(['--split', 'dev', '--limit', String(limit), '--workspace', dir, '--rescore', '--gate']),
    (err: { code?: number; stderr?: string }) => {
      assert.equal(err.code, 1, 'below the bar: --gate fails');
      assert.match(err.stderr ?? '', /^eval-extract: below the bar: dev: precision 0\.40 < 0\.95$/m);
      assert.match(err.stderr ?? '', /^eval-extract: below the bar: dev: 1 decoys landed$/m);
      return true;
    },
  );
});

test('eval:extract refuses bad options with one line and exit code 2', async () => {
  await assert.rejects(evalExtract(['--split', 'prod']), (err: { code?: number; stderr?: string }) => {
    assert.equal(err.code, 2);
    assert.equal(err.stderr?.trim(), 'eval-extract: --split must be dev, heldout or all, not "prod"');
    return true;
  });
});

test('eval:extract --llm without a model checks the wiring against a 127.0.0.1 stub and says so', async () => {
  const { stdout } = await evalExtract(['--split', 'dev', '--limit', '5', '--llm']);
  assert.match(stdout, /WIRING CHECK ONLY/);
  const requests = Number(
    /wiring: (\d+) chat requests reached the stub, 0 malformed, 0 carried a secret/.exec(stdout)?.[1],
  );
  assert.ok(requests > 0, stdout);
});

test('the labelled set is what its specs generate, ≥ 300 exchanges, ≥ 10 positives and 10 decoys in every cell, a third held out', async () => {
  const verify = await run(process.execPath, [join(ROOT, 'fixtures', 'extraction', 'build.mjs'), '--verify'], {
    cwd: ROOT,
    env: childEnv(),
  });
  assert.match(verify.stdout, /^ok: \d+ exchanges on disk are what the specs generate$/m);
  const heldout: Exchange[] = readFileSync(join(ROOT, 'fixtures', 'extraction', 'heldout', 'gold.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Exchange);
  const all = [...dev, ...heldout];
  assert.ok(all.length >= 300, `${all.length} exchanges`);
  const share = heldout.length / all.length;
  // Issue 27: a third held out. The dev-only batches (spec/issue27.mjs, spec/everyday.mjs) grew dev alone;
  // the fresh batch (spec/fresh.mjs, three in four held out) brought the share back to a third.
  assert.ok(heldout.length >= 500 && share >= 1 / 3 && share < 0.4, `held-out ${heldout.length}, share ${share}`);
  const cells = new Map<string, { pos: number; dec: number }>();
  const bump = (key: string, field: 'pos' | 'dec') => {
    const c = cells.get(key) ?? { pos: 0, dec: 0 };
    c[field] += 1;
    cells.set(key, c);
  };
  for (const x of all) {
    for (const g of x.gold) if (!g.optional) [`${g.kind} × ${g.lang}`, x.format].forEach((k) => bump(k, 'pos'));
    for (const f of x.forbid) [`${f.kind} × ${f.lang}`, x.format].forEach((k) => bump(k, 'dec'));
  }
  const kinds = ['Decision', 'Rule', 'Architecture', 'Note', 'Preference', 'Goal', 'Task', 'Lesson'];
  const expected = [
    ...kinds.flatMap((k) => ['en', 'zh-Hans', 'zh-Hant', 'mixed'].map((l) => `${k} × ${l}`)),
    'claude-code',
    'codex',
    'openclaw',
    'jsonl',
    'markdown',
  ];
  for (const key of expected) {
    const c = cells.get(key);
    assert.ok(c && c.pos >= 10 && c.dec >= 10, `${key}: ${JSON.stringify(c)}`);
  }
});

test('the scoring: strict on kind, scope, state and links, lenient on wording, one landed entry per gold entry', async () => {
  type Landed = { kind: string; title: string; fields: Record<string, string>; source: Record<string, string> };
  const { score } = (await import(pathToFileURL(join(ROOT, 'scripts', 'eval', 'score.mjs')).href)) as {
    score: (
      x: unknown[],
      by: Map<string, Landed[]>,
      un: Landed[],
      text: string,
    ) => { overall: Record<string, number>; badLinks: unknown[] };
  };
  const g = (gid: string, kind: string, words: string[], extra: Record<string, unknown> = {}) => ({
    gid,
    kind,
    lang: 'en',
    scope: 'project:p',
    words,
    ...extra,
  });
  const l = (id: string, kind: string, title: string, fields: Record<string, string> = {}): Landed => ({
    kind,
    title,
    fields: { id, scope: 'project:p', ...fields },
    source: {},
  });
  const x = {
    id: 'x',
    format: 'jsonl',
    forbid: [],
    secrets: [],
    gold: [
      g('x#1', 'Decision', ['SQLite'], { exclude: ['Postgres'] }),
      g('x#2', 'Decision', ['Postgres'], { supersedes: 'x#1' }),
      g('x#3', 'Task', ['login'], { state: 'done' }),
      g('x#4', 'Rule', ['signed tag']),
      g('x#5', 'Rule', [], { retracts: 'x#4' }),
      g('x#6', 'Note', ['繁體'], { optional: true }),
    ],
  };
  const landed = [
    l('D2', 'Decision', 'Use  postgres instead of SQLite', { supersedes: 'D1' }), // could match #1 by words but #1 excludes Postgres
    l('D1', 'Decision', 'Store todos in SQLITE'),
    l('T1', 'Task', 'Login page', { state: 'todo' }), // wrong state: no match
    l('R1', 'Rule', 'Every release gets a signed tag'),
    l('R2', 'Note', 'Retract the signed tag rule', { retracts: 'R1' }), // a retraction matches by its link, any kind
    l('N1', 'Note', '简体 only'), // optional gold wants 繁體 as written: no match, an extra
    l('S1', 'Decision', 'Store todos in SQLite', { scope: 'project:other' }), // wrong scope: an extra
  ];
  const r = score([x], new Map([['x', landed]]), [], '');
  assert.deepEqual(
    {
      gold: r.overall.gold,
      found: r.overall.found,
      landed: r.overall.landed,
      correct: r.overall.correct,
      links: r.overall.links,
      linked: r.overall.linked,
    },
    { gold: 5, found: 4, landed: 7, correct: 4, links: 2, linked: 2 },
  );
  const unlinked = score(
    [x],
    new Map([
      ['x', landed.map((e) => (e.fields.id === 'D2' ? { ...e, fields: { ...e.fields, supersedes: 'S1' } } : e))],
    ]),
    [],
    '',
  );
  assert.equal(unlinked.overall.linked, 1, 'a revision linked to another entry than the one it revises is wrong');

  const secret = {
    id: 's',
    format: 'jsonl',
    gold: [],
    forbid: [],
    secrets: [{ text: 'ghp_Q7vK2mX9pL4rT8wZ1nB5cD3fG6hJ0kY2sA4e', kind: 'Note', lang: 'en' }],
  };
  const leaked = (memoryText: string) => score([secret], new Map(), [], memoryText).overall.secretsLanded;
  assert.equal(leaked('- id: NOTE-20261120-token-ghp-q7vk2mx9pl4rt8wz1nb5'), 1, 'slugged into an id');
  assert.equal(leaked('- conclusion: the token ghp_Q7vK2mX9pL4… expired'), 1, 'cut short');
  assert.equal(leaked('- conclusion: the token [REDACTED:github-pat] expired'), 0, 'redacted');
});
