/**
 * Issue 27, items 1 and 2, through the built CLI: every extracted entry carries the scope of the
 * folder its session ran in, keys link only within a scope, a task's state moves by new entries, a
 * retraction is appended and compound flips what it names, and the new kinds reach remember, search
 * and lint. Sessions are Claude Code transcripts in a `.claude/projects/<encoded folder>` tree, as
 * Claude Code keeps them, with the project folders real folders in the test's temp dir.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { blocks, blockWith, claudeSession, field, type Said } from './helpers/claude-sessions.js';
import { editConfig, mem, memOk, tempDir } from './helpers/cli.js';

async function workspace(t: Parameters<typeof tempDir>[0]): Promise<{ root: string; ws: string }> {
  const root = tempDir(t);
  const ws = join(root, 'ws');
  await memOk(['init', ws]);
  editConfig(ws, (cfg) => {
    cfg.timezone = 'UTC';
    cfg.sources = [{ name: 'cc', kind: 'claude-code', path: join(root, 'home', '.claude', 'projects') }];
  });
  return { root, ws };
}

describe('scope and keys on the rule path', () => {
  test('a rule said in project A carries scope project:A, stays out of B\'s context, and B\'s "use npm" does not supersede A\'s "use pnpm"', async (t) => {
    const { root, ws } = await workspace(t);
    const a = join(root, 'src', 'shop');
    const b = join(root, 'src', 'blog');
    mkdirSync(a, { recursive: true });
    mkdirSync(b, { recursive: true });
    claudeSession(root, a, 'sa', '2026-11-20T09:00:00Z', [
      ['user', 'We decided to use pnpm for the workspace packages.'],
      ['assistant', 'Ok.'],
      ['user', 'Never push to main directly.'],
    ]);
    claudeSession(root, b, 'sb', '2026-11-20T11:00:00Z', [['user', 'We decided to use npm for this site.']]);
    await memOk(['-C', ws, 'microsync', '--since', 'all', '--now', '2026-11-20T12:00:00Z']);
    const pnpm = blockWith(ws, 'pnpm');
    const rule = blockWith(ws, 'push to main');
    const npm = blockWith(ws, 'Use npm');
    assert.equal(field(pnpm, 'scope'), 'project:shop');
    assert.equal(field(rule, 'scope'), 'project:shop');
    assert.equal(field(npm, 'scope'), 'project:blog');
    assert.equal(field(pnpm, 'key'), 'decision:shop:package-manager');
    assert.equal(field(npm, 'key'), 'decision:blog:package-manager');
    assert.equal(field(npm, 'supersedes'), undefined, npm);

    const fromB = await memOk(['-C', ws, 'context', '--now', '2026-11-20T12:00:00Z', '--format', 'json'], { cwd: b });
    const packB = JSON.parse(fromB.stdout) as { scope: string; text: string };
    assert.equal(packB.scope, 'project:blog');
    assert.doesNotMatch(packB.text, /push to main/);
    assert.match(packB.text, /Use npm/);
    const fromA = JSON.parse((await memOk(['-C', ws, 'context', '--format', 'json'], { cwd: a })).stdout) as {
      text: string;
    };
    assert.match(fromA.text, /push to main/);

    // compound keeps both: one key in two scopes is two facts.
    await memOk(['-C', ws, 'compound', '--week', '2026-W47', '--now', '2026-11-24T09:00:00Z', '--no-llm']);
    assert.equal(field(blockWith(ws, 'pnpm'), 'status'), 'active');
    assert.equal(field(blockWith(ws, 'Use npm'), 'status'), 'active');
  });

  test('a revision with the same key in the same scope supersedes, and compound flips the older entry', async (t) => {
    const { root, ws } = await workspace(t);
    const a = join(root, 'shop');
    mkdirSync(a);
    claudeSession(root, a, 's1', '2026-11-17T09:00:00Z', [['user', 'We decided to store the todos in SQLite.']]);
    claudeSession(root, a, 's2', '2026-11-19T09:00:00Z', [['user', 'We decided to move the todos to Postgres.']]);
    await memOk(['-C', ws, 'microsync', '--since', 'all', '--now', '2026-11-20T12:00:00Z']);
    const sqlite = blockWith(ws, 'SQLite');
    const pg = blockWith(ws, 'Postgres');
    assert.equal(field(pg, 'key'), 'decision:shop:database');
    assert.equal(field(pg, 'supersedes'), field(sqlite, 'id'));
    await memOk(['-C', ws, 'compound', '--week', '2026-W47', '--now', '2026-11-24T09:00:00Z', '--no-llm']);
    assert.equal(field(blockWith(ws, 'SQLite'), 'status'), 'superseded');
  });

  test('"use 2-space indentation" said in project A and in project B is two entries; said twice in A is one', async (t) => {
    const { root, ws } = await workspace(t);
    const a = join(root, 'a');
    const b = join(root, 'b');
    mkdirSync(a);
    mkdirSync(b);
    const said: Said[] = [['user', 'Remember this: use 2-space indentation in every file.']];
    claudeSession(root, a, 'a1', '2026-11-20T09:00:00Z', said);
    claudeSession(root, a, 'a2', '2026-11-20T10:00:00Z', said);
    claudeSession(root, b, 'b1', '2026-11-20T11:00:00Z', said);
    await memOk(['-C', ws, 'microsync', '--since', 'all', '--now', '2026-11-20T12:00:00Z']);
    const notes = blocks(ws).filter((x) => x.includes('2-space'));
    assert.deepEqual(notes.map((x) => field(x, 'scope')).sort(), ['project:a', 'project:b']);
  });

  test('re-running microsync over a workspace written before scopes and keys adds nothing', async (t) => {
    const { root, ws } = await workspace(t);
    const a = join(root, 'shop');
    mkdirSync(a);
    claudeSession(root, a, 's1', '2026-11-20T09:00:00Z', [
      ['user', 'We decided to use pnpm for the packages.'],
      ['user', 'Never push to main directly.'],
      ['user', 'Remember this: deploys need two approvals.'],
    ]);
    await memOk(['-C', ws, 'microsync', '--since', 'all', '--now', '2026-11-20T12:00:00Z']);
    const file = join(ws, 'memory', '2026-11-20.md');
    // As the previous version wrote it: no scope, no key; and the cursors gone.
    const old = readFileSync(file, 'utf8').replace(/^- (?:scope|key): .*\n/gm, '');
    writeFileSync(file, old);
    rmSync(join(ws, '.mem'), { recursive: true, force: true });
    const again = await memOk(['-C', ws, 'microsync', '--since', 'all', '--now', '2026-11-20T12:00:00Z', '--json']);
    assert.deepEqual((JSON.parse(again.stdout) as { added: unknown[] }).added, []);
    assert.equal(readFileSync(file, 'utf8'), old);
    // And the old entries are read in their session's scope: A's context still lists them.
    const pack = JSON.parse((await memOk(['-C', ws, 'context', '--format', 'json'], { cwd: a })).stdout) as {
      text: string;
    };
    assert.match(pack.text, /push to main/);
  });
});

describe('the scope function', () => {
  function repo(dir: string, origin?: string): void {
    mkdirSync(join(dir, '.git'), { recursive: true });
    writeFileSync(
      join(dir, '.git', 'config'),
      `[core]\n\tbare = false\n${origin ? `[remote "origin"]\n\turl = ${origin}\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n` : ''}`,
    );
  }

  test("two clones at different paths give one scope (origin remote), a worktree its repository's, and the config mapping wins", async (t) => {
    const { root, ws } = await workspace(t);
    const one = join(root, 'work', 'shop-main');
    const two = join(root, 'elsewhere', 'checkout');
    repo(one, 'git@github.com:me/shop.git');
    repo(two, 'https://github.com/me/shop');
    const sub = join(two, 'src', 'api');
    mkdirSync(sub, { recursive: true });
    // A linked worktree: `.git` is a file naming a folder whose commondir leads to the main checkout.
    const local = join(root, 'local-only');
    repo(local);
    mkdirSync(join(local, '.git', 'worktrees', 'wt'), { recursive: true });
    writeFileSync(join(local, '.git', 'worktrees', 'wt', 'commondir'), '../..\n');
    const wt = join(root, 'feature-x');
    mkdirSync(wt);
    writeFileSync(join(wt, '.git'), `gitdir: ${join(local, '.git', 'worktrees', 'wt')}\n`);

    const scopeIn = async (cwd: string, text: string) => {
      await memOk(['-C', ws, 'remember', text, '--now', '2026-11-20T09:00:00Z'], { cwd });
      return field(blockWith(ws, text), 'scope');
    };
    assert.equal(await scopeIn(one, 'Clone one says hello'), 'project:shop');
    assert.equal(await scopeIn(sub, 'Clone two says hello'), 'project:shop');
    assert.equal(await scopeIn(wt, 'The worktree says hello'), 'project:local-only');
    const plain = join(root, 'just-a-folder');
    mkdirSync(plain);
    assert.equal(await scopeIn(plain, 'A plain folder says hello'), 'project:just-a-folder');
    editConfig(ws, (cfg) => (cfg.scopes = { [join(root, 'elsewhere', '*')]: 'storefront' }));
    assert.equal(await scopeIn(sub, 'The mapping says hello'), 'project:storefront');
    // `mem context` asks the same function.
    const pack = JSON.parse((await memOk(['-C', ws, 'context', '--format', 'json'], { cwd: one })).stdout) as {
      scope: string;
      text: string;
    };
    assert.equal(pack.scope, 'project:shop');
    assert.match(pack.text, /Clone two says hello/);
  });

  test('"in every project" and a user-level topic are global; a bad scopes mapping is one clear line', async (t) => {
    const { root, ws } = await workspace(t);
    const a = join(root, 'shop');
    mkdirSync(a);
    await memOk(
      [
        '-C',
        ws,
        'remember',
        'Reply in English, even when I write in Chinese',
        '--kind',
        'preference',
        '--now',
        '2026-11-20T09:00:00Z',
      ],
      { cwd: a },
    );
    await memOk(
      [
        '-C',
        ws,
        'remember',
        'Run the linter before every commit in every project',
        '--kind',
        'rule',
        '--now',
        '2026-11-20T09:00:00Z',
      ],
      { cwd: a },
    );
    const lang = blockWith(ws, 'Reply in English');
    assert.equal(field(lang, 'scope'), 'global');
    assert.equal(field(lang, 'key'), 'pref:conversation:language');
    assert.match(field(lang, 'id') ?? '', /^PREF-20261120-/);
    assert.equal(field(blockWith(ws, 'Run the linter'), 'scope'), 'global');
    editConfig(ws, (cfg) => (cfg.scopes = { '~/src/*': 'my shop' }));
    const bad = await mem(['-C', ws, 'remember', 'x y z'], { cwd: a });
    assert.notEqual(bad.code, 0);
    assert.match(bad.stderr, /scopes/);
    assert.equal(bad.stderr.trim().split('\n').length, 1, bad.stderr);
  });
});

describe('the new kinds on every surface', () => {
  test('remember --kind preference/task, a task moved to done is no longer open, search --kind task, lint checks state', async (t) => {
    const { root, ws } = await workspace(t);
    const a = join(root, 'shop');
    mkdirSync(a);
    const now = ['--now', '2026-11-20T09:00:00Z'];
    await memOk(['-C', ws, 'remember', 'Use pnpm, not npm', '--kind', 'Preference', ...now], { cwd: a });
    await memOk(
      ['-C', ws, 'remember', 'Switch back to npm for everything', '--kind', 'pref', '--now', '2026-11-21T09:00:00Z'],
      { cwd: a },
    );
    const prefs = blocks(ws).filter((b) => b.startsWith('## Preference:'));
    assert.equal(prefs.length, 2);
    assert.ok(
      prefs.every((b) => field(b, 'key') === 'pref:tools:package-manager'),
      prefs.join('\n'),
    );

    await memOk(
      [
        '-C',
        ws,
        'remember',
        'Write the rollback script for the orders table',
        '--kind',
        'task',
        '--key',
        'task:shop:rollback-script',
        ...now,
      ],
      { cwd: a },
    );
    const open = JSON.parse((await memOk(['-C', ws, 'context', '--format', 'json'], { cwd: a })).stdout) as {
      text: string;
    };
    assert.match(open.text, /rollback script/);
    assert.doesNotMatch(open.text, /Use pnpm, not npm/, 'the newer preference with the same key replaces it');
    await memOk(
      [
        '-C',
        ws,
        'remember',
        'The rollback script for the orders table is written',
        '--kind',
        'task',
        '--state',
        'done',
        '--key',
        'task:shop:rollback-script',
        '--now',
        '2026-11-21T10:00:00Z',
      ],
      { cwd: a },
    );
    const done = blockWith(ws, 'is written');
    assert.equal(field(done, 'state'), 'done');
    assert.match(field(done, 'id') ?? '', /^TASK-/);
    const after = JSON.parse((await memOk(['-C', ws, 'context', '--format', 'json'], { cwd: a })).stdout) as {
      text: string;
    };
    assert.doesNotMatch(after.text, /rollback script/i, 'a task whose newest state is done is not open');

    const found = JSON.parse((await memOk(['-C', ws, 'search', 'rollback', '--kind', 'task', '--json'])).stdout) as {
      results: Array<{ id: string }>;
    };
    assert.ok(
      found.results.length >= 1 && found.results.every((r) => r.id.startsWith('TASK-')),
      JSON.stringify(found.results),
    );

    const bad = await mem(['-C', ws, 'remember', 'x', '--kind', 'wish']);
    assert.notEqual(bad.code, 0);
    assert.match(bad.stderr, /preference \(pref\), goal, task, lesson/);
    const badState = await mem(['-C', ws, 'remember', 'x', '--kind', 'note', '--state', 'done']);
    assert.match(badState.stderr, /--state is for --kind task only/);

    await memOk(['-C', ws, 'lint']);
    const file = join(ws, 'memory', '2026-11-21.md');
    writeFileSync(file, readFileSync(file, 'utf8').replace('- state: done', '- state: finished'));
    const lint = await mem(['-C', ws, 'lint']);
    assert.notEqual(lint.code, 0);
    assert.match(lint.stdout + lint.stderr, /state "finished" is not one of todo, doing, done, blocked/);
  });

  test('lint accepts retracts and reports one naming no entry, and merge_conflict', async (t) => {
    const { ws } = await workspace(t);
    writeFileSync(
      join(ws, 'memory', '2026-11-20.md'),
      [
        '# 2026-11-20',
        '',
        '## Lesson: Flaky upload test was a timezone bug',
        '- id: LESSON-20261120-flaky-upload-test-was-a-timezone-bug',
        '- date: 2026-11-20',
        '- conclusion: the test read local time; fixed by pinning TZ=UTC',
        '- status: active',
        '- scope: project:shop',
        '',
        '## Note: That lesson was wrong',
        '- id: NOTE-20261120-that-lesson-was-wrong',
        '- date: 2026-11-20',
        '- conclusion: x',
        '- status: active',
        '- retracts: LESSON-20261120-flaky-upload-test-was-a-timezone-bug',
        '',
      ].join('\n'),
    );
    await memOk(['-C', ws, 'lint']);
    const f = join(ws, 'memory', '2026-11-20.md');
    writeFileSync(
      f,
      readFileSync(f, 'utf8').replace(
        '- retracts: LESSON-',
        '- retracts: LESSON-20261120-nope\n- merge_conflict: status superseded\n- x: LESSON-',
      ),
    );
    const lint = await mem(['-C', ws, 'lint']);
    assert.match(lint.stdout + lint.stderr, /retracts LESSON-20261120-nope, which no entry has as id/);
    assert.match(lint.stdout + lint.stderr, /merge_conflict/);
  });
});

describe('format_version', () => {
  test('init writes format 2; a format-1 workspace still works; a newer one says to upgrade in one line', async (t) => {
    const { ws } = await workspace(t);
    assert.equal(
      (JSON.parse(readFileSync(join(ws, 'mem.config.json'), 'utf8')) as { format_version: number }).format_version,
      2,
    );
    editConfig(ws, (cfg) => (cfg.format_version = 1));
    await memOk(['-C', ws, 'remember', 'Old workspaces keep working', '--now', '2026-11-20T09:00:00Z']);
    await memOk(['-C', ws, 'search', 'workspaces']);
    editConfig(ws, (cfg) => (cfg.format_version = 3));
    for (const args of [['remember', 'x'], ['search', 'x'], ['status']]) {
      const r = await mem(['-C', ws, ...args]);
      assert.equal(r.code, 4, args.join(' '));
      assert.match(
        r.stderr,
        /format_version 3 is newer than this mem understands \(1 to 2\).*upgrade mem/,
        `${args.join(' ')}: ${r.stderr}`,
      );
      assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    }
    assert.deepEqual(
      readdirSync(join(ws, 'memory')).filter((n) => n.endsWith('.md')),
      ['2026-11-20.md'],
    );
  });
});
