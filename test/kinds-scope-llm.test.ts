/**
 * The new kinds through the LLM path (issue 27): a model on 127.0.0.1 answers with Preference, Task
 * and retraction entries; microsync gives them the session's scope, keys within it, `state` and
 * `retracts`, and compound flips what a retraction names to retracted, with a weekly-log line.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { blockWith, claudeSession, field } from './helpers/claude-sessions.js';
import { editConfig, memOk, tempDir } from './helpers/cli.js';
import {
  promptTurns,
  startOpenAIServer,
  wireEntry,
  type ChatRequestBody,
  type OpenAIServer,
} from './helpers/openai-server.js';

let llm: OpenAIServer;
before(async () => {
  llm = await startOpenAIServer();
});
after(() => llm.close());

/** A stand-in model that knows this test's sentences. */
function model(body: ChatRequestBody) {
  const entries = [];
  for (const t of promptTurns(body).filter((x) => x.role === 'user')) {
    const at = { first_turn: t.index, last_turn: t.index, conclusion: t.text, title: t.text.replace(/[.!]$/, '') };
    if (/pnpm, not npm/.test(t.text)) entries.push(wireEntry({ ...at, kind: 'Preference' }));
    if (/switch back to npm/i.test(t.text)) entries.push(wireEntry({ ...at, kind: 'Preference', revises: true }));
    if (/Redis for the cache/.test(t.text)) entries.push(wireEntry({ ...at, kind: 'Decision' }));
    if (/forget the Redis/.test(t.text)) entries.push(wireEntry({ ...at, kind: 'Decision', retracts: true }));
    if (/rollback script/.test(t.text))
      entries.push(
        wireEntry({
          ...at,
          kind: 'Task',
          key: 'task:<project>:rollback-script',
          state: /done/.test(t.text) ? 'done' : 'todo',
        }),
      );
    if (/Reply in Chinese/.test(t.text)) entries.push(wireEntry({ ...at, kind: 'Preference' }));
  }
  return { entries };
}

/** A Claude Code session of user turns only, run in `folder`. */
const session = (root: string, folder: string, id: string, start: string, texts: string[]) =>
  claudeSession(
    root,
    folder,
    id,
    start,
    texts.map((text) => ['user', text]),
  );

