/**
 * Many machines, one memory (docs/operations.md): real git repositories in temp dirs, two clones
 * adding entries to the same daily file, merged by `mem merge-driver` as set up by `mem init --git`;
 * and git.autoCommit committing exactly what a job changed.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { editConfig, mem, tempDir } from './helpers/cli.js';
import { git, GIT_ENV, gitOk } from './helpers/git.js';

const ok = gitOk;

const remember = async (ws: string, text: string) => {
  const r = await mem(['-C', ws, '--now', '2026-11-20T10:00:00Z', 'remember', text], { env: GIT_ENV });
  assert.equal(r.code, 0, r.stderr);
};

const ids = (text: string) => [...text.matchAll(/^- id: (\S+)$/gm)].map((m) => m[1]!);

describe('git', () => {
  test('two clones add entries to the same daily file; pull merges by id: every entry once, no conflict markers, newer status wins', async (t) => {
    const root = tempDir(t);
    const origin = join(root, 'origin.git');
    const a = join(root, 'laptop');
    const b = join(root, 'server');
    await ok(root, 'init', '-q', '--bare', '-b', 'main', origin);
    const init = await mem(['init', a, '--git', '--json'], { env: GIT_ENV });
    assert.equal(init.code, 0, init.stderr);
    assert.equal(JSON.parse(init.stdout).git.initialised, true);
    assert.match(readFileSync(join(a, '.gitattributes'), 'utf8'), /^memory\/\*\*\/\*\.md merge=memfold$/m);
    await ok(a, 'checkout', '-q', '-b', 'main');
    await remember(a, 'The shared base entry about invoices');
    await ok(a, 'add', '-A');
    await ok(a, 'commit', '-q', '-m', 'base');
    await ok(a, 'remote', 'add', 'origin', origin);
    await ok(a, 'push', '-q', '-u', 'origin', 'main');
    await ok(root, 'clone', '-q', origin, b);
    assert.equal((await mem(['init', b, '--git'], { env: GIT_ENV })).code, 0);
    assert.match(await ok(b, 'config', 'merge.memfold.driver'), /merge-driver %O %A %B %P/);

    for (const n of [1, 2, 3]) await remember(a, `Laptop fact ${n} about deploy windows`);
    await remember(a, 'Both machines learned the staging URL');
    const dailyA = join(a, 'memory', '2026-11-20.md');
    writeFileSync(
      dailyA,
      readFileSync(dailyA, 'utf8').replace(
        /(shared-base-entry-about-invoices\n(?:- .*\n)*?- status: )active/,
        '$1superseded',
      ),
    );
    await ok(a, 'commit', '-q', '-am', 'laptop');
    await ok(a, 'push', '-q');
    for (const n of [1, 2, 3]) await remember(b, `Server fact ${n} about backups`);
    await remember(b, 'Both machines learned the staging URL');
    await ok(b, 'add', '-A');
    await ok(b, 'commit', '-q', '-m', 'server');

    const pull = await git(b, 'pull', '--no-rebase', '--no-edit', '-q');
    assert.equal(pull.code, 0, pull.out);
    const merged = readFileSync(join(b, 'memory', '2026-11-20.md'), 'utf8');
    assert.doesNotMatch(merged, /^(<<<<<<<|=======|>>>>>>>)/m);
    const got = ids(merged);
    assert.equal(got.length, 8, merged);
    assert.equal(new Set(got).size, 8, 'every entry once');
    for (const want of [
      'laptop-fact-1',
      'laptop-fact-3',
      'server-fact-1',
      'server-fact-3',
      'both-machines-learned-the-staging-url',
      'shared-base-entry',
    ])
      assert.ok(
        got.some((id) => id.includes(want)),
        want,
      );
    assert.ok(
      got.indexOf(got.find((id) => id.includes('server-fact-1'))!) <
        got.indexOf(got.find((id) => id.includes('laptop-fact-1'))!),
      'ours first, then theirs, each in its order',
    );
    assert.match(merged, /shared-base-entry-about-invoices\n(?:- .*\n)*?- status: superseded/, 'the newer status wins');
    const lint = await mem(['-C', b, 'lint']);
    assert.equal(lint.code, 0, lint.stdout);

    await ok(b, 'push', '-q');
    await ok(a, 'pull', '-q', '--no-rebase', '--no-edit');
    assert.equal(readFileSync(dailyA, 'utf8'), merged, 'both machines hold the same file');
  });

  test("front matter and a preamble added on their branch stay at the top; add/add merges against git's empty base", async (t) => {
    const ws = join(tempDir(t), 'ws');
    assert.equal((await mem(['init', ws, '--git'], { env: GIT_ENV })).code, 0);
    await ok(ws, 'checkout', '-q', '-b', 'main');
    const e = (day: string, id: string) =>
      `## Note: ${id}\n- id: NOTE-${day.replaceAll('-', '')}-${id}\n- date: ${day}\n- status: active\n\n`;
    const daily = (day: string) => join(ws, 'memory', `${day}.md`);
    writeFileSync(daily('2026-11-20'), `# 2026-11-20\n\n${e('2026-11-20', 'base')}`);
    await ok(ws, 'add', '-A');
    await ok(ws, 'commit', '-q', '-m', 'base');
    await ok(ws, 'checkout', '-q', '-b', 'theirs');
    writeFileSync(
      daily('2026-11-20'),
      `---\ntags: [ops]\n---\n# 2026-11-20\n\nWritten on the server.\n\n${e('2026-11-20', 'base')}${e('2026-11-20', 'theirs')}`,
    );
    writeFileSync(daily('2026-11-21'), `---\ntags: [ops]\n---\n# 2026-11-21\n\n${e('2026-11-21', 'theirs')}`);
    await ok(ws, 'add', '-A');
    await ok(ws, 'commit', '-q', '-m', 'theirs');
    await ok(ws, 'checkout', '-q', 'main');
    writeFileSync(daily('2026-11-20'), `# 2026-11-20\n\n${e('2026-11-20', 'base')}${e('2026-11-20', 'ours')}`);
    writeFileSync(daily('2026-11-21'), `# 2026-11-21\n\n${e('2026-11-21', 'ours')}`);
    await ok(ws, 'add', '-A');
    await ok(ws, 'commit', '-q', '-m', 'ours');

    await ok(ws, 'merge', '-q', '--no-edit', 'theirs');
    assert.equal(
      readFileSync(daily('2026-11-20'), 'utf8'),
      `---\ntags: [ops]\n---\n# 2026-11-20\n\nWritten on the server.\n\n${e('2026-11-20', 'base')}${e('2026-11-20', 'ours')}${e('2026-11-20', 'theirs')}`,
    );
    assert.equal(
      readFileSync(daily('2026-11-21'), 'utf8'),
      `---\ntags: [ops]\n---\n# 2026-11-21\n\n${e('2026-11-21', 'ours')}${e('2026-11-21', 'theirs')}`,
    );
  });

  test('merge-driver refuses a missing or non-file base, ours or theirs with one line and exit 2, writing nothing; an empty base is fine', async (t) => {
    const dir = tempDir(t);
    const [base, ours, theirs] = ['base', 'ours', 'theirs'].map((n) => join(dir, n)) as [string, string, string];
    const none = await mem(['merge-driver', base, ours, theirs, 'memory/2026-11-20.md']);
    assert.equal(none.code, 2);
    assert.match(
      none.stderr,
      /^mem: the base file \S+ does not exist \(git runs "mem merge-driver %O %A %B %P" with three existing files\)\n$/,
    );
    assert.equal(existsSync(ours), false, 'nothing written');

    const day = '# 2026-11-20\n\n## Note: a\n- id: NOTE-20261120-a\n- status: active\n';
    writeFileSync(base, '');
    writeFileSync(ours, day);
    for (const [args, what] of [
      [[base, ours, join(dir, 'gone')], 'theirs'],
      [[base, dir, ours], 'ours'],
      [[join(dir, 'gone'), ours, ours], 'base'],
    ] as const) {
      const r = await mem(['merge-driver', ...args]);
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, new RegExp(`^mem: the ${what} file \\S+ (does not exist|is not a file) `));
      assert.equal(r.stderr.split('\n').length, 2, 'one line');
    }
    assert.equal(readFileSync(ours, 'utf8'), day, 'ours left as it was');

    writeFileSync(theirs, day.replace(/\ba\b/g, 'b'));
    const merged = await mem(['merge-driver', base, ours, theirs]);
    assert.equal(merged.code, 0, merged.stderr);
    assert.deepEqual(ids(readFileSync(ours, 'utf8')), ['NOTE-20261120-a', 'NOTE-20261120-b']);
  });

  test('merge-driver takes a text block after the entries that only their side edited in place of ours, not beside it', async (t) => {
    const dir = tempDir(t);
    const [base, ours, theirs] = ['base', 'ours', 'theirs'].map((n) => join(dir, n)) as [string, string, string];
    const e = (id: string) => `## Note: ${id}\n- id: NOTE-20261120-${id}\n- status: active\n\n`;
    const notes = (text: string) => `# Afternoon\n\n${text}\n`;
    writeFileSync(base, `# 2026-11-20\n\n${e('a')}${notes('Call with the vendor at 3.')}`);
    writeFileSync(ours, `# 2026-11-20\n\n${e('a')}${e('o')}${notes('Call with the vendor at 3.')}`);
    writeFileSync(theirs, `# 2026-11-20\n\n${e('a')}${notes('Call with the vendor moved to 4.')}`);
    const r = await mem(['merge-driver', base, ours, theirs, 'memory/2026-11-20.md']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(
      readFileSync(ours, 'utf8'),
      `# 2026-11-20\n\n${e('a')}${e('o')}${notes('Call with the vendor moved to 4.')}`,
    );
  });

  test('merge-driver drops a text block one side removed and the other left as it was; removed on one side and edited on the other, keeps the edit and warns in one line naming the file; exit 0', async (t) => {
    const dir = tempDir(t);
    const [base, ours, theirs] = ['base', 'ours', 'theirs'].map((n) => join(dir, n)) as [string, string, string];
    const e = (id: string) => `## Note: ${id}\n- id: NOTE-20261120-${id}\n- status: active\n\n`;
    const day = (...parts: string[]) => `# 2026-11-20\n\n${e('a')}${parts.join('')}`;
    const [afternoon, evening, edited] = [
      '# Afternoon\n\nCall with the vendor at 3.\n\n',
      '# Evening\n\nDeploy at 8.\n\n',
      '# Evening\n\nDeploy moved to 9.\n\n',
    ];
    writeFileSync(base, day(afternoon, evening));
    writeFileSync(ours, day(e('o'), afternoon, edited));
    writeFileSync(theirs, day(e('t')));
    const r = await mem(['merge-driver', base, ours, theirs, 'memory/2026-11-20.md']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(readFileSync(ours, 'utf8'), day(e('o'), edited, e('t')));
    assert.equal(
      r.stderr,
      'warning: merge-driver: memory/2026-11-20.md: text block "# Evening" changed on our side was removed on theirs: kept ours\n',
    );

    writeFileSync(ours, day(e('o')));
    writeFileSync(theirs, day(afternoon, edited));
    const mirrored = await mem(['merge-driver', base, ours, theirs, 'memory/2026-11-20.md']);
    assert.equal(mirrored.code, 0, mirrored.stderr);
    assert.equal(readFileSync(ours, 'utf8'), day(e('o'), edited));
    assert.equal(
      mirrored.stderr,
      'warning: merge-driver: memory/2026-11-20.md: text block "# Evening" changed on their side was removed on ours: kept theirs\n',
    );
  });

  test('merge-driver keeps both versions of a text block both sides edited differently, and warns in one line naming the file and the block; exit 0', async (t) => {
    const dir = tempDir(t);
    const [base, ours, theirs] = ['base', 'ours', 'theirs'].map((n) => join(dir, n)) as [string, string, string];
    const e = (id: string) => `## Note: ${id}\n- id: NOTE-20261120-${id}\n- status: active\n\n`;
    const notes = (text: string) => `# Afternoon\n\n${text}\n\n`;
    writeFileSync(base, `# 2026-11-20\n\n${e('a')}${notes('Call with the vendor at 3.')}`);
    writeFileSync(ours, `# 2026-11-20\n\n${e('a')}${notes('Call with the vendor moved to 4.')}${e('o')}`);
    writeFileSync(theirs, `# 2026-11-20\n\n${e('a')}${notes('Call with the vendor cancelled.')}${e('t')}`);
    const r = await mem(['merge-driver', base, ours, theirs, 'memory/2026-11-20.md']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(
      readFileSync(ours, 'utf8'),
      `# 2026-11-20\n\n${e('a')}${notes('Call with the vendor moved to 4.')}${e('o')}${notes('Call with the vendor cancelled.')}${e('t')}`,
    );
    assert.equal(
      r.stderr,
      'warning: merge-driver: memory/2026-11-20.md: both sides changed text block "# Afternoon" differently: kept both, ours first\n',
    );
  });

  test('merge-driver merges front matter both sides changed key by key, and warns in one line naming the file and the key where theirs was dropped; exit 0', async (t) => {
    const dir = tempDir(t);
    const [base, ours, theirs] = ['base', 'ours', 'theirs'].map((n) => join(dir, n)) as [string, string, string];
    const day = (yaml: string) =>
      `---\n${yaml}---\n# 2026-11-20\n\n## Note: a\n- id: NOTE-20261120-a\n- status: active\n`;
    writeFileSync(base, day('title: Day\ntags: [ops]\n'));
    writeFileSync(ours, day('title: Day\ntags: [ops, deploy]\n'));
    writeFileSync(theirs, day('title: Deploy day\ntags: [ops]\n'));
    const clean = await mem(['merge-driver', base, ours, theirs, 'memory/2026-11-20.md']);
    assert.equal(clean.code, 0, clean.stderr);
    assert.equal(clean.stderr, '');
    assert.equal(readFileSync(ours, 'utf8'), day('title: Deploy day\ntags: [ops, deploy]\n'));

    writeFileSync(ours, day('title: Day\ntags: [mine]\n'));
    writeFileSync(theirs, day('title: Deploy day\ntags: [theirs]\n'));
    const both = await mem(['merge-driver', base, ours, theirs, 'memory/2026-11-20.md']);
    assert.equal(both.code, 0, both.stderr);
    assert.equal(
      both.stderr,
      'warning: merge-driver: memory/2026-11-20.md: both sides changed front matter key tags differently: kept ours, theirs dropped\n',
    );
    assert.equal(readFileSync(ours, 'utf8'), day('title: Deploy day\ntags: [mine]\n'));
  });

  test('git merge keeps every entry of an id one side holds twice, ours or theirs, and warns in one line naming the file and the id; exit 0', async (t) => {
    const ws = join(tempDir(t), 'ws');
    assert.equal((await mem(['init', ws, '--git'], { env: GIT_ENV })).code, 0);
    await ok(ws, 'checkout', '-q', '-b', 'main');
    const daily = join(ws, 'memory', '2026-11-20.md');
    const rule = (conclusion: string) =>
      `## Rule: Deploys\n- id: RULE-20261120-deploys-happen-on-tuesdays-only\n- date: 2026-11-20\n- conclusion: ${conclusion}\n- status: active\n\n`;
    const note = (id: string) => `## Note: ${id}\n- id: NOTE-20261120-${id}\n- date: 2026-11-20\n- status: active\n\n`;
    const commit = async (text: string, message: string) => {
      writeFileSync(daily, `# 2026-11-20\n\n${text}`);
      await ok(ws, 'add', '-A');
      await ok(ws, 'commit', '-q', '-m', message);
    };
    await commit(rule('Tuesdays only'), 'base');
    await ok(ws, 'checkout', '-q', '-b', 'theirs');
    await commit(rule('Tuesdays only') + note('theirs') + rule('Thursdays too'), 'theirs');
    await ok(ws, 'checkout', '-q', 'main');
    await commit(rule('Tuesdays only') + rule('Wednesdays now'), 'ours');

    const merge = await git(ws, 'merge', '--no-edit', 'theirs');
    assert.equal(merge.code, 0, merge.out);
    assert.equal(
      readFileSync(daily, 'utf8'),
      `# 2026-11-20\n\n${rule('Tuesdays only')}${rule('Wednesdays now')}${note('theirs')}${rule('Thursdays too')}`,
    );
    const warnings = merge.out.split('\n').filter((l) => l.startsWith('warning: merge-driver'));
    assert.deepEqual(warnings, [
      'warning: merge-driver: memory/2026-11-20.md: id RULE-20261120-deploys-happen-on-tuesdays-only is held by entries with different text: kept each; give each its own id by hand',
    ]);
  });

  test('a side that is not UTF-8 is not merged: git merge leaves ours byte for byte as a conflict, the driver says why in one line', async (t) => {
    const ws = join(tempDir(t), 'ws');
    assert.equal((await mem(['init', ws, '--git'], { env: GIT_ENV })).code, 0);
    await ok(ws, 'checkout', '-q', '-b', 'main');
    const daily = join(ws, 'memory', '2026-11-20.md');
    const e = (id: string) => `## Note: ${id}\n- id: NOTE-20261120-${id}\n- date: 2026-11-20\n- status: active\n\n`;
    const commit = async (bytes: Buffer, message: string) => {
      writeFileSync(daily, bytes);
      await ok(ws, 'add', '-A');
      await ok(ws, 'commit', '-q', '-m', message);
    };
    await commit(Buffer.from(`# 2026-11-20\n\n${e('a')}`), 'base');
    await ok(ws, 'checkout', '-q', '-b', 'theirs');
    await commit(Buffer.from(`# 2026-11-20\n\n${e('a')}${e('t')}`), 'theirs');
    await ok(ws, 'checkout', '-q', 'main');
    const ours = Buffer.concat([
      Buffer.from(`# 2026-11-20\n\n${e('a')}`),
      Buffer.from('## Note: Caf\xe9\n', 'latin1'),
      Buffer.from(e('cafe').split('\n').slice(1).join('\n')),
    ]);
    await commit(ours, 'ours');

    const merge = await git(ws, 'merge', '--no-edit', 'theirs');
    assert.notEqual(merge.code, 0, merge.out);
    assert.deepEqual(readFileSync(daily), ours, 'ours byte for byte, no U+FFFD');
    assert.match(await ok(ws, 'status', '--porcelain'), /^UU memory\/2026-11-20\.md$/m);
    assert.deepEqual(
      merge.out.split('\n').filter((l) => l.includes('UTF-8')),
      [
        'mem: merge-driver: memory/2026-11-20.md: line 8 of ours is not valid UTF-8, so it was not merged: left as ours, a conflict for git; convert the file to UTF-8 (e.g. iconv -f latin1 -t utf-8) on each branch and merge again',
      ],
    );
  });

  test('merge-driver on CRLF files writes CRLF throughout, no LF-only line', async (t) => {
    const dir = tempDir(t);
    const [base, ours, theirs] = ['base', 'ours', 'theirs'].map((n) => join(dir, n)) as [string, string, string];
    const e = (id: string) => `## Note: ${id}\r\n- id: NOTE-20261120-${id}\r\n- status: active\r\n`;
    writeFileSync(base, `---\r\ntags: [ops]\r\n---\r\n# 2026-11-20\r\n\r\n${e('a')}`);
    writeFileSync(ours, `---\r\ntags: [ops]\r\n---\r\n# 2026-11-20\r\n\r\n${e('a')}\r\n${e('o')}`);
    writeFileSync(theirs, `---\r\ntags: [ops]\r\n---\r\n# 2026-11-20\r\n\r\n${e('a')}${e('t')}`);
    const r = await mem(['merge-driver', base, ours, theirs, 'memory/2026-11-20.md']);
    assert.equal(r.code, 0, r.stderr);
    const merged = readFileSync(ours, 'utf8');
    assert.deepEqual(ids(merged.replaceAll('\r\n', '\n')), ['NOTE-20261120-a', 'NOTE-20261120-o', 'NOTE-20261120-t']);
    assert.doesNotMatch(merged, /(?<!\r)\n/, JSON.stringify(merged));
  });

  test('git.autoCommit commits exactly the files a job changed, and skips when the index holds unrelated staged changes', async (t) => {
    const ws = join(tempDir(t), 'ws');
    assert.equal((await mem(['init', ws, '--git'], { env: GIT_ENV })).code, 0);
    editConfig(ws, (cfg) => (cfg.git = { autoCommit: true }));
    writeFileSync(join(ws, 'notes.txt'), 'not memfold\n');
    await ok(ws, 'add', '-A', '--', '.gitignore', '.gitattributes', 'mem.config.json', 'MEMORY.md');
    await ok(ws, 'commit', '-q', '-m', 'init');
    await remember(ws, 'Deploys happen on Tuesdays only');
    const log = await ok(ws, 'log', '-1', '--name-only', '--format=%s');
    assert.match(log, /^mem remember: 1 entry added, 1 file changed$/m);
    assert.deepEqual(log.trim().split('\n').slice(1).filter(Boolean), ['memory/2026-11-20.md']);
    assert.match(await ok(ws, 'status', '--porcelain'), /^\?\? notes\.txt$/m, 'an unrelated file is left alone');

    await ok(ws, 'add', 'notes.txt');
    const r = await mem(['-C', ws, '--now', '2026-11-20T11:00:00Z', 'remember', 'Releases freeze on Fridays'], {
      env: GIT_ENV,
    });
    assert.equal(r.code, 0);
    assert.match(r.stderr, /git\.autoCommit skipped: the index has unrelated staged changes/);
    assert.match(await ok(ws, 'log', '-1', '--format=%s'), /^mem remember: 1 entry added/);
    assert.equal((await ok(ws, 'rev-list', '--count', 'HEAD')).trim(), '2', 'no commit made');
  });
});

describe('merge by id (pure)', async () => {
  const merge = (await import('../src/git/merge-entries.js')).mergeMemoryFile;
  const mergeMemoryFile = (base: string, ours: string, theirs: string) => merge(base, ours, theirs).text;
  const e = (id: string, extra = '') =>
    `## Note: ${id}\n- id: NOTE-20261120-${id}\n- date: 2026-11-20\n- status: active\n${extra}`;
  const file = (...es: string[]) => `# 2026-11-20\n\n${es.join('\n')}`;

  test('identical sides merge to themselves, byte for byte', () => {
    const x = file(e('a'), e('b'));
    assert.equal(mergeMemoryFile(file(e('a')), x, x), x);
  });

  test('an entry removed on one side (hard forget) stays removed', () => {
    const merged = mergeMemoryFile(file(e('a'), e('b')), file(e('a')), file(e('a'), e('b'), e('c')));
    assert.deepEqual(ids(merged), ['NOTE-20261120-a', 'NOTE-20261120-c']);
  });

  test('front matter or a preamble changed on one side stays at the top; changed on both, ours wins and their new text blocks follow ours', () => {
    const fm = (tags: string) => `---\ntags: [${tags}]\n---\n`;
    assert.equal(
      mergeMemoryFile(file(e('a')), file(e('a'), e('o')), fm('ops') + file(e('a'), e('t'))),
      fm('ops') + file(e('a'), e('o'), e('t')),
    );
    assert.equal(
      mergeMemoryFile(file(e('a')), fm('ops') + file(e('a'), e('o')), file(e('a'), e('t'))),
      fm('ops') + file(e('a'), e('o'), e('t')),
    );
    assert.equal(
      mergeMemoryFile(fm('x') + file(e('a')), fm('ours') + file(e('a')), fm('theirs') + file(e('a'), e('t'))),
      fm('ours') + file(e('a'), e('t')),
    );
    assert.equal(
      mergeMemoryFile(fm('x') + file(e('a')), file(e('a')), fm('x') + file(e('a'), e('t'))),
      file(e('a'), e('t')),
      'front matter removed on our side stays removed',
    );

    const intro = (text: string, ...es: string[]) => `# 2026-11-20\n\n${text}\n\n${es.join('\n')}`;
    assert.equal(
      mergeMemoryFile(file(e('a')), file(e('a'), e('o')), intro('Their intro.', e('a'))),
      intro('Their intro.', e('a'), e('o')),
      'an edited preamble replaces the old one',
    );
    assert.equal(
      mergeMemoryFile(
        file(e('a')),
        intro('Our intro.', e('a')),
        `${intro('Their intro.')}## Context\n\nFrom the server.\n\n${e('a')}`,
      ),
      `${intro('Our intro.')}${intro('Their intro.')}## Context\n\nFrom the server.\n\n${e('a')}`,
      'changed on both: ours, then each of their preamble blocks (a heading and its text) that we and the base lack; nothing lost',
    );
  });

  test('a text block after an entry one side removed is kept once, whichever side removed it', () => {
    const notes = '# Afternoon\n\nhand notes from the call\n';
    const base = file(e('a'), notes, e('b'));
    for (const [ours, theirs] of [
      [file(e('a'), notes, e('b'), e('c')), file(notes, e('b'))],
      [file(notes, e('b')), file(e('a'), notes, e('b'), e('c'))],
    ]) {
      const merged = mergeMemoryFile(base, ours!, theirs!);
      assert.equal(merged.split('hand notes from the call').length - 1, 1, merged);
      assert.deepEqual(ids(merged), ['NOTE-20261120-b', 'NOTE-20261120-c']);
    }
  });

  test("front matter both sides changed merges key by key: one side's change wins; a key both changed keeps ours and is reported; a block that does not split by key is ours, reported whole", () => {
    const fm = (yaml: string) => `---\n${yaml}---\n${file(e('a'))}`;
    const base = fm('# from the daily template\ntitle: Day\ntags:\n  - ops\nsource: laptop\n');
    assert.deepEqual(
      merge(
        base,
        fm('# from the daily template\ntitle: Day\ntags:\n  - ops\n  - deploy\n'),
        fm(
          '# from the daily template, edited\ntitle: Deploy day\nsummary: "the release"\ntags:\n  - ops\nsource: laptop\n',
        ),
      ),
      {
        text: fm(
          '# from the daily template, edited\ntitle: Deploy day\nsummary: "the release"\ntags:\n  - ops\n  - deploy\n',
        ),
      },
      'changed, added, removed on one side each; comments and layout kept; a key only theirs has follows the key it follows in theirs',
    );
    assert.deepEqual(
      merge(
        fm('title: Day\ntags: [ops]\nsource: laptop\n'),
        fm('title: Day\ntags: [mine]\nsource: laptop\n'),
        fm('title: Their day\ntags: [theirs]\n'),
      ),
      { text: fm('title: Their day\ntags: [mine]\n'), frontMatterConflict: { keys: ['tags'] } },
    );
    assert.deepEqual(
      merge(file(e('a')), fm('tags: [mine]\n'), fm('title: T\ntags: [theirs]\n')),
      { text: fm('title: T\ntags: [mine]\n'), frontMatterConflict: { keys: ['tags'] } },
      'added on both sides',
    );
    assert.deepEqual(
      merge(fm('a: &x 1\nb: *x\n'), fm('a: &x 2\nb: *x\n'), fm('a: &x 1\nb: 3\n')),
      { text: fm('a: &x 2\nb: *x\n'), frontMatterConflict: { keys: [] } },
      'an alias ties keys together',
    );
    assert.deepEqual(
      merge(fm('{a: 1}\n'), fm('{a: 2}\n'), fm('{a: 1, b: 1}\n')),
      { text: fm('{a: 2}\n'), frontMatterConflict: { keys: [] } },
      'a flow mapping',
    );
    assert.deepEqual(
      merge(base, fm('title: Day\n'), base),
      { text: fm('title: Day\n') },
      'one side changed: no key merge, nothing reported',
    );
  });

  test("a text block only one side edited takes that side's version in its place; edited on both, ours stays and theirs follows", () => {
    const notes = (text: string) => `# Afternoon\n\n${text}\n`;
    const cases: [string, string, string, string, string][] = [
      [
        'theirs edited it',
        file(e('a'), notes('old')),
        file(e('a'), notes('old'), e('o')),
        file(e('a'), notes('new'), e('t')),
        file(e('a'), notes('new'), e('o'), e('t')),
      ],
      [
        'theirs edited it and its heading',
        file(e('a'), notes('old')),
        file(e('a'), notes('old'), e('o')),
        file(e('a'), '# Evening\n\nnew\n'),
        file(e('a'), '# Evening\n\nnew\n', e('o')),
      ],
      [
        'ours edited it',
        file(e('a'), notes('old')),
        file(e('a'), notes('new')),
        file(e('a'), notes('old'), e('t')),
        file(e('a'), notes('new'), e('t')),
      ],
      [
        'theirs edited it, ours removed the entry before it',
        file(e('a'), notes('old'), e('b')),
        file(notes('old'), e('b')),
        file(e('a'), notes('new'), e('b')),
        file(notes('new'), e('b')),
      ],
      [
        'ours edited it, theirs removed the entry before it',
        file(e('a'), notes('old'), e('b')),
        file(e('a'), notes('new'), e('b')),
        file(notes('old'), e('b')),
        file(notes('new'), e('b')),
      ],
      [
        'both edited it',
        file(e('a'), notes('old')),
        file(e('a'), notes('ours')),
        file(e('a'), notes('theirs')),
        file(e('a'), notes('ours'), notes('theirs')),
      ],
    ];
    for (const [what, base, ours, theirs, want] of cases) assert.equal(mergeMemoryFile(base, ours, theirs), want, what);
    const head = (intro: string, context: string) => `# 2026-11-20\n\n${intro}\n\n## Context\n\n${context}\n\n`;
    assert.equal(
      mergeMemoryFile(
        head('Intro.', 'old') + e('a'),
        head('Our intro.', 'old') + e('a'),
        head('Intro.', 'new') + e('a'),
      ),
      head('Our intro.', 'new') + e('a'),
      'a preamble both changed, each in a different block',
    );
  });

  test('a text block one side removed and the other left as in the base goes; removed on one side and edited on the other, the edit stays and is reported', () => {
    const notes = (text: string) => `# Afternoon\n\n${text}\n`;
    const base = file(e('a'), notes('old'), e('b'));
    const cases: [string, string, string, string][] = [
      [
        'theirs removed it',
        file(e('a'), notes('old'), e('b'), e('o')),
        file(e('a'), e('b'), e('t')),
        file(e('a'), e('b'), e('o'), e('t')),
      ],
      [
        'ours removed it',
        file(e('a'), e('b'), e('o')),
        file(e('a'), notes('old'), e('b'), e('t')),
        file(e('a'), e('b'), e('o'), e('t')),
      ],
      ['theirs removed it and the entry before it', file(e('a'), notes('old'), e('b')), file(e('b')), file(e('b'))],
      [
        'theirs removed it, ours edited another block',
        file(e('a'), notes('old'), e('b'), '# Evening\n\nnew\n'),
        file(e('a'), e('b')),
        file(e('a'), e('b'), '# Evening\n\nnew\n'),
      ],
    ];
    for (const [what, ours, theirs, want] of cases) assert.deepEqual(merge(base, ours, theirs), { text: want }, what);
    const head = (intro: string, context?: string) =>
      `# 2026-11-20\n\n${intro}\n\n${context === undefined ? '' : `## Context\n\n${context}\n\n`}`;
    assert.deepEqual(
      merge(head('Intro.', 'old') + e('a'), head('Our intro.', 'old') + e('a'), head('Intro.') + e('a')),
      { text: head('Our intro.') + e('a') },
      'a preamble both changed: ours edited one block, theirs removed another',
    );

    assert.deepEqual(
      merge(base, file(e('a'), notes('new'), e('b')), file(e('a'), e('b'), e('t'))),
      { text: file(e('a'), notes('new'), e('b'), e('t')), textConflicts: [{ block: '# Afternoon', edited: 'ours' }] },
      'ours edited it, theirs removed it',
    );
    assert.deepEqual(
      merge(base, file(e('a'), e('b'), e('o')), file(e('a'), notes('new'), e('b'))),
      {
        text: file(e('a'), e('b'), e('o'), `${notes('new')}\n`),
        textConflicts: [{ block: '# Afternoon', edited: 'theirs' }],
      },
      'theirs edited it, ours removed it: their edit follows our entries',
    );
  });

  test('a text block both sides edited differently is kept twice, ours first, and reported by its heading or first words; edited the same way, once and not reported', () => {
    const notes = (text: string) => `# Afternoon\n\n${text}\n`;
    const base = file(e('a'), notes('old'), e('b'));
    assert.deepEqual(merge(base, file(e('a'), notes('ours'), e('b')), file(e('a'), notes('theirs'), e('b'), e('t'))), {
      text: file(e('a'), notes('ours'), e('b'), notes('theirs'), e('t')),
      textConflicts: [{ block: '# Afternoon', edited: 'both' }],
    });
    assert.deepEqual(merge(base, file(e('a'), notes('new'), e('b')), file(e('a'), notes('new'), e('b'), e('t'))), {
      text: file(e('a'), notes('new'), e('b'), e('t')),
    });
    const intro = (text: string) =>
      `Notes from the call with the vendor about the renewal of the support contract${text}.\n\n${e('a')}`;
    assert.deepEqual(
      merge(intro(''), intro(', ours'), intro(', theirs')),
      {
        text: intro(', ours').replace(e('a'), '') + intro(', theirs'),
        textConflicts: [{ block: 'Notes from the call with the vendor about the renewal of…', edited: 'both' }],
      },
      'a block without a heading is named by its first words',
    );
  });

  test('a side that removed one text block and edited the next: the edit is recognised by its heading, not taken for an edit of the removed block', () => {
    const [afternoon, evening] = [
      (text: string) => `# Afternoon\n\n${text}\n`,
      (text: string) => `# Evening\n\n${text}\n`,
    ];
    const base = file(e('a'), afternoon('Call at 3.'), evening('Deploy at 8.'), e('b'));
    const theirs = file(e('a'), evening('Deploy cancelled.'), e('b'), e('t'));
    assert.deepEqual(
      merge(base, file(e('a'), afternoon('Call moved to 4.'), evening('Deploy at 8.'), e('b')), theirs),
      {
        text: file(e('a'), afternoon('Call moved to 4.'), evening('Deploy cancelled.'), e('b'), e('t')),
        textConflicts: [{ block: '# Afternoon', edited: 'ours' }],
      },
      "ours edited the block they removed: their edit of the next one takes that one's place",
    );
    assert.deepEqual(
      merge(base, file(e('a'), afternoon('Call at 3.'), evening('Deploy moved to 9.'), e('b'), e('o')), theirs),
      {
        text: file(e('a'), evening('Deploy moved to 9.'), e('b'), e('o'), evening('Deploy cancelled.'), e('t')),
        textConflicts: [{ block: '# Evening', edited: 'both' }],
      },
      'both edited the next one: the removed block goes, both edits stay, and the warning names the block both edited',
    );
  });

  test("line endings: CRLF sides merge to CRLF; mixed sides take ours' ending, and a block differing only in line endings is one block", () => {
    const crlf = (text: string) => text.replaceAll('\n', '\r\n');
    const [base, ours, theirs] = [file(e('a')), file(e('a'), e('o')), `---\ntags: [ops]\n---\n${file(e('a'), e('t'))}`];
    const lf = mergeMemoryFile(base, ours, theirs);
    assert.equal(lf, `---\ntags: [ops]\n---\n${file(e('a'), e('o'), e('t'))}`);
    assert.equal(mergeMemoryFile(crlf(base), crlf(ours), crlf(theirs)), crlf(lf));
    assert.equal(mergeMemoryFile(base, crlf(ours), theirs), crlf(lf), 'ours CRLF, base and theirs LF');
    assert.equal(mergeMemoryFile(crlf(base), ours, crlf(theirs)), lf, 'ours LF, base and theirs CRLF');
    assert.equal(
      mergeMemoryFile(crlf(base), '', crlf(theirs)),
      crlf(mergeMemoryFile(base, '', theirs)),
      "ours without a line break: theirs' ending",
    );
  });

  test("an id a side holds in several entries is merged by the entries' text: every version a side wrote stays, a version one side removed or edited goes, identical copies once", () => {
    const v = (conclusion: string) => e('a', `- conclusion: ${conclusion}\n`);
    const cases: [string, string, string, string, string][] = [
      [
        'ours added a second one',
        file(v('1')),
        file(v('1'), v('2')),
        file(v('1'), e('t')),
        file(v('1'), v('2'), e('t')),
      ],
      [
        'theirs added a second one',
        file(v('1')),
        file(v('1'), e('o')),
        file(v('1'), v('2')),
        file(v('1'), e('o'), v('2')),
      ],
      [
        'theirs added one before the first, and edited the first',
        file(v('1')),
        file(v('1')),
        file(v('2'), v('1 edited')),
        file(v('2'), v('1 edited')),
      ],
      [
        'ours edited one of two, theirs edited the other',
        file(v('1'), v('2')),
        file(v('1 ours'), v('2')),
        file(v('1'), v('2 theirs')),
        file(v('1 ours'), v('2 theirs')),
      ],
      [
        'both edited the same one differently',
        file(v('1'), v('2')),
        file(v('1 ours'), v('2')),
        file(v('1 theirs'), v('2')),
        file(v('1 ours'), v('2'), v('1 theirs')),
      ],
      [
        'theirs removed one copy',
        file(v('1'), v('2')),
        file(v('1'), v('2'), e('o')),
        file(v('1')),
        file(v('1'), e('o')),
      ],
      ['identical copies', file(v('1')), file(v('1'), v('1')), file(v('1'), v('1')), file(v('1'))],
    ];
    // A version taken from the middle of a side keeps the blank line after it.
    for (const [what, base, ours, theirs, want] of cases)
      assert.equal(mergeMemoryFile(base, ours, theirs).trimEnd(), want.trimEnd(), what);
    assert.deepEqual(merge(file(v('1')), file(v('1'), v('2')), file(v('1'))).sharedIds, ['NOTE-20261120-a']);
    assert.equal(
      merge(file(v('1')), file(v('1'), v('1')), file(v('1'))).sharedIds,
      undefined,
      'identical copies: nothing to report',
    );
  });

  test('the same new id with different content on both sides keeps both; the same entry keeps it in either order: the earlier source timestamp, then the smaller hash', () => {
    const [x, y] = [e('a', '- conclusion: one\n'), e('a', '- conclusion: two\n')];
    const keeper = (merged: string) => /- id: NOTE-20261120-a\n(?:.*\n)*?- conclusion: (\w+)/.exec(merged)![1];
    const [xy, yx] = [mergeMemoryFile(file(), file(x), file(y)), mergeMemoryFile(file(), file(y), file(x))];
    assert.deepEqual(ids(xy).sort(), ['NOTE-20261120-a', 'NOTE-20261120-a-2']);
    assert.equal(keeper(xy), keeper(yx), 'either merge order gives the bare id to the same entry');
    const cited = mergeMemoryFile(file(), file(x, e('b', '- supersedes: NOTE-20261120-a\n')), file(y));
    assert.match(
      cited,
      new RegExp(`- supersedes: NOTE-20261120-a${keeper(xy) === 'one' ? '' : '-2'}\n`),
      "the renamed side's citations follow its entry",
    );
    const at = (time: string, text: string) =>
      e('a', `- source:\n  - session_id: s\n  - timestamp: ${time}\n- conclusion: ${text}\n`);
    for (const [ours, theirs] of [
      [at('2026-11-20T09:00:00Z', 'early'), at('2026-11-20T08:00:00Z', 'earlier')],
      [at('2026-11-20T08:00:00Z', 'earlier'), at('2026-11-20T09:00:00Z', 'early')],
    ]) {
      assert.equal(keeper(mergeMemoryFile(file(), file(ours!), file(theirs!))), 'earlier');
    }
    const based = mergeMemoryFile(file(x), file(x.replace('one', 'one, ours')), file(x.replace('one', 'one, theirs')));
    assert.deepEqual(
      ids(based),
      ['NOTE-20261120-a'],
      'an id the base holds keeps its meaning: one entry, merged by field',
    );
  });
});

describe('field, section and item merges (pure)', async () => {
  const { mergeEntryFields } = await import('../src/git/merge-fields.js');
  const { mergeSections } = await import('../src/git/merge-sections.js');
  const { mergeMemoryMd } = await import('../src/git/merge-memory-md.js');

  test('an entry merges field by field in either order; a title both changed keeps ours and records theirs; status keeps the value further along', () => {
    const e = (title: string, fields: string) => `## Note: ${title}\n- id: NOTE-20261120-a\n${fields}\n`;
    const base = e('Deploy windwo', '- conclusion: windwo\n- status: active');
    const [typo, flip] = [
      e('Deploy window', '- conclusion: window\n- status: active'),
      e('Deploy windwo', '- conclusion: windwo\n- status: superseded\n- superseded_by: NOTE-20261121-b'),
    ];
    const want = e('Deploy window', '- conclusion: window\n- status: superseded\n- superseded_by: NOTE-20261121-b');
    assert.deepEqual(mergeEntryFields(base, typo, flip), { raw: want, conflicts: [] });
    assert.deepEqual(mergeEntryFields(base, flip, typo), { raw: want, conflicts: [] });
    assert.deepEqual(
      mergeEntryFields(
        base,
        e('Ours', '- conclusion: windwo\n- status: archived'),
        e('Theirs', '- conclusion: windwo\n- status: retracted'),
      ),
      {
        raw: e(
          'Ours',
          '- conclusion: windwo\n- status: retracted\n- merge_conflict:\n  - title: Theirs\n  - status: archived',
        ),
        conflicts: ['title', 'status'],
      },
    );
    assert.equal(mergeEntryFields(base, e('x', '```\n- id: y\n```'), flip), undefined, 'a fenced block: not split');
  });

  test('sections merge by heading: new ones after ours under the same heading, lines removed since the base stay removed, "- (none)" goes once a section has an item', () => {
    const doc = (...parts: string[]) => `# Wrap-up\n\n${parts.join('\n')}`;
    const base = doc('## Notes\n- (none)\n', '## Open\n- forgotten title\n- kept\n');
    const ours = doc('## Notes\n- ours\n', '## Open\n- kept\n', '### Session a\n- a\n');
    const theirs = doc(
      '## Notes\n- theirs\n',
      '## Open\n- forgotten title\n- kept\n- theirs\n',
      '### Session b\n- b\n',
    );
    assert.equal(
      mergeSections(base, ours, theirs),
      doc(
        '## Notes\n- ours\n- theirs\n',
        '## Open\n- kept\n- theirs\n',
        '### Session a\n- a\n',
        '### Session b\n- b\n',
      ),
    );
    assert.equal(
      mergeSections('', doc('## Run 1\n- x\n'), doc('## Run 2\n- y\n')),
      doc('## Run 1\n- x\n', '## Run 2\n- y\n'),
      'add/add: the header once',
    );
  });

  test('MEMORY.md merges by cited item; an item one side dropped goes; a file compound did not write is left to the section merge', () => {
    const item = (id: string) => `- Text ${id} ([NOTE-20261120-${id}](memory/2026-11-20.md#note-${id}))`;
    const memory = (...items: string[]) =>
      `# MEMORY\n\n<!-- mem:generated by memfold compound · 2026-W47 · rewritten weekly: edit only between the pinned markers · input 0123456789abcdef -->\nHot memory for agent sessions, rebuilt by \`mem compound\` from \`memory/\`. Every item cites its entry id (\`mem get <id>\`).\n\n<!-- mem:pinned:start -->\n<!-- mem:pinned:end -->\n\n${items.length ? `## Notes\n${items.join('\n')}\n\n` : ''}## Where to look\n- What changed and why: \`memory/archive/weekly-2026-W47.md\`.\n`;
    assert.equal(
      mergeMemoryMd(
        memory(item('a'), item('b')),
        memory(item('a'), item('b'), item('o')),
        memory(item('b'), item('t')),
      ),
      memory(item('b'), item('o'), item('t')),
    );
    assert.equal(mergeMemoryMd('', '# My notes\n', memory(item('t'))), undefined);
  });
});
