/**
 * `mem init`, `mem config`, `mem remember` through the built CLI, and the write allowance of every
 * job (DESIGN §2) through the one module that writes.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { MemError } from '../src/core/errors.js';
import { JOBS, mayWrite, type Job } from '../src/write/allowance.js';
import { WorkspaceWriter } from '../src/write/writer.js';
import { entryIds, mem, snapshot, tempDir } from './helpers/cli.js';

describe('mem init', () => {
  test('creates the layout, config in the given zone, MEMORY.md and .gitignore; a second run changes nothing', async (t) => {
    const ws = join(tempDir(t), 'memory-ws');
    const r = await mem(['init', ws], { env: { TZ: 'Asia/Shanghai' } });
    assert.equal(r.code, 0, r.stderr);
    for (const p of [
      'MEMORY.md',
      'memory/recent/.gitkeep',
      'memory/projects/.gitkeep',
      'memory/archive/.gitkeep',
      'second-brain/summaries/.gitkeep',
    ]) {
      assert.ok(existsSync(join(ws, p)), p);
    }
    const cfg = JSON.parse(readFileSync(join(ws, 'mem.config.json'), 'utf8'));
    assert.equal(cfg.timezone, 'Asia/Shanghai');
    assert.deepEqual(cfg.extraPaths, ['second-brain/summaries']);
    assert.match(readFileSync(join(ws, '.gitignore'), 'utf8'), /^\.mem\/$/m);
    assert.match(readFileSync(join(ws, '.gitignore'), 'utf8'), /^memory\/\.locks\/$/m);
    const before = snapshot(ws, () => false);
    const again = await mem(['--json', 'init', ws]);
    assert.equal(again.code, 0);
    assert.deepEqual(JSON.parse(again.stdout).created, []);
    assert.deepEqual(
      snapshot(ws, () => false),
      before,
    );
  });

  test('-C names the folder to create, as it does for every command; a second, different folder is refused', async (t) => {
    const root = tempDir(t);
    const r = await mem(['-C', join(root, 'ws'), 'init'], { cwd: root });
    assert.equal(r.code, 0, r.stderr);
    assert.ok(existsSync(join(root, 'ws', 'mem.config.json')));
    assert.ok(!existsSync(join(root, 'mem.config.json')), 'the current folder is left alone');
    const both = await mem(['-C', join(root, 'ws'), 'init', join(root, 'other')], { cwd: root });
    assert.equal(both.code, 2);
    assert.match(both.stderr, /^mem: -C \S+ws and \S+other name two different folders; give the workspace once\n$/);
    assert.ok(!existsSync(join(root, 'other')));
  });

  test('adopts an existing folder: keeps its MEMORY.md and .gitignore lines, adds what is missing', async (t) => {
    const ws = tempDir(t);
    writeFileSync(join(ws, 'MEMORY.md'), '# My own memory\n- keep me\n');
    writeFileSync(join(ws, '.gitignore'), 'node_modules/\n.mem/\n');
    const r = await mem(['--json', 'init', ws]);
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.equal(out.adopted, true);
    assert.ok(!out.created.includes('MEMORY.md'));
    assert.equal(readFileSync(join(ws, 'MEMORY.md'), 'utf8'), '# My own memory\n- keep me\n');
    const gi = readFileSync(join(ws, '.gitignore'), 'utf8');
    assert.ok(gi.startsWith('node_modules/\n.mem/\n'));
    assert.equal(gi.match(/^\.mem\/$/gm)?.length, 1, '.mem/ not added twice');
    assert.match(gi, /^memory\/\.locks\/$/m);
  });

  test('a path that is a file, or lies under one: one line naming it, usage exit 2, nothing written', async (t) => {
    const root = tempDir(t);
    const file = join(root, 'notes.txt');
    writeFileSync(file, 'my notes\n');
    const cases: Array<[string, RegExp]> = [
      ['notes.txt', /^mem: cannot create a workspace at \S+\/notes\.txt: it is a file, not a folder\n$/],
      [
        join(file, 'ws'),
        /^mem: cannot create a workspace at \S+\/notes\.txt\/ws: \S+\/notes\.txt is a file, not a folder\n$/,
      ],
      [
        join(file, 'a', 'b'),
        /^mem: cannot create a workspace at \S+\/notes\.txt\/a\/b: \S+\/notes\.txt is a file, not a folder\n$/,
      ],
      ['gone', /^mem: cannot create a workspace at \S+\/gone: it is a symbolic link to nothing, not a folder\n$/],
      [
        join(root, 'gone', 'ws'),
        /^mem: cannot create a workspace at \S+\/gone\/ws: \S+\/gone is a symbolic link to nothing, not a folder\n$/,
      ],
    ];
    symlinkSync(join(root, 'missing'), join(root, 'gone'));
    for (const [dir, message] of cases) {
      const r = await mem(['init', dir, '--git'], { cwd: root });
      assert.equal(r.code, 2, `${dir}: ${r.stderr}`);
      assert.match(r.stderr, message);
      assert.equal(r.stdout, '');
    }
    assert.deepEqual(readdirSync(root).sort(), ['gone', 'notes.txt']);
    assert.equal(readFileSync(file, 'utf8'), 'my notes\n');
  });

  test('a mem.config.json that is not valid JSON or fails validation is refused like every command refuses it: exit 4, left as it is', async (t) => {
    const cases: Array<[string, RegExp]> = [
      ['{"timezone": "UTC",\n', /^mem: \S+\/mem\.config\.json: not valid JSON \(.+\)\n$/],
      ['{"search": {"k": 0}}\n', /^mem: mem\.config\.json: search\.k: .+\n$/],
    ];
    for (const [text, message] of cases) {
      const ws = tempDir(t);
      writeFileSync(join(ws, 'mem.config.json'), text);
      const r = await mem(['init', ws, '--git']);
      assert.equal(r.code, 4, r.stderr);
      assert.match(r.stderr, message);
      assert.deepEqual(readdirSync(ws), ['mem.config.json'], 'nothing adopted, no .git made');
      assert.equal(readFileSync(join(ws, 'mem.config.json'), 'utf8'), text);
      const config = await mem(['-C', ws, 'config']);
      assert.deepEqual([config.code, config.stderr], [4, r.stderr], 'the same line as any other command');
    }
  });
});

describe('mem config', () => {
  test('mem.local.json overrides mem.config.json key by key; unknown keys are warned about and kept', async (t) => {
    const ws = tempDir(t);
    await mem(['init', ws]);
    writeFileSync(join(ws, 'mem.local.json'), JSON.stringify({ limits: { lockWaitMs: 42 }, colour: 'blue' }));
    const r = await mem(['-C', ws, '--json', 'config']);
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.equal(out.config.limits.lockWaitMs, 42);
    assert.equal(out.config.limits.entriesPerDailyFile, 300, 'siblings of an overridden key keep their defaults');
    assert.equal(out.config.colour, 'blue');
    assert.match(r.stderr, /unknown key "colour"/);
    assert.deepEqual(
      out.files.map((f: string) => f.split('/').pop()),
      ['mem.config.json', 'mem.local.json'],
    );
  });

  test('a misspelt key inside a section is named (the section drops it, so its setting would be lost unseen)', async (t) => {
    const ws = tempDir(t);
    await mem(['init', ws]);
    writeFileSync(
      join(ws, 'mem.local.json'),
      JSON.stringify({
        search: { chunkToken: 300, k: 4 },
        sources: [{ name: 'cc', kind: 'claude-code', path: '~/x', exlude: ['a'] }],
      }),
    );
    const r = await mem(['-C', ws, '--json', 'config']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(JSON.parse(r.stdout).config.search.k, 4);
    assert.match(r.stderr, /mem\.local\.json: unknown key "search\.chunkToken" ignored/);
    assert.match(r.stderr, /unknown key "sources\[0\]\.exlude" ignored/);
    assert.doesNotMatch(r.stderr, /"search\.k"|sources\[0\]\.(name|kind|path)"/, 'known keys are not named');
  });
});

describe('mem remember', () => {
  test('appends one manual entry; the same text again adds nothing; secrets are redacted', async (t) => {
    const ws = tempDir(t);
    await mem(['init', ws]);
    const args = [
      '-C',
      ws,
      '--now',
      '2026-11-21T10:00:00Z',
      'remember',
      'Deploys happen on Tuesdays only. Ask Sam first.',
      '--kind',
      'rule',
    ];
    const r = await mem(args);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^remembered RULE-20261121-deploys-happen-on-tuesdays-only in memory\/2026-11-21\.md\n$/);
    const text = readFileSync(join(ws, 'memory', '2026-11-21.md'), 'utf8');
    assert.match(
      text,
      /^## Rule: Deploys happen on Tuesdays only\n- id: RULE-20261121-deploys-happen-on-tuesdays-only\n/m,
    );
    assert.match(text, /^- origin: manual$/m);
    const again = await mem(args);
    assert.equal(again.code, 0);
    assert.match(again.stdout, /already remembered/);
    assert.equal(readFileSync(join(ws, 'memory', '2026-11-21.md'), 'utf8'), text);

    const key = 'ghp_' + 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8';
    const s = await mem(['-C', ws, '--now', '2026-11-21T10:00:00Z', 'remember', `The CI token is ${key}`]);
    assert.equal(s.code, 0, s.stderr);
    assert.match(s.stderr, /1 secret redacted/);
    assert.ok(![...snapshot(ws, () => false).values()].some((v) => v.includes(key)));
  });

  test('a newer entry with the same --key supersedes the older one', async (t) => {
    const ws = tempDir(t);
    await mem(['init', ws]);
    const key = ['--kind', 'decision', '--key', 'decision:shop:package-manager'];
    await mem(['-C', ws, '--now', '2026-11-20T10:00:00Z', 'remember', 'Use npm workspaces', ...key]);
    const r = await mem(['-C', ws, '--now', '2026-11-21T10:00:00Z', 'remember', 'Use pnpm instead of npm', ...key]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      readFileSync(join(ws, 'memory', '2026-11-21.md'), 'utf8'),
      /^- supersedes: DECISION-20261120-use-npm-workspaces$/m,
    );
    assert.deepEqual(entryIds(ws), [
      'DECISION-20261120-use-npm-workspaces',
      'DECISION-20261121-use-pnpm-instead-of-npm',
    ]);
  });

  test('bad --kind, --key, empty text, or text or title without a letter or digit: usage error, nothing written', async (t) => {
    const ws = tempDir(t);
    await mem(['init', ws]);
    for (const args of [['x', '--kind', 'wish'], ['x', '--key', '../../etc/passwd key'], ['   ']]) {
      const r = await mem(['-C', ws, 'remember', ...args]);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, /^mem: [^\n]+\n$/);
    }
    // Punctuation alone made `## Note: ` (an empty title) with id NOTE-…-entry; so did symbols and emoji.
    for (const text of ['!!!???', '… ?! «»', '+++ $$$', '🎉👍🏽', '→ €']) {
      const r = await mem(['-C', ws, 'remember', text]);
      assert.deepEqual(
        [r.code, r.stderr],
        [2, 'mem: nothing to remember: the text has no letters or digits (only punctuation, symbols or emoji)\n'],
        text,
      );
    }
    // A --title without a letter or digit made `## Note: !!!` (or an invisible heading) with id NOTE-…-entry.
    for (const title of [' !!! ', '+++', '🎉', '\u200b', '©']) {
      const r = await mem(['-C', ws, 'remember', 'Deploys happen on Tuesdays', '--title', title]);
      assert.equal(r.code, 2, JSON.stringify(title));
      assert.match(
        r.stderr,
        /^mem: the title "[^\n]*" has no letters or digits; give a title with words, or none to use the first sentence\n$/,
      );
    }
    assert.deepEqual(entryIds(ws), []);
    // A letter of any script is a word: 分 is a title.
    const cjk = await mem(['-C', ws, '--json', 'remember', 'Deploys happen on Tuesdays', '--title', '分!']);
    assert.equal(cjk.code, 0, cjk.stderr);
  });

  test('the title is the first sentence that says something: a text opening with "..." is not titled ""', async (t) => {
    const ws = tempDir(t);
    await mem(['init', ws]);
    const r = await mem([
      '-C',
      ws,
      '--now',
      '2026-11-20T10:00:00Z',
      'remember',
      '... then we deploy on Tuesdays. Only then.',
    ]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      readFileSync(join(ws, 'memory', '2026-11-20.md'), 'utf8'),
      /^## Note: Then we deploy on Tuesdays\n- id: NOTE-20261120-then-we-deploy-on-tuesdays\n/m,
    );
  });
});

describe('write allowance (DESIGN §2)', () => {
  const CASES: Array<[string, Job[]]> = [
    [
      'memory/2026-11-21.md',
      ['microsync', 'remember', 'compound', 'forget', 'restore', 'confirm', 'import', 'status-fix'],
    ],
    ['MEMORY.md', ['init', 'compound', 'forget', 'restore', 'merge-finish']],
    ['memory/archive/weekly-2026-W47.md', ['compound', 'forget', 'restore', 'confirm', 'merge-finish']],
    ['memory/archive/2026-11-21.md', ['compound', 'forget', 'restore', 'confirm']],
    ['second-brain/summaries/2026-11-21-wrapup.md', ['wrapup', 'forget', 'restore', 'status-fix', 'merge-finish']],
    ['memory/recent/billing.md', ['compound', 'forget', 'restore', 'confirm', 'status-fix']],
    ['memory/.forgotten', ['microsync', 'forget']],
    [
      '.mem/cursors.json',
      ['microsync', 'remember', 'wrapup', 'compound', 'forget', 'restore', 'confirm', 'import', 'index'],
    ],
    [
      '.mem/usage.jsonl',
      ['microsync', 'remember', 'wrapup', 'compound', 'forget', 'restore', 'confirm', 'import', 'index', 'reader'],
    ],
    ['mem.local.json', ['init']],
    ['memory/.locks/x.md', []],
    ['src/index.ts', []],
  ];
  for (const [rel, allowed] of CASES) {
    test(`${rel}: only ${allowed.join(', ') || 'no job'}`, () => {
      assert.deepEqual(
        JOBS.filter((j) => mayWrite(j, rel)),
        allowed,
      );
    });
  }

  test('the writer refuses paths outside the allowance or the workspace, and writes inside it', async (t) => {
    const ws = tempDir(t);
    const outside = tempDir(t);
    mkdirSync(join(ws, 'memory'));
    symlinkSync(outside, join(ws, 'memory', 'archive'));
    const writer = (job: Job) => new WorkspaceWriter(ws, job, { waitMs: 1000, staleMs: 10_000 });
    const denied = async (job: Job, rel: string) => {
      await assert.rejects(
        writer(job).write(rel, 'x'),
        (e: unknown) => e instanceof MemError && e.code === 'WRITE_DENIED',
        `${job} ${rel}`,
      );
    };
    await denied('microsync', 'MEMORY.md');
    await denied('microsync', '../escape.md');
    await denied('microsync', 'memory/../../escape.md');
    await denied('remember', '/etc/memfold.md');
    await denied('remember', 'memory/2026-11-21.md\0.txt');
    await denied('compound', 'memory/archive/weekly-2026-W47.md');
    assert.deepEqual(snapshot(outside, () => false).size, 0, 'nothing written through the symlink');
    await writer('microsync').write('memory/2026-11-21.md', '# 2026-11-21\n');
    assert.equal(readFileSync(join(ws, 'memory', '2026-11-21.md'), 'utf8'), '# 2026-11-21\n');
  });
});
