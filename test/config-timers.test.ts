/**
 * Millisecond settings that end in a Node timer are bounded by 2^31-1 (src/config/timer.ts): past it
 * Node fires after 1 ms, so a 35-day job time limit killed every run at once and a long refresh
 * period indexed back to back. Such a setting is a config error naming its key (exit 4), on the
 * commander path and the lean one alike; `mem watch --debounce` is checked the same way (exit 2).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { editConfig, exampleWorkspace, mem } from './helpers/cli.js';

const TOO_LONG = 3_000_000_000;
const SETTINGS: Array<[string, (cfg: Record<string, any>, ms: number) => void]> = [
  ['limits.jobTimeoutMs.microsync', (c, ms) => (c.limits = { jobTimeoutMs: { microsync: ms } })],
  ['limits.lockWaitMs', (c, ms) => (c.limits = { lockWaitMs: ms })],
  ['limits.lockStaleMs', (c, ms) => (c.limits = { lockStaleMs: ms })],
  ['limits.lockUpdateMs', (c, ms) => (c.limits = { lockUpdateMs: ms })],
  ['daemon.debounceMs', (c, ms) => (c.daemon = { debounceMs: ms })],
  ['daemon.refreshMs', (c, ms) => (c.daemon = { refreshMs: ms })],
  ['daemon.killGraceMs', (c, ms) => (c.daemon = { killGraceMs: ms })],
  ['llm.timeoutMs', (c, ms) => (c.llm = { baseURL: 'http://127.0.0.1:9/v1', model: 'm', timeoutMs: ms })],
];

test('a timer setting past 2^31-1 ms is a config error naming the key (exit 4); 2^31-1 itself is accepted', async (t) => {
  await Promise.all(
    SETTINGS.map(async ([key, set]) => {
      const { ws } = exampleWorkspace(t);
      editConfig(ws, (cfg) => set(cfg, TOO_LONG));
      const expected = new RegExp(`^mem: mem\\.config\\.json: ${key.replace(/\./g, '\\.')}: at most 2147483647 ms`);
      for (const args of [['config'], ['index'], ['daemon']]) {
        const r = await mem(['-C', ws, ...args]);
        assert.equal(r.code, 4, `${key} ${args[0]}: ${r.stderr}`);
        assert.match(r.stderr, expected, `${key} ${args[0]}`);
      }
      editConfig(ws, (cfg) => set(cfg, 2 ** 31 - 1));
      const ok = await mem(['-C', ws, 'config']);
      assert.equal(ok.code, 0, `${key}: ${ok.stderr}`);
    }),
  );
});

test('mem watch --debounce: empty, not digits or past 2^31-1 ms is a usage error (exit 2), from the flag or the environment', async (t) => {
  const { ws } = exampleWorkspace(t);
  const cases: Array<[string[], Record<string, string>, string]> = [
    [['--debounce', ''], {}, ''],
    [['--debounce', String(TOO_LONG)], {}, String(TOO_LONG)],
    [['--debounce', '-5'], {}, '-5'],
    [[], { MEM_WATCH_DEBOUNCE_MS: String(TOO_LONG) }, String(TOO_LONG)],
  ];
  for (const [flags, env, shown] of cases) {
    const r = await mem(['-C', ws, 'watch', ...flags], { env, timeoutMs: 20_000 });
    assert.equal(r.code, 2, `${flags.join(' ')} ${JSON.stringify(env)}: ${r.stderr}`);
    assert.equal(
      r.stderr,
      `mem: --debounce must be a whole number of milliseconds, at most 2147483647 ms (about 24.8 days: longer does not fit a timer) (got "${shown}")\n`,
    );
  }
});