describe('new kinds through the LLM path', () => {
  test('preferences keyed and superseded in scope, a global language preference, task states, and a retraction compound flips', async (t) => {
    llm.chat.handler = model;
    const root = tempDir(t);
    const ws = join(root, 'ws');
    await memOk(['init', ws]);
    editConfig(ws, (cfg) => {
      cfg.timezone = 'UTC';
      cfg.sources = [{ name: 'cc', kind: 'claude-code', path: join(root, 'home', '.claude', 'projects') }];
      cfg.llm = { baseURL: llm.url, model: 'test-model', timeoutMs: 2000, maxRetries: 1 };
    });
    const shop = join(root, 'shop');
    const blog = join(root, 'blog');
    mkdirSync(shop);
    mkdirSync(blog);
    session(root, shop, 's1', '2026-11-17T09:00:00Z', [
      'Use pnpm, not npm, for everything.',
      'Use Redis for the cache.',
      'Write the rollback script for the orders table.',
      'Reply in Chinese from now on.',
    ]);
    session(root, blog, 'b1', '2026-11-18T09:00:00Z', ['Switch back to npm for the blog.']);
    session(root, shop, 's2', '2026-11-19T09:00:00Z', [
      'Switch back to npm, pnpm broke the CI cache.',
      'Please forget the Redis decision, that was wrong.',
      'The rollback script is done.',
    ]);
    await memOk(['-C', ws, 'microsync', '--since', 'all', '--now', '2026-11-20T12:00:00Z']);

    const pnpm = blockWith(ws, 'pnpm, not npm');
    assert.match(field(pnpm, 'id') ?? '', /^PREF-20261117-/);
    assert.equal(field(pnpm, 'key'), 'pref:tools:package-manager');
    assert.equal(field(pnpm, 'scope'), 'project:shop');
    assert.equal(field(blockWith(ws, 'for the blog'), 'supersedes'), undefined, 'the blog is another scope');
    assert.equal(field(blockWith(ws, 'pnpm broke'), 'supersedes'), field(pnpm, 'id'));
    const lang = blockWith(ws, 'Reply in Chinese');
    assert.equal(field(lang, 'scope'), 'global');
    assert.equal(field(lang, 'key'), 'pref:conversation:language');

    const todo = blockWith(ws, 'Write the rollback script');
    const done = blockWith(ws, 'rollback script is done');
    assert.equal(field(todo, 'state'), 'todo');
    assert.equal(field(done, 'state'), 'done');
    assert.equal(field(done, 'key'), 'task:shop:rollback-script');
    assert.equal(field(done, 'supersedes'), field(todo, 'id'));

    const redis = blockWith(ws, 'Redis for the cache');
    const retraction = blockWith(ws, 'forget the Redis');
    assert.equal(field(retraction, 'retracts'), field(redis, 'id'));
    assert.equal(field(retraction, 'supersedes'), undefined);

    const pack = JSON.parse(
      (await memOk(['-C', ws, 'context', '--format', 'json', '--now', '2026-11-20T12:00:00Z'], { cwd: shop })).stdout,
    ) as { text: string };
    assert.doesNotMatch(
      pack.text,
      /Redis for the cache/,
      'a retracted decision is out of the pack before compound runs',
    );
    assert.doesNotMatch(pack.text, /rollback script/, 'a done task is not open');

    const r = await memOk([
      '-C',
      ws,
      'compound',
      '--week',
      '2026-W47',
      '--now',
      '2026-11-24T09:00:00Z',
      '--no-llm',
      '--json',
    ]);
    const out = JSON.parse(r.stdout) as {
      retracted: Array<{ id: string; by: string }>;
      superseded: Array<{ id: string }>;
    };
    assert.deepEqual(
      out.retracted.map((x) => [x.id, x.by]),
      [[field(redis, 'id'), field(retraction, 'id')]],
    );
    assert.ok(out.superseded.some((x) => x.id === field(pnpm, 'id')));
    assert.equal(field(blockWith(ws, 'Redis for the cache'), 'status'), 'retracted');
    assert.equal(field(blockWith(ws, 'pnpm, not npm'), 'status'), 'superseded');
    const log = readFileSync(join(ws, 'memory', 'archive', 'weekly-2026-W47.md'), 'utf8');
    assert.match(
      log,
      new RegExp(`^- retracted: ${field(redis, 'id')} .*→ retracted by ${field(retraction, 'id')}`, 'm'),
    );
    const trace = await memOk(['-C', ws, 'trace', field(redis, 'id')!]);
    assert.match(trace.stdout, new RegExp(`retracts ${field(redis, 'id')}`));
    // MEMORY.md: preferences in their section, the replaced one and the finished task nowhere.
    const memory = readFileSync(join(ws, 'MEMORY.md'), 'utf8');
    assert.match(memory, /## Preferences\n(- .*\n)*- Switch back to npm, pnpm broke the CI cache/);
    assert.doesNotMatch(memory, /Use pnpm, not npm|rollback script|Redis for the cache/);

    // The wrap-up's fixed sections: an open task is an action item, a finished one a thing done that day.
    await memOk(['-C', ws, 'wrapup', '--date', '2026-11-17', '--no-llm', '--now', '2026-11-24T09:00:00Z']);
    await memOk(['-C', ws, 'wrapup', '--date', '2026-11-19', '--no-llm', '--now', '2026-11-24T09:00:00Z']);
    const day17 = readFileSync(join(ws, 'second-brain', 'summaries', '2026-11-17-wrapup.md'), 'utf8');
    const day19 = readFileSync(join(ws, 'second-brain', 'summaries', '2026-11-19-wrapup.md'), 'utf8');
    assert.match(day17, /## Action items\n(- .*\n)*- Task: Write the rollback script/);
    assert.match(day19, /## Decisions made today\n(- .*\n)*- Task done: The rollback script is done/);
  });
});
