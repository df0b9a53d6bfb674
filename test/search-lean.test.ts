/**
 * The lean `mem search` entry (src/cli/entry.ts, fast-args.ts, search-command.ts, config/quick.ts,
 * config/zone.ts): it must answer exactly as the full commander CLI does — same stdout, stderr and
 * exit code, bad configurations and bad options included — while loading none of commander, zod,
 * luxon (nor remark, openai, chokidar, node-cron, or opencc-js for an English query).
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import fc from 'fast-check';
import pc from 'picocolors';
import { createColors } from '../src/terminal/colors.js';
import { DateTime, IANAZone } from 'luxon';
import { z } from 'zod';
import { CONFIG_KEYS, SECTION_KEYS } from '../src/config/files.js';
import { quickCheck, quickConfig } from '../src/config/quick.js';
import { CONFIG_SHAPE } from '../src/config/config-shape.js';
import { deriveShape } from '../src/config/shape-derive.js';
import { configSchema, KNOWN_KEYS } from '../src/config/schema.js';
import { dayIn, isValidZone } from '../src/core/zone.js';
import { leanIndexRoute, leanRoute } from '../src/cli/fast-args.js';
import { serverOff } from '../src/cli/search-command.js';
import { serverSwitch } from '../src/search/server/protocol.js';
import { mem, memOk, ROOT, tempDir } from './helpers/cli.js';
import { loadRecorder } from './helpers/loaded.js';
import { index, NOW, searchWorkspace } from './search-helpers.js';

const OFF = { MEM_SEARCH_SERVER: 'off' };

test('the zod-free config check accepts only what zod accepts, and gives the same value', () => {
  assert.deepEqual([...CONFIG_KEYS].sort(), [...KNOWN_KEYS].sort(), 'files.ts lists the schema keys');
  // ... and the keys of its sections (objects, and the items of `sources`).
  const inner = (s: z.ZodType): z.ZodType =>
    s instanceof z.ZodOptional || s instanceof z.ZodDefault
      ? inner(s.unwrap() as z.ZodType)
      : s instanceof z.ZodArray
        ? inner(s.element as z.ZodType)
        : s;
  const sections = Object.entries(configSchema.shape).flatMap(([k, v]) => {
    const s = inner(v as z.ZodType);
    return s instanceof z.ZodObject ? [[k, Object.keys(s.shape).sort()]] : [];
  });
  assert.deepEqual(
    Object.fromEntries(sections),
    Object.fromEntries(Object.entries(SECTION_KEYS).map(([k, v]) => [k, [...v].sort()])),
    "files.ts lists the sections' keys",
  );
  const same = (raw: Record<string, unknown>) => {
    const quick = quickConfig(raw);
    const zod = configSchema.safeParse(raw);
    if (quick === undefined) return;
    assert.ok(zod.success, `quick accepted what zod refuses: ${JSON.stringify(raw)}`);
    assert.deepEqual(quick, JSON.parse(JSON.stringify(zod.data)), JSON.stringify(raw));
  };
  // Configurations people have: the template, the fixtures, every option spelled out.
  const common: Record<string, unknown>[] = [
    {},
    JSON.parse(readFileSync(join(ROOT, 'templates', 'mem.config.json'), 'utf8')),
    JSON.parse(readFileSync(join(ROOT, 'test', 'fixtures', 'search', 'basic', 'mem.config.json'), 'utf8')),
    {
      format_version: 1,
      timezone: 'Asia/Shanghai',
      sources: [{ name: 'cc', kind: 'claude-code', path: '~/.claude/projects', exclude: ['x'] }],
      exclude: ['a/**'],
      extraPaths: ['notes'],
      llm: { baseURL: 'http://127.0.0.1:11434/v1', model: 'qwen', apiKeyEnv: 'KEY', maxRetries: 0 },
      embedding: { baseURL: 'https://api.example.com/v1', model: 'e', dimensions: 256, batchSize: 8 },
      search: { k: 10, chunkTokens: 300, overlapTokens: 40 },
      schedule: { wrapup: '0 3 * * *' },
      limits: { lockWaitMs: 0, lockUpdateMs: 500, jobTimeoutMs: { index: 60000 } },
      onFailure: 'notify-send',
      daemon: { index: false },
      git: { autoCommit: true },
      archive: { embed: true },
      someFutureKey: { kept: true },
    },
  ];
  for (const raw of common) {
    assert.ok(quickConfig(raw), `quick accepts ${JSON.stringify(raw).slice(0, 80)}`);
    same(raw);
  }
  // Hand-picked near misses: each is refused by zod, so quick must not accept it.
  for (const raw of [
    { format_version: 3 },
    { format_version: 0 },
    { scopes: { '': 'shop' } },
    { scopes: { '~/src/*': 'my shop' } },
    { scopes: { '~/src/*': '' } },
    { scopes: [] },
    { timezone: '' },
    { search: { k: 0 } },
    { search: { k: 51 } },
    { search: { k: 2.5 } },
    { search: null },
    { search: { chunkTokens: 49 } },
    { extraPaths: 'x' },
    { extraPaths: [1] },
    { sources: [{ name: 'a b', kind: 'jsonl', path: 'p' }] },
    { sources: [{ name: 'a', kind: 'nope', path: 'p' }] },
    { llm: { baseURL: 'ftp://x', model: 'm' } },
    { llm: { baseURL: 'http:x', model: 'm' } },
    { embedding: { baseURL: 'http://x', model: '' } },
    { limits: { lockStaleMs: 1999 } },
    { daemon: { index: 'yes' } },
    { git: { autoCommit: 1 } },
    { archive: { embed: 'yes' } },
    { archive: null },
    { schedule: { a: 1 } },
    { onFailure: '' },
    { limits: { jobTimeoutMs: { index: 0 } } },
    { limits: { jobTimeoutMs: { bogus: 5 } } },
    // Past what a timer holds (src/config/timer.ts).
    { limits: { jobTimeoutMs: { microsync: 2 ** 31 } } },
    { limits: { lockStaleMs: 2 ** 31 } },
    { daemon: { refreshMs: 2 ** 31 } },
    { daemon: { killGraceMs: 2 ** 31 } },
    { llm: { baseURL: 'http://x', model: 'm', timeoutMs: 2 ** 31 } },
  ] as Record<string, unknown>[]) {
    assert.equal(configSchema.safeParse(raw).success, false, JSON.stringify(raw));
    assert.equal(quickConfig(raw), undefined, JSON.stringify(raw));
  }
  // Generated configurations, valid and not: never accepted unless zod accepts the same value.
  // Mostly plausible values (so many configurations pass), sometimes anything at all.
  const scalar = fc.oneof(
    fc.integer(),
    fc.double(),
    fc.string(),
    fc.boolean(),
    fc.constant(null),
    fc.constant(2 ** 60),
  );
  const v = <T>(plausible: fc.Arbitrary<T>) =>
    fc.oneof({ weight: 6, arbitrary: plausible as fc.Arbitrary<unknown> }, { weight: 1, arbitrary: scalar });
  const num = v(fc.oneof(fc.integer({ min: 0, max: 70_000 }), fc.integer({ min: -2, max: 2 })));
  const url = v(
    fc.oneof(
      fc.constantFrom(
        'http://127.0.0.1:8080/v1',
        'https://x.y/v1',
        ' http://a.b',
        'http://a b',
        'http:/x',
        'file:///x',
        'https://',
        'http://[::1]:80',
        'HTTP://A.B',
        'http://a.b\t',
      ),
      fc.webUrl(),
    ),
  );
  const str = v(fc.oneof(fc.string({ minLength: 1 }), fc.constant('')));
  const gen = fc.record(
    {
      format_version: v(fc.constantFrom(1, 2)),
      timezone: v(fc.constantFrom('UTC', 'Europe/Berlin', '')),
      sources: v(
        fc.array(
          fc.record(
            {
              name: v(fc.constantFrom('cc', 'a.b-c_d', 'a b', '')),
              kind: v(fc.constantFrom('codex', 'jsonl', 'x')),
              path: str,
              exclude: v(fc.array(fc.string())),
            },
            { requiredKeys: ['name', 'kind', 'path'] },
          ),
          { maxLength: 2 },
        ),
      ),
      exclude: v(fc.array(fc.string(), { maxLength: 2 })),
      extraPaths: v(fc.array(v(fc.string()), { maxLength: 2 })),
      llm: v(
        fc.record(
          { baseURL: url, model: str, maxRetries: num, turnsPerCall: num, apiKeyEnv: str },
          { requiredKeys: ['baseURL', 'model'] },
        ),
      ),
      embedding: v(
        fc.record(
          { baseURL: url, model: str, dimensions: num, batchSize: num },
          { requiredKeys: ['baseURL', 'model'] },
        ),
      ),
      search: v(fc.record({ k: num, chunkTokens: num, overlapTokens: num, extra: scalar }, { requiredKeys: [] })),
      schedule: v(fc.dictionary(fc.string(), v(fc.string()), { maxKeys: 2 })),
      limits: v(
        fc.record(
          {
            lockWaitMs: num,
            lockStaleMs: num,
            lockUpdateMs: num,
            jobTimeoutMs: v(
              fc.dictionary(fc.oneof(fc.constantFrom('microsync', 'wrapup', 'compound', 'index'), fc.string()), num, {
                maxKeys: 2,
              }),
            ),
            jobLogBytes: num,
          },
          { requiredKeys: [] },
        ),
      ),
      onFailure: str,
      daemon: v(fc.record({ debounceMs: num, index: v(fc.boolean()), killGraceMs: num }, { requiredKeys: [] })),
      git: v(fc.record({ autoCommit: v(fc.boolean()) }, { requiredKeys: [] })),
      archive: v(fc.record({ embed: v(fc.boolean()) }, { requiredKeys: [] })),
      scopes: v(
        fc.dictionary(
          fc.constantFrom('~/src/*', '/srv/**', ''),
          v(fc.constantFrom('shop', 'project:shop', 'global', 'a b', 'x/y', '')),
          { maxKeys: 2 },
        ),
      ),
      other: scalar,
    },
    { requiredKeys: [] },
  );
  // A few keys at a time, so that many generated configurations are entirely valid.
  const few = fc
    .tuple(gen, fc.subarray([...KNOWN_KEYS, 'other'], { maxLength: 3 }))
    .map(([o, keep]) => Object.fromEntries(Object.entries(o).filter(([k]) => keep.includes(k))));
  let accepted = 0;
  fc.assert(
    fc.property(few, (generated) => {
      // A configuration is always JSON text: no NaN, no undefined.
      const raw = JSON.parse(JSON.stringify(generated)) as Record<string, unknown>;
      same(raw);
      if (quickConfig(raw)) accepted++;
    }),
    { numRuns: Number(process.env.MEM_FUZZ_RUNS ?? 3000) },
  );
  assert.ok(accepted > 100, `many generated configurations were plainly valid (${accepted})`);
});

test("the quick check's shape is derived from the zod schema: the generated file is up to date, and what zod does in code is left to zod", () => {
  assert.deepEqual(
    CONFIG_SHAPE,
    deriveShape(configSchema),
    'src/config/config-shape.ts is what the schema derives now (npm run build writes it)',
  );
  // A refinement, a transform, a format the check does not know: "unsure" there (zod decides), the default kept.
  const probe = deriveShape(
    z.object({
      refined: z
        .number()
        .refine((n) => n % 2 === 0)
        .default(2),
      piped: z.string().transform((t) => t.trim()),
      email: z.email(),
      url: z.url({ protocol: /^https?$/, normalize: true }),
      plain: z.number().int().min(0),
    }),
  );
  assert.ok(probe.t === 'object');
  assert.deepEqual(probe.props, {
    refined: { t: 'unsure', default: 2 },
    piped: { t: 'unsure' },
    email: { t: 'unsure' },
    url: { t: 'unsure' },
    plain: { t: 'integer', min: 0, max: Number.MAX_SAFE_INTEGER },
  });
  // ... and the quick check then answers "ask zod" for any value there, and uses the default when there is none.
  const part = deriveShape(
    z.object({
      refined: z
        .number()
        .refine((n) => n % 2 === 0)
        .default(2),
      plain: z.number().int(),
    }),
  );
  assert.deepEqual(quickCheck(part, { plain: 1 }), { refined: 2, plain: 1 });
  assert.equal(quickCheck(part, { refined: 4, plain: 1 }), undefined);
  assert.equal(quickConfig({ limits: { jobTimeoutMs: { index: 1000 } } })?.limits.jobTimeoutMs.index, 1000);
  assert.equal(quickConfig({ limits: { jobTimeoutMs: { bogus: 1000 } } }), undefined);
  assert.equal(
    configSchema.safeParse({ limits: { jobTimeoutMs: { bogus: 1000 } } }).error?.issues[0]?.message,
    'not a job with a time limit (allowed: microsync, wrapup, compound, index)',
  );
});

test('the ported colours are picocolors, byte for byte, on and off', () => {
  for (const on of [true, false]) {
    const ours = createColors(on) as unknown as Record<string, (s: unknown) => string>;
    const theirs = pc.createColors(on) as unknown as Record<string, (s: unknown) => string>;
    for (const k of Object.keys(ours).filter((x) => x !== 'isColorSupported')) {
      for (const text of ['x', '', 'a\x1b[22mb', 'q\x1b[39m\x1b[39mz', theirs.red!('in') + 'out', 42])
        assert.equal(ours[k]!(text), theirs[k]!(text), `${k} ${on}`);
    }
  }
});

test('time zones and today without luxon agree with luxon', () => {
  for (const z of [
    'UTC',
    'Etc/UTC',
    'utc',
    'Europe/Berlin',
    'Asia/Shanghai',
    'Asia/Kolkata',
    'Asia/Calcutta',
    'US/Pacific',
    'EST',
    'Etc/GMT+5',
    'America/St_Johns',
    'asia/shanghai',
    'Mars/Olympus',
    'Sport~~blorp',
    '',
    'GMT',
    'Z',
  ]) {
    assert.equal(isValidZone(z), IANAZone.isValidZone(z), z);
  }
  const instants = [
    '2026-11-22T12:00:00Z',
    '2026-03-29T00:59:59Z',
    '2026-12-31T23:30:00Z',
    '2026-01-01T00:10:00Z',
    '2024-02-29T15:00:00Z',
  ];
  for (const z of [
    'UTC',
    'Europe/Berlin',
    'Asia/Shanghai',
    'Asia/Kolkata',
    'Pacific/Kiritimati',
    'Pacific/Pago_Pago',
    'America/St_Johns',
    'US/Pacific',
    'EST',
  ]) {
    for (const at of instants)
      assert.equal(dayIn(z, new Date(at)), DateTime.fromISO(at).setZone(z).toISODate(), `${z} ${at}`);
  }
  const tz = process.env.TZ;
  dayIn('Asia/Shanghai');
  assert.equal(process.env.TZ, tz, 'TZ is restored');
});

test('the lean route takes a plain search and leaves everything else to commander', () => {
  const r = leanRoute(
    ['-C', 'ws', '--json', '--now', NOW, 'search', 'why', 'postgres', '-k', '3', '--deep', '--lexical-only', '-q'],
    {},
  );
  assert.deepEqual(r, {
    command: 'search',
    global: { workspace: 'ws', json: true, now: NOW, quiet: true },
    words: ['why', 'postgres'],
    flags: { k: '3', deep: true, lexicalOnly: true },
  });
  assert.deepEqual(leanRoute(['search', 'x', '--k=2', '-C', 'w', '--', '-k'], {})?.words, ['x', '-k']);
  for (const args of [
    ['search'],
    ['search', '--help'],
    ['search', 'x', '-h'],
    ['--version'],
    ['index'],
    ['status'],
    ['search', 'x', '--rebuild'],
    ['search', 'x', '--deep=1'],
    ['search', 'x', '-k'],
    ['search', 'x', '-k', '-1'],
    ['--', 'search', 'x'],
    ['-C'],
    ['x', 'search', 'y'],
    ['search', 'x', '--unknown'],
    [],
  ])
    assert.equal(leanRoute(args, {}), undefined, args.join(' '));
  assert.equal(leanRoute(['search', 'x'], { MEM_LEAN_CLI: '0' }), undefined, 'MEM_LEAN_CLI=0 turns it off');
  for (const v of [undefined, '', 'off', ' OFF ', '0', 'false', 'no', 'No', 'no-spawn', 'spawn', 'auto', 'on', '1']) {
    assert.equal(
      serverOff({ MEM_SEARCH_SERVER: v }),
      serverSwitch({ MEM_SEARCH_SERVER: v }) === 'off',
      `MEM_SEARCH_SERVER=${v}`,
    );
  }
});

test('lean and full CLI answer alike: results, notices, bad options and bad configurations', async (t) => {
  const ws = searchWorkspace(t);
  await index(ws);
  const cfg = join(ws, 'mem.config.json');
  const good = readFileSync(cfg, 'utf8');
  const both = async (args: string[], config?: string) => {
    writeFileSync(cfg, config ?? good);
    const lean = await mem(args, { env: OFF });
    const full = await mem(args, { env: { ...OFF, MEM_LEAN_CLI: '0' } });
    assert.deepEqual(
      { code: lean.code, stdout: lean.stdout, stderr: lean.stderr },
      { code: full.code, stdout: full.stdout, stderr: full.stderr },
      `mem ${args.join(' ')} with ${config ?? 'the good config'}`,
    );
    return lean;
  };
  const base = ['-C', ws, '--now', NOW];
  assert.equal((await both([...base, '--json', 'search', 'SQLite events', '--deep'])).code, 0);
  await both([...base, 'search', '为什么放弃 Redis 缓存', '-k', '3']);
  await both([...base, 'search', 'postgres', '--kind', 'decision', '--since', '2w', '--json']);
  await both(['-C', ws, 'search', 'postgres', '--until', '2026-11-01']);
  await both([...base, 'search', '!!!']);
  await both([...base, 'search', '  ']);
  await both([...base, 'search', 'x', '-k', '0']);
  await both([...base, 'search', 'x', '--since', 'yesterday-ish']);
  await both(['-C', ws, '--now', 'not-a-time', 'search', 'x', '-k', '0']);
  await both(['-C', join(ws, 'nope'), 'search', 'x']);
  for (const bad of [
    '{ nope',
    '[]',
    '{"timezone": "Mars/Olympus"}',
    '{"search": {"k": 0}}',
    '{"llm": {"baseURL": "ftp://x", "model": "m"}}',
    '{"format_version": 1, "futureKey": 1}',
    '{"timezone": "asia/shanghai"}',
  ]) {
    const r = await both([...base, '--json', 'search', 'SQLite'], bad);
    assert.doesNotMatch(r.stderr, /\n\s+at /, 'no stack trace');
  }
});

test('a lean lexical search loads no commander, zod, luxon, remark, openai, chokidar, node-cron (nor opencc-js for English)', async (t) => {
  const ws = searchWorkspace(t);
  await index(ws);
  const rec = loadRecorder(tempDir(t, 'memfold-lean-hook-'));
  const loaded = async (query: string) => {
    // No --now: parsing a moment is the one thing that loads luxon (by design).
    const r = await mem(['-C', ws, '--json', 'search', query], { env: { ...OFF, ...rec.env } });
    assert.equal(r.code, 0, r.stderr);
    assert.ok(JSON.parse(r.stdout).results.length > 0);
    return rec.take();
  };
  const english = await loaded('SQLite events');
  assert.match(english, /dist\/cli\/search\.cjs/, 'answered by the lean search bundle');
  assert.doesNotMatch(english, /node_modules\/minisearch\//, 'minisearch is bundled into it');
  assert.doesNotMatch(english, /dist\/cli\/entry\.js/, 'not by the ES-module CLI');
  for (const pkg of [
    'commander',
    'zod',
    'luxon',
    'remark',
    'unified',
    'openai',
    'chokidar',
    'node-cron',
    'opencc-js',
    'gray-matter',
    'picocolors',
  ]) {
    assert.doesNotMatch(english, new RegExp(`node_modules/${pkg}/`), `${pkg} loaded for an English query`);
  }
  // A query word that names another bundle's command is still a search.
  const named = await mem(['-C', ws, '--json', 'search', 'index'], { env: { ...OFF, ...rec.env } });
  assert.equal(named.code, 0, named.stderr);
  assert.match(rec.take(), /dist\/cli\/search\.cjs/, 'mem search index: the lean search bundle');
  const chinese = await loaded('為什麼放棄 Redis 緩存');
  assert.match(chinese, /node_modules\/opencc-js\//, 'Han text loads the converter');
  assert.doesNotMatch(chinese, /node_modules\/(commander|zod|luxon)\//);
});

test("bin/mem.cjs turns on Node's own compile cache where Node has it, and no bundle is compiled by hand", async (t) => {
  const dir = tempDir(t, 'memfold-compile-cache-');
  const marker = join(dir, 'called');
  // On a Node without module.enableCompileCache (20), the preload gives it one that records the call.
  writeFileSync(
    join(dir, 'preload.cjs'),
    `require('node:module').enableCompileCache = () => require('node:fs').writeFileSync(${JSON.stringify(marker)}, 'yes');\n`,
  );
  await memOk(['--version'], { env: { NODE_OPTIONS: `--require=${join(dir, 'preload.cjs')}` } });
  assert.equal(readFileSync(marker, 'utf8'), 'yes');
  for (const name of ['first', 'search', 'index', 'read', 'status']) {
    assert.doesNotMatch(
      readFileSync(join(ROOT, 'dist', 'cli', `${name}.cjs`), 'utf8'),
      /cachedData|process\.binding/,
      name,
    );
  }
});

test("the bundle that asks the server (dist/cli/first.cjs) prints with the cold path's code, and holds no tokenizer, Chinese folding, snippet or secret code; its output module is set up only once a reply is there", () => {
  const bundle = readFileSync(join(ROOT, 'dist', 'cli', 'first.cjs'), 'utf8');
  assert.match(bundle, /\/\/ src\/cli\/served\.ts/, 'the served search is in it');
  for (const printer of ['search/run/report', 'search/run/index-report', 'search/run/present', 'terminal/output'])
    assert.match(bundle, new RegExp(`// src/${printer}\\.ts`), printer);
  assert.doesNotMatch(
    bundle,
    /\/\/ src\/(search\/(text\/(tokenize|fold|cjk|snippet)|embed\/embed-[a-z-]+)|secrets\/[a-z-]+)\.ts/,
  );
  // The output module looks at stdout as it loads: loaded lazily, after the request went out (stdout is made while the server answers).
  assert.match(bundle, /var init_output = __esm\(/);
});

test('mem index loads no commander, zod or luxon (it needs no time), logs its run, and still refuses a bad --now (a usage error, not logged)', async (t) => {
  const ws = searchWorkspace(t);
  const rec = loadRecorder(tempDir(t, 'memfold-index-hook-'));
  const r = await mem(['-C', ws, '--json', 'index'], { env: { ...OFF, ...rec.env } });
  assert.equal(r.code, 0, r.stderr);
  const loaded = rec.take();
  assert.match(loaded, /dist\/cli\/index\.cjs/, 'answered by the index bundle');
  assert.match(loaded, /node_modules\/remark-parse\//, 'the recorder saw the chunker load');
  assert.doesNotMatch(loaded, /node_modules\/proper-lockfile\//, 'the lock library is bundled');
  assert.doesNotMatch(loaded, /node_modules\/(luxon|commander|zod)\//);
  assert.doesNotMatch(loaded, /dist\/cli\/entry\.js/, 'not the ES-module CLI');
  const runs = readFileSync(join(ws, '.mem', 'logs', 'jobs.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { job: string; outcome: string });
  assert.deepEqual(
    runs.at(-1) && [runs.at(-1)!.job, runs.at(-1)!.outcome],
    ['index', 'ok'],
    'the lean run leaves its job-log line',
  );
  const bad = await mem(['-C', ws, '--now', 'garbage', 'index'], { env: OFF });
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /^mem: --now "garbage" is not an ISO 8601 date or time/);
  // A usage error is no run (as on the full CLI path): the job log is as the good run left it.
  assert.equal(
    readFileSync(join(ws, '.mem', 'logs', 'jobs.jsonl'), 'utf8')
      .trim()
      .split('\n').length,
    runs.length,
    'a usage error leaves no job-log line',
  );
});

test('the lean index route takes only `mem index [--rebuild]` with global options', () => {
  assert.deepEqual(leanIndexRoute(['-C', 'ws', 'index', '--rebuild', '--json'], {}), {
    command: 'index',
    global: { workspace: 'ws', json: true },
    flags: { rebuild: true },
  });
  for (const args of [
    ['index', '--help'],
    ['index', 'x'],
    ['index', '--deep'],
    ['--', 'index'],
    ['search', 'x'],
    ['index', '-V'],
  ])
    assert.equal(leanIndexRoute(args, {}), undefined, args.join(' '));
  assert.equal(leanIndexRoute(['index'], { MEM_LEAN_CLI: '0' }), undefined);
});

test('bin/mem.js (ESM) runs the same CLI as bin/mem.cjs, the installed `mem`', async (t) => {
  const { spawnSync } = await import('node:child_process');
  const ws = searchWorkspace(t);
  await index(ws);
  const run = (bin: string, args: string[]) =>
    spawnSync(process.execPath, [join(ROOT, 'bin', bin), ...args], {
      encoding: 'utf8',
      env: { ...process.env, ...OFF },
    });
  for (const args of [
    ['--version'],
    ['-C', ws, '--json', '--now', NOW, 'search', 'postgres'],
    ['-C', ws, 'search', ''],
  ]) {
    const [a, b] = [run('mem.js', args), run('mem.cjs', args)];
    assert.deepEqual([a.status, a.stdout, a.stderr], [b.status, b.stdout, b.stderr], args.join(' '));
  }
  assert.equal(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).bin.mem, 'bin/mem.cjs');
});

test('a reader that stops early ends the output quietly: no EPIPE stack trace, exit 0', async () => {
  const { spawn } = await import('node:child_process');
  for (const args of [['search', '--help'], ['--help']]) {
    const child = spawn(process.execPath, [join(ROOT, 'bin', 'mem.cjs'), ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.stdout.destroy(); // closed before mem writes a byte: every write meets EPIPE
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    assert.equal(stderr, '', args.join(' '));
    assert.equal(code, 0, args.join(' '));
  }
});
