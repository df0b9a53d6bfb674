/**
 * A plain `mem context`, and a SessionStart hook, answered by the resident search server
 * (cli/served-context.ts, the pack built by context/run.ts plugged in by cli/search-server.ts): the
 * same bytes and exit code as a cold run for every form (text, JSON, a scope, a budget, -v, a bad
 * budget left to the cold path), a hand edit of a daily file seen by the next served pack, the
 * server counting each pack it answered; and a context with no server running starting one.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { BIN, childEnv, mem, tempDir } from './helpers/cli.js';
import { killAfter, startServer, status, waitFor } from './helpers/search-server.js';
import { daily, entry, workspace } from './fixtures/governance/workspace.js';

const rule = (id: string, title: string, scope: string) =>
  entry({ id, title, date: '2026-11-20', fields: { conclusion: title, scope, origin: 'user' } });

test('a running server answers mem context and the SessionStart hook with the bytes of a cold run, hand edits included', async (t) => {
  const ws = workspace(t, {
    'memory/2026-11-20.md': daily('2026-11-20', [
      rule('RULE-20261120-deploys-happen-on-tuesdays-only', 'Deploys happen on Tuesdays only', 'project:shop'),
      rule('RULE-20261120-answer-in-british-english', 'Answer in British English', 'global'),
      rule(
        'RULE-20261120-billing-keeps-invoices-for-ten-years',
        'Billing keeps invoices for ten years',
        'project:billing',
      ),
    ]),
  });
  const shop = join(tempDir(t), 'shop');
  mkdirSync(shop);
  assert.equal((await mem(['-C', ws, 'index'])).code, 0);
  const { child } = startServer(ws);
  killAfter(t, child);
  const up = await waitFor('the server', async () => (await status(ws)) ?? false, 60_000, 200);
  const run = (argv: string[], server: string) =>
    mem(['-C', ws, ...argv], { cwd: shop, env: { MEM_SEARCH_SERVER: server, MEM_NOW: undefined } });
  const cases = [
    ['context'],
    ['--json', 'context'],
    ['context', '--scope', 'project:billing', '--format', 'json'],
    ['context', '--budget', '300'],
    ['-v', 'context'],
  ];
  const same = async (argv: string[]) => {
    const served = await run(argv, 'no-spawn');
    const cold = await run(argv, 'off');
    assert.equal(served.code, cold.code, argv.join(' '));
    assert.equal(served.stdout, cold.stdout, argv.join(' '));
    assert.equal(served.stderr, cold.stderr, argv.join(' '));
    return served;
  };
  for (const argv of cases) assert.equal((await same(argv)).code, 0);
  const pack = (await same(['context'])).stdout;
  assert.match(pack, /Deploys happen on Tuesdays only/);
  assert.doesNotMatch(pack, /ten years/, "another project's rule stays out");
  // A bad budget: the server leaves it to the client, whose cold run says why.
  assert.equal((await same(['context', '--budget', '10'])).code, 2);
  let s = (await status(ws))!;
  assert.equal(s.served - up.served, cases.length + 1, 'the server built every plain pack');

  // A hand edit, with no index run since: the next served pack holds it.
  appendFileSync(
    join(ws, 'memory', '2026-11-20.md'),
    '\n' + rule('RULE-20261120-every-pr-needs-a-changelog-line', 'Every PR needs a changelog line', 'project:shop'),
  );
  assert.match((await same(['context'])).stdout, /Every PR needs a changelog line/);

  // Claude Code's SessionStart hook, its JSON on stdin.
  const input = JSON.stringify({ hook_event_name: 'SessionStart', source: 'startup', cwd: shop });
  const hook = (server: string) =>
    spawnSync(process.execPath, [BIN, '-C', ws, 'context', '--hook', 'claude'], {
      cwd: shop,
      input,
      encoding: 'utf8',
      env: childEnv({ MEM_SEARCH_SERVER: server }),
    });
  const before = (await status(ws))!.served;
  const served = hook('no-spawn');
  const cold = hook('off');
  assert.equal(served.status, 0, served.stderr);
  assert.equal(served.stdout, cold.stdout);
  assert.match(served.stdout, /Every PR needs a changelog line/);
  s = (await status(ws))!;
  assert.equal(s.served - before, 1, 'the hook asked the server');
  assert.equal(s.cold - up.cold, 1, 'only the bad budget was left to the client');
});

test('mem context with no server running starts one (MEM_SEARCH_SERVER=spawn), which answers the next pack', async (t) => {
  const ws = workspace(t, {
    'memory/2026-11-20.md': daily('2026-11-20', [
      rule('RULE-20261120-answer-in-british-english', 'Answer in British English', 'global'),
    ]),
  });
  assert.equal((await mem(['-C', ws, 'index'])).code, 0);
  const first = await mem(['-C', ws, 'context'], { env: { MEM_SEARCH_SERVER: 'spawn' } });
  assert.equal(first.code, 0, first.stderr);
  const up = await waitFor('the server it started', async () => (await status(ws)) ?? false, 60_000, 200);
  t.after(() => {
    try {
      process.kill(up.pid, 'SIGKILL');
    } catch {
      // gone already
    }
  });
  const next = await mem(['-C', ws, 'context'], { env: { MEM_SEARCH_SERVER: 'no-spawn' } });
  assert.equal(next.stdout, first.stdout);
  assert.equal((await status(ws))!.served - up.served, 1, 'the next pack was served');
});
