/**
 * `mem context --hook claude|codex`, run as Claude Code and Codex run a command hook: the built CLI as a
 * child, its hook JSON on stdin, its working folder the session's. SessionStart prints the pack for the
 * session's folder; UserPromptSubmit only the hits for the prompt, nothing when nothing matches; any
 * failure is one stderr line and exit 0. The hook commands of docs/agents.md run through a shell with
 * `mem` on PATH, exactly as written there.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { describe, test } from 'node:test';
import { BIN, childEnv, ROOT, tempDir, type RunResult } from './helpers/cli.js';
import { daily, entry, workspace } from './fixtures/governance/workspace.js';

const NOW = '2026-11-22T10:00:00Z';
const SHOP_RULE = 'RULE-20261120-deploys-happen-on-tuesdays-only';
const OTHER_DECISION = 'DECISION-20261120-postgresql-stores-the-events';
const GLOBAL_RULE = 'RULE-20261119-answer-in-british-english';

/** Runs `argv` (the CLI, or a shell) with `input` on stdin, as a host runs a hook. */
function hook(
  argv: string[],
  input: string | Buffer,
  opts: { cwd: string; env?: Record<string, string | undefined> },
): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0]!, argv.slice(1), {
      cwd: opts.cwd,
      env: childEnv({ MEM_NOW: NOW, ...opts.env }),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    // A child that stops reading early (input over the limit) closes the pipe under us: not an error here.
    child.stdin.on('error', () => {});
    child.stdin.end(input);
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

const mem = (args: string[], input: string | Buffer, opts: { cwd: string; env?: Record<string, string | undefined> }) =>
  hook([process.execPath, BIN, ...args], input, opts);

function setup(t: { after(fn: () => void): void }) {
  const ws = workspace(t, {
    'memory/2026-11-20.md': daily('2026-11-20', [
      entry({
        id: SHOP_RULE,
        title: 'Deploys happen on Tuesdays only',
        date: '2026-11-20',
        fields: { conclusion: 'Deploys happen on Tuesdays only', scope: 'project:shop', origin: 'user' },
      }),
      entry({
        id: OTHER_DECISION,
        title: 'PostgreSQL stores the events',
        date: '2026-11-20',
        fields: {
          conclusion: 'PostgreSQL 16 stores the event store of the billing service',
          scope: 'project:billing',
          origin: 'user',
        },
      }),
      entry({
        id: GLOBAL_RULE,
        title: 'Answer in British English',
        date: '2026-11-19',
        fields: { conclusion: 'Answer in British English', scope: 'global', origin: 'user' },
      }),
    ]),
  });
  const root = tempDir(t, 'memfold-hook-');
  const shop = join(root, 'shop');
  mkdirSync(shop);
  return { ws, root, shop };
}

const start = (cwd: string) =>
  JSON.stringify({
    session_id: 'abc',
    transcript_path: join(cwd, 's.jsonl'),
    cwd,
    hook_event_name: 'SessionStart',
    source: 'startup',
  });
const prompt = (cwd: string, text: string) =>
  JSON.stringify({
    session_id: 'abc',
    transcript_path: join(cwd, 's.jsonl'),
    cwd,
    hook_event_name: 'UserPromptSubmit',
    prompt: text,
  });

describe('mem context --hook', { concurrency: 2 }, () => {
  test("SessionStart prints the pack of the session's folder; both hosts get the same text", async (t) => {
    const { ws, shop } = setup(t);
    const r = await mem(['context', '--hook', 'claude'], start(shop), { cwd: shop, env: { MEM_WORKSPACE: ws } });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stderr, '');
    assert.match(r.stdout, /^<memfold-context>\n/);
    assert.ok(r.stdout.includes(SHOP_RULE) && r.stdout.includes(GLOBAL_RULE), r.stdout);
    assert.ok(!r.stdout.includes(OTHER_DECISION), "another project's entry is not in the pack");
    assert.match(r.stdout, /## Memories for project:shop/);
    const codex = await mem(['context', '--hook', 'codex'], start(shop), { cwd: shop, env: { MEM_WORKSPACE: ws } });
    assert.equal(codex.stdout, r.stdout);
    // The scope comes from the JSON's cwd, not from where the command runs; the use log names the hook.
    const elsewhere = await mem(['-C', ws, 'context', '--hook', 'claude'], start(shop), { cwd: ROOT });
    assert.equal(elsewhere.stdout, r.stdout);
    const via = readFileSync(join(ws, '.mem/usage.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l).via as string);
    assert.deepEqual(via, ['hook:claude:SessionStart', 'hook:codex:SessionStart', 'hook:claude:SessionStart']);
  });

  test('the workspace comes from the user-level defaultWorkspace, as for any command started in a project folder', async (t) => {
    const { ws, root, shop } = setup(t);
    const xdg = join(root, 'xdg');
    mkdirSync(join(xdg, 'memfold'), { recursive: true });
    writeFileSync(join(xdg, 'memfold', 'config.json'), JSON.stringify({ defaultWorkspace: ws }));
    const r = await mem(['context', '--hook', 'claude'], start(shop), { cwd: shop, env: { XDG_CONFIG_HOME: xdg } });
    assert.equal(r.code, 0, r.stderr);
    assert.ok(r.stdout.includes(SHOP_RULE), r.stdout);
  });

  test('UserPromptSubmit prints only the hits for the prompt, within 600 tokens by default, and nothing when nothing matches', async (t) => {
    const { ws, shop } = setup(t);
    const env = { MEM_WORKSPACE: ws };
    const hit = await mem(
      ['-v', 'context', '--hook', 'claude'],
      prompt(shop, 'which database holds the billing events?'),
      { cwd: shop, env },
    );
    assert.equal(hit.code, 0, hit.stderr);
    assert.ok(hit.stdout.includes(OTHER_DECISION), hit.stdout);
    assert.match(hit.stdout, /## Related to "which database holds the billing events\?"/);
    assert.ok(!/## Core|## Memories for/.test(hit.stdout), 'no core or project layer: the session start injected them');
    assert.ok(!hit.stdout.includes(GLOBAL_RULE) && !hit.stdout.includes(SHOP_RULE));
    assert.match(hit.stderr, /context \(UserPromptSubmit\): 1 items, \d+ of 600 tokens/);
    const budget = await mem(
      ['-v', 'context', '--hook', 'claude', '--budget', '300'],
      prompt(shop, 'billing events database'),
      { cwd: shop, env },
    );
    assert.match(budget.stderr, / of 300 tokens/);

    // A pasted log as the prompt: searched and quoted by its head, so the hit still fits the budget.
    const long = await mem(
      ['context', '--hook', 'claude'],
      prompt(shop, `billing events database ${'lorem ipsum dolor '.repeat(400)}`),
      { cwd: shop, env },
    );
    assert.ok(long.stdout.includes(OTHER_DECISION), long.stdout);
    assert.ok(long.stdout.length < 2500, `the heading quotes the prompt's head only (${long.stdout.length} chars)`);

    for (const text of ['zebra giraffe okapi', '']) {
      const none = await mem(['context', '--hook', 'codex'], prompt(shop, text), { cwd: shop, env });
      assert.deepEqual([none.code, none.stdout, none.stderr], [0, '', '']);
    }
  });

  test('no workspace, bad input or any failure: one line on stderr, nothing on stdout, exit 0', async (t) => {
    const { ws, shop } = setup(t);
    const cases: Array<[string, string[], string | Buffer, Record<string, string | undefined>, RegExp]> = [
      ['no workspace', ['context', '--hook', 'claude'], start(shop), {}, /no memfold workspace here or above/],
      [
        'MEM_WORKSPACE not a workspace',
        ['context', '--hook', 'claude'],
        start(shop),
        { MEM_WORKSPACE: shop },
        /is not a memfold workspace/,
      ],
      [
        'not JSON',
        ['context', '--hook', 'claude'],
        '{"hook_event_name":',
        { MEM_WORKSPACE: ws },
        /hook input on stdin is not JSON/,
      ],
      ['empty stdin', ['context', '--hook', 'claude'], '', { MEM_WORKSPACE: ws }, /no hook input on stdin/],
      ['not an object', ['context', '--hook', 'claude'], '[1,2]', { MEM_WORKSPACE: ws }, /not a JSON object/],
      [
        'prompt not a string',
        ['context', '--hook', 'claude'],
        JSON.stringify({ hook_event_name: 'UserPromptSubmit', prompt: { x: 1 } }),
        { MEM_WORKSPACE: ws },
        /field prompt is not a string/,
      ],
      [
        'other event',
        ['context', '--hook', 'claude'],
        JSON.stringify({ hook_event_name: 'Stop', cwd: shop }),
        { MEM_WORKSPACE: ws },
        /hook event Stop is not SessionStart or UserPromptSubmit/,
      ],
      [
        'unknown host',
        ['context', '--hook', 'cursor'],
        start(shop),
        { MEM_WORKSPACE: ws },
        /--hook "cursor" is not one of claude, codex/,
      ],
      [
        'bad budget',
        ['context', '--hook', 'claude', '--budget', '7'],
        start(shop),
        { MEM_WORKSPACE: ws },
        /--budget must be a whole number/,
      ],
      [
        'over 1 MB',
        ['context', '--hook', 'claude'],
        Buffer.alloc(1024 * 1024 + 10, 0x20),
        { MEM_WORKSPACE: ws },
        /hook input is over 1 MB/,
      ],
    ];
    for (const [what, args, input, env, message] of cases) {
      const r = await mem(args, input, { cwd: shop, env });
      assert.equal(r.code, 0, what);
      assert.equal(r.stdout, '', what);
      assert.equal(r.stderr.split('\n').filter(Boolean).length, 1, `${what}: ${r.stderr}`);
      assert.match(r.stderr, message, what);
    }
    // A broken mem.config.json is no reason to break a session either.
    writeFileSync(join(ws, 'mem.config.json'), '{ not json');
    const broken = await mem(['context', '--hook', 'claude'], start(shop), { cwd: shop, env: { MEM_WORKSPACE: ws } });
    assert.deepEqual([broken.code, broken.stdout], [0, '']);
    assert.equal(broken.stderr.split('\n').filter(Boolean).length, 1, broken.stderr);
  });

  test('the hook commands of docs/agents.md run as written, through a shell with mem on PATH', async (t) => {
    const { ws, root, shop } = setup(t);
    const bin = join(root, 'bin');
    mkdirSync(bin);
    writeFileSync(join(bin, 'mem'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
    chmodSync(join(bin, 'mem'), 0o755);
    const doc = readFileSync(join(ROOT, 'docs/agents.md'), 'utf8');
    const blocks = [...doc.matchAll(/```json\n(\{\n {2}"hooks"[\s\S]*?)```/g)].map(
      (m) => JSON.parse(m[1]!) as { hooks: Record<string, Array<{ hooks: Array<{ command: string }> }>> },
    );
    assert.ok(blocks.length >= 2, 'a hooks recipe for Claude Code and one for Codex');
    const env = { MEM_WORKSPACE: ws, PATH: `${bin}${delimiter}${process.env.PATH ?? ''}` };
    let ran = 0;
    for (const block of blocks) {
      assert.deepEqual(Object.keys(block.hooks).sort(), ['SessionStart', 'UserPromptSubmit']);
      for (const [event, groups] of Object.entries(block.hooks)) {
        for (const command of groups.flatMap((g) => g.hooks.map((h) => h.command))) {
          const input = event === 'SessionStart' ? start(shop) : prompt(shop, 'billing events database');
          const r = await hook(['/bin/sh', '-c', command], input, { cwd: shop, env });
          assert.equal(r.code, 0, `${command}: ${r.stderr}`);
          assert.equal(r.stderr, '', command);
          assert.ok(
            r.stdout.includes(event === 'SessionStart' ? SHOP_RULE : OTHER_DECISION),
            `${command}: ${r.stdout}`,
          );
          ran++;
        }
      }
    }
    assert.ok(ran >= 4);
  });
});
