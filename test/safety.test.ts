/**
 * Nothing lost, nothing doubled, nothing half-written (DESIGN §7, §9): real processes racing for real
 * locks, a writer SIGKILLed in the middle of a write, and every kind of bad input ending in one line.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { acquireLock } from '../src/write/locks.js';
import {
  dailyText,
  editConfig,
  entryIds,
  exampleWorkspace,
  finished,
  mem,
  snapshot,
  startMem,
  tempDir,
  waitForStderr,
} from './helpers/cli.js';

const NOW = '2026-11-22T09:00:00Z';
const ALL = ['microsync', '--since', 'all', '--now', NOW];

function oneLineError(stderr: string): void {
  assert.match(stderr, /^mem: [^\n]+\n$/, `expected one error line, got:\n${stderr}`);
  assert.doesNotMatch(stderr, /\n\s+at /, 'no stack trace');
}

describe('concurrent runs', () => {
  test('two microsync processes at once: every entry once, files as after one run', async (t) => {
    const a = exampleWorkspace(t);
    const b = exampleWorkspace(t);
    await mem(['-C', a.ws, ...ALL]);
    const [r1, r2] = await Promise.all([mem(['-C', b.ws, ...ALL]), mem(['-C', b.ws, ...ALL])]);
    assert.equal(r1.code, 0, r1.stderr);
    assert.equal(r2.code, 0, r2.stderr);
    const ids = entryIds(b.ws);
    assert.equal(new Set(ids).size, ids.length, 'no duplicate id');
    assert.deepEqual(ids, entryIds(a.ws));
    const daily = (ws: string) =>
      new Map(
        [...snapshot(join(ws, 'memory'))]
          .filter(([f]) => f.endsWith('.md'))
          .map(([f, text]) => [f, text.replaceAll(a.root, '<root>').replaceAll(b.root, '<root>')]),
      );
    assert.deepEqual(daily(b.ws), daily(a.ws));
  });

  test('remember and microsync appending to the same day never lose each other', async (t) => {
    const { ws } = exampleWorkspace(t);
    const notes = Array.from({ length: 6 }, (_, i) => `Release train ${i} leaves at ${10 + i}:00 sharp`);
    const runs = [
      mem(['-C', ws, ...ALL]),
      ...notes.map((n) => mem(['-C', ws, '--now', '2026-11-20T18:00:00Z', 'remember', n])),
    ];
    for (const r of await Promise.all(runs)) assert.equal(r.code, 0, r.stderr);
    const ids = entryIds(ws);
    assert.equal(ids.length, 9 + notes.length, ids.join('\n'));
    assert.equal(new Set(ids).size, ids.length);
    for (let i = 0; i < notes.length; i++)
      assert.ok(ids.includes(`NOTE-20261120-release-train-${i}-leaves-at-${10 + i}-00-sharp`));
  });

  test('a busy job lock makes the second run wait a bounded time, then exit 3 with a clear line', async (t) => {
    const { ws } = exampleWorkspace(t);
    editConfig(ws, (cfg) => (cfg.limits = { lockWaitMs: 300 }));
    const held = await acquireLock(ws, 'microsync', { waitMs: 0, staleMs: 60_000 });
    try {
      const r = await mem(['-C', ws, ...ALL]);
      assert.equal(r.code, 3);
      oneLineError(r.stderr);
      assert.match(r.stderr, /another "microsync" run holds memory\/\.locks\/microsync\.lock; waited 0s/);
      assert.deepEqual(entryIds(ws), []);
    } finally {
      await held.release();
    }
    assert.equal((await mem(['-C', ws, ...ALL])).code, 0);
    assert.equal(entryIds(ws).length, 9);
  });
});

describe('a process killed mid-write', () => {
  test('leaves the previous file intact; the next run sweeps the temp file and lands everything', async (t) => {
    const { ws } = exampleWorkspace(t);
    // The killed run's job lock turns stale after 2 s and is reclaimed by the next run.
    editConfig(ws, (cfg) => (cfg.limits = { lockStaleMs: 2000, lockUpdateMs: 500, lockWaitMs: 6000 }));
    assert.equal((await mem(['-C', ws, 'microsync', '--since', 'all', '--source', 'claude', '--now', NOW])).code, 0);
    const file = join(ws, 'memory', '2026-11-20.md');
    const before = readFileSync(file, 'utf8');

    // The codex session appends to the same day; the writer is stopped halfway through its temp file.
    const child = startMem(['-C', ws, 'microsync', '--since', 'all', '--source', 'codex', '--now', NOW], {
      env: { MEM_TEST_HOOKS: '1', MEM_FAULT: 'pause-mid-write' },
    });
    const done = finished(child);
    await waitForStderr(child, 'mem-fault: paused mid-write');
    child.kill('SIGKILL');
    assert.equal((await done).signal, 'SIGKILL');

    // The entries are appended with O_APPEND, not renamed over the file: the kill leaves the old
    // bytes whole and half a block after them (a torn tail), which the next run replaces.
    const torn = readFileSync(file, 'utf8');
    assert.ok(
      torn.startsWith(before) && torn.length > before.length && !torn.endsWith('\n'),
      'the old file whole, then half a block',
    );

    const next = await mem(['-C', ws, ...ALL]);
    assert.equal(next.code, 0, next.stderr);
    assert.deepEqual(
      readdirSync(join(ws, 'memory')).filter((n) => n.includes('.mem-tmp-')),
      [],
      'no temp file',
    );
    assert.equal(entryIds(ws).length, 9);
    const after = readFileSync(file, 'utf8');
    assert.ok(after.startsWith(before), 'the old entries come first, unchanged');
    // The whole block begins with the same bytes as the torn half, so a torn rest kept above it shows as a second copy.
    assert.equal(
      after.split(torn.slice(before.length)).length - 1,
      1,
      'the torn rest is gone, not kept above the whole block',
    );
    const lint = await mem(['-C', ws, 'lint']);
    assert.equal(lint.code, 0, lint.stdout + lint.stderr);
  });

  test('a lock left by a killed holder is reclaimed once stale; a live holder is never robbed', async (t) => {
    const { ws } = exampleWorkspace(t);
    editConfig(ws, (cfg) => (cfg.limits = { lockStaleMs: 2000, lockUpdateMs: 500, lockWaitMs: 3500 }));
    const child = startMem(['-C', ws, ...ALL], { env: { MEM_TEST_HOOKS: '1', MEM_FAULT: 'pause-mid-write' } });
    const done = finished(child);
    await waitForStderr(child, 'mem-fault: paused mid-write');
    // Alive and refreshing its lock: a second run waits longer than the stale limit and still gets nothing.
    const robbed = await mem(['-C', ws, ...ALL]);
    assert.equal(robbed.code, 3, robbed.stderr);
    child.kill('SIGKILL');
    await done;
    assert.ok(existsSync(join(ws, 'memory', '.locks', 'microsync.lock')), 'the killed holder left its lock');
    const r = await mem(['-C', ws, ...ALL]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(entryIds(ws).length, 9);
  });
});

describe('bad input: one line, a documented exit code, memory untouched', () => {
  test('invalid JSON in mem.config.json or mem.local.json: exit 4', async (t) => {
    const { ws } = exampleWorkspace(t);
    writeFileSync(join(ws, 'mem.local.json'), '{ "timezone": ');
    const r = await mem(['-C', ws, ...ALL]);
    assert.equal(r.code, 4);
    oneLineError(r.stderr);
    assert.match(r.stderr, /mem\.local\.json: not valid JSON/);
  });

  test('a config value of the wrong shape names the key: exit 4', async (t) => {
    const { ws } = exampleWorkspace(t);
    editConfig(ws, (cfg) => (cfg.sources = [{ name: 'x', kind: 'slack', path: '.' }]));
    const r = await mem(['-C', ws, ...ALL]);
    assert.equal(r.code, 4);
    oneLineError(r.stderr);
    assert.match(r.stderr, /sources\.0\.kind/);
    editConfig(ws, (cfg) => {
      cfg.sources = [];
      cfg.timezone = 'Mars/Olympus';
    });
    const tz = await mem(['-C', ws, ...ALL]);
    assert.equal(tz.code, 4);
    assert.match(tz.stderr, /Mars\/Olympus/);
  });

  test('a missing workspace: exit 4 with what to do', async (t) => {
    const dir = tempDir(t);
    const r = await mem(['-C', join(dir, 'nowhere'), ...ALL]);
    assert.equal(r.code, 4);
    oneLineError(r.stderr);
    const here = await mem(ALL, { cwd: dir });
    assert.equal(here.code, 4);
    assert.match(here.stderr, /no memfold workspace here or above .*run "mem init"/);
  });

  test('an unreadable transcript folder fails before anything is written: exit 1', async (t) => {
    const { ws, transcripts } = exampleWorkspace(t);
    // A link to itself cannot be read (ELOOP), even by root; a folder not found is only a warning (microsync-window.test.ts).
    symlinkSync('gone', join(transcripts, 'gone'));
    editConfig(
      ws,
      (cfg) =>
        (cfg.sources = [...(cfg.sources as object[]), { name: 'gone', kind: 'jsonl', path: '../transcripts/gone' }]),
    );
    const r = await mem(['-C', ws, ...ALL]);
    assert.equal(r.code, 1);
    oneLineError(r.stderr);
    assert.match(r.stderr, /cannot read source path .*gone/);
    assert.deepEqual(entryIds(ws), []);
  });

  test('bad --since, --now, options and commands: usage, exit 2', async (t) => {
    const { ws } = exampleWorkspace(t);
    for (const args of [
      ['microsync', '--since', 'yesterday'],
      ['--now', '2026-13-45', 'microsync'],
      ['microsync', '--bogus'],
      ['frobnicate'],
    ]) {
      const r = await mem(['-C', ws, ...args]);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.doesNotMatch(r.stderr, /\n\s+at /);
    }
  });

  test('malformed lines, a binary file and an over-long line are skipped with warnings, never fatal', async (t) => {
    const { ws, transcripts } = exampleWorkspace(t);
    writeFileSync(join(transcripts, 'jsonl', 'binary.jsonl'), Buffer.from([0, 1, 2, 255, 254, 10, 0, 0, 10]));
    const long = JSON.stringify({
      role: 'user',
      content: 'x'.repeat(3000),
      timestamp: '2026-11-21T10:00:00Z',
      session_id: 'long',
    });
    writeFileSync(
      join(transcripts, 'jsonl', 'long.jsonl'),
      long +
        '\n' +
        JSON.stringify({
          role: 'user',
          content: 'From now on, tags are signed.',
          timestamp: '2026-11-21T10:01:00Z',
          session_id: 'long',
        }) +
        '\n',
    );
    editConfig(ws, (cfg) => (cfg.limits = { maxLineBytes: 2000 }));
    const r = await mem(['-C', ws, ...ALL]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /long\.jsonl:1: .*(long|bytes)/i);
    assert.ok(entryIds(ws).includes('RULE-20261121-tags-are-signed'));
    assert.equal(entryIds(ws).length, 10);
  });

  test('binary *.jsonl files (random bytes, a gzip, a small one without NUL) are skipped with one warning each; memory is as without them', async (t) => {
    const plain = exampleWorkspace(t);
    const base = await mem(['-C', plain.ws, '--json', ...ALL]);
    const { root, ws, transcripts } = exampleWorkspace(t);
    const dir = join(transcripts, 'jsonl');
    const session = readFileSync(join(dir, 'ledgerline-standup.jsonl'));
    writeFileSync(join(dir, 'random.jsonl'), randomBytes(300_000));
    writeFileSync(join(dir, 'export.jsonl'), gzipSync(Buffer.concat(Array.from({ length: 200 }, () => session))));
    writeFileSync(
      join(dir, 'small.jsonl'),
      Buffer.from([0xff, 0xfe, 0xfd, 0xc3, 0x28, 0xa0, 0xa1, 0x0a, 0xe2, 0x28, 0xa1, 0xf0, 0x28, 0x8c, 0xbc, 0x0a]),
    );
    const r = await mem(['-C', ws, '--json', ...ALL]);
    assert.equal(r.code, 0, r.stderr);
    for (const [name, why] of [
      ['random', 'NUL bytes'],
      ['export', 'NUL bytes'],
      ['small', 'mostly not UTF-8'],
    ] as const) {
      const lines = r.stderr.split('\n').filter((l) => l.includes(`${name}.jsonl`));
      assert.deepEqual(lines, [`warning: ${join(dir, name)}.jsonl: looks binary (${why}), not a transcript; skipped`]);
    }
    assert.match(
      r.stderr,
      /ledgerline-standup\.jsonl:9: malformed line skipped: invalid JSON/,
      'a text transcript still reports its malformed lines',
    );
    const [out, was] = [JSON.parse(r.stdout), JSON.parse(base.stdout)];
    assert.deepEqual([out.files, out.malformed, out.sessions], [was.files + 3, was.malformed, was.sessions]);
    assert.equal(dailyText(ws).replaceAll(root, '<root>'), dailyText(plain.ws).replaceAll(plain.root, '<root>'));
    const again = await mem(['-C', ws, 'microsync', '--now', NOW]);
    assert.equal(again.code, 0, again.stderr);
    assert.doesNotMatch(again.stderr, /looks binary/, 'a skipped file is not warned about again until it changes');
  });

  test('a statement in a transcript of another encoding (GBK, Latin-1) is left out with a warning, never written garbled', async (t) => {
    const { ws, transcripts } = exampleWorkspace(t);
    const line = (text: Buffer) =>
      Buffer.concat([
        Buffer.from('{"role":"user","content":"'),
        text,
        Buffer.from('","timestamp":"2026-11-21T10:05:00Z","session_id":"legacy"}\n'),
      ]);
    // "Remember this: the staging server is called 记住一号机 and lives in 上海", its Chinese in GBK; then one in UTF-8.
    const gbk = Buffer.from([0xbc, 0xc7, 0xd7, 0xa1, 0xd2, 0xbb, 0xba, 0xc5, 0xbb, 0xfa]);
    const shanghai = Buffer.from([0xc9, 0xcf, 0xba, 0xa3]);
    writeFileSync(
      join(transcripts, 'jsonl', 'legacy.jsonl'),
      Buffer.concat([
        line(
          Buffer.concat([
            Buffer.from('Remember this: the staging server is called '),
            gbk,
            Buffer.from(' and lives in '),
            shanghai,
          ]),
        ),
        line(Buffer.from('Remember this: the legacy exporter runs at 02:00 UTC.')),
      ]),
    );
    const r = await mem(['-C', ws, ...ALL]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stderr,
      /legacy\.jsonl: turns 1-1 hold bytes that are not UTF-8 \(a legacy encoding such as GBK\?\); the statement there was not recorded/,
    );
    const daily = dailyText(ws);
    assert.ok(!daily.includes('\uFFFD'), 'nothing garbled in memory');
    assert.match(daily, /legacy exporter runs at 02:00 UTC/, 'the readable statement of the same file is recorded');
  });
});
