/**
 * `mem wrapup` end to end on the fixture week: the built CLI as a child process on a temp copy.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { WorkspaceWriter } from '../src/write/writer.js';
import { editConfig, exampleWorkspace, finished, mem, snapshot, startMem } from './helpers/cli.js';
import { bullets, CITED, h2, NEVER, SECTIONS, weekWorkspace } from './helpers/week-fixture.js';

const summaryOf = (ws: string, name: string) => readFileSync(join(ws, 'second-brain', 'summaries', name), 'utf8');
const summaries = (ws: string) =>
  readdirSync(join(ws, 'second-brain', 'summaries'))
    .filter((n) => n.endsWith('.md'))
    .sort();

describe('mem wrapup', () => {
  test('writes the six sections in order, every bullet cited, bots and chit-chat left out, nothing else touched', async (t) => {
    const { ws } = weekWorkspace(t, '2026-11-18');
    for (const day of ['2026-11-16', '2026-11-17', '2026-11-18'])
      assert.equal((await mem(['-C', ws, 'microsync', '--now', `${day}T22:00`])).code, 0);
    const before = snapshot(
      ws,
      (rel) => rel.startsWith('.mem') || rel.includes('.locks') || rel.startsWith('second-brain'),
    );
    const r = await mem(['-C', ws, 'wrapup', '--date', '2026-11-18', '--now', '2026-11-19T06:00', '--json']);
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout) as {
      files: string[];
      sessions: string[];
      skippedSessions: Array<{ reason: string }>;
      generator: string;
    };
    assert.deepEqual(out.files, ['second-brain/summaries/2026-11-18-wrapup.md']);
    assert.deepEqual(out.sessions, ['standup-2026-11-18', 'chat-2026-11-18']);
    assert.match(out.skippedSessions[0]!.reason, /scheduler/);
    const text = summaryOf(ws, '2026-11-18-wrapup.md');
    assert.match(
      text,
      /^---\ndate: 2026-11-18\nsessions:\n  - "standup-2026-11-18"\n  - "chat-2026-11-18"\ngenerator: "memfold wrapup 1 \(rules\)"\ninput: [0-9a-f]{16}\ncontent_sha256: [0-9a-f]{64}\n---\n# Wrap-up 2026-11-18\n/,
    );
    assert.deepEqual(h2(text), SECTIONS);
    for (const b of bullets(text)) assert.match(b, CITED);
    assert.match(
      text,
      /## Decisions made today\n- Decision: Go back to in-memory sessions .*\(replaces DECISION-20261116-use-redis-for-the-session-cache\) — \[DECISION-20261118-go-back-to-in-memory-sessions-instead-of-redis-for-the\]\(\.\.\/\.\.\/memory\/2026-11-18\.md\)\n/,
    );
    // What a session said goes in its own section, headed by its start time, the machine and its id.
    const standup = /\n### 10:00 \S+ standup-2026-11-18\n((?:- .*\n)+)/.exec(text)?.[1] ?? '';
    assert.match(standup, /^- Goal: Standup notes for the shop — session standup-2026-11-18 · messages 1-1\n/);
    assert.match(
      standup,
      /\n- Action item: Please update the deploy docs with the new session setup — session standup-2026-11-18 · messages 9-9\n/,
    );
    assert.match(
      standup,
      /\n- Technical note: Turns out the flaky checkout test was caused by a timezone assumption .* — session standup-2026-11-18 · messages 3-3\n/,
    );
    assert.match(
      standup,
      /\n- Open loop: Not sure yet whether we should shard the orders table — session standup-2026-11-18 · messages 7-7\n/,
    );
    assert.match(text, /## Action items\n- \(listed per session under Important conversations\)\n/);
    assert.match(text, /## Tomorrow next steps\n- \(none\)\n$/);
    for (const word of NEVER) assert.ok(!text.includes(word), `summary must not contain "${word}"`);
    assert.doesNotMatch(text, /chat-2026-11-18:/, 'a chit-chat session is not an important conversation');
    // Never MEMORY.md, never a daily file.
    assert.deepEqual(
      snapshot(ws, (rel) => rel.startsWith('.mem') || rel.includes('.locks') || rel.startsWith('second-brain')),
      before,
    );
  });

  test('defaults to the day before --now in the configured zone and catches up on sessions microsync has not read', async (t) => {
    const { ws } = weekWorkspace(t, '2026-11-16');
    // 00:30 on the 17th in Berlin is 23:30 on the 16th in UTC: the day before --now, in the configured zone, is the 16th.
    const r = await mem(['-C', ws, 'wrapup', '--now', '2026-11-17T00:30']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stdout,
      /^wrapup 2026-11-16: wrote second-brain\/summaries\/2026-11-16-wrapup\.md \(1 session; 2 decisions, 1 action item, 1 conversation, 0 technical notes, 0 open loops, 1 next step\)\n$/,
    );
    assert.ok(existsSync(join(ws, 'memory', '2026-11-16.md')), "the catch-up wrote the day's entries first");
    const status = JSON.parse((await mem(['-C', ws, 'status', '--json', '--now', '2026-11-17T00:30'])).stdout);
    assert.deepEqual(status.index.dirty, [], "the catch-up's entries and the summary are in the search index");
    const text = summaryOf(ws, '2026-11-16-wrapup.md');
    assert.match(
      text,
      /- Decision: Use Redis for the session cache — \[DECISION-20261116-use-redis-for-the-session-cache\]/,
    );
    assert.match(
      text,
      /\n- Next step: Tomorrow we should start with the checkout error pages — session a1c9e7f0-1111-4c2d-9e3b-0a0b0c0d0e01 · messages 9-9\n/,
    );
    for (const word of NEVER) assert.ok(!text.includes(word), `summary must not contain "${word}"`);
  });

  test('a wrap-up written by hand while wrapup is paused before its rename is kept: exit 3, one line, nothing written over it', async (t) => {
    const { ws } = weekWorkspace(t, '2026-11-16');
    const rel = 'second-brain/summaries/2026-11-16-wrapup.md';
    const release = join(ws, '..', 'release');
    const run = startMem(['-C', ws, 'wrapup', '--date', '2026-11-16', '--now', '2026-11-17T00:30'], {
      env: {
        MEM_TEST_HOOKS: '1',
        MEM_FAULT: 'pause-before-rename',
        MEM_FAULT_FILE: rel,
        MEM_FAULT_RELEASE: release,
        MEM_FAULT_MS: '30000',
      },
    });
    const done = finished(run);
    const mine = '# Wrap-up 2026-11-16\n\n- written by hand during the run\n';
    run.stderr!.on('data', (d: Buffer) => {
      if (!d.toString().includes(`paused before renaming over ${rel}`)) return;
      writeFileSync(join(ws, rel), mine);
      writeFileSync(release, '');
    });
    const r = await done;
    assert.equal(r.code, 3, r.stderr);
    assert.equal(
      r.stderr
        .trim()
        .split('\n')
        .filter((l) => !l.startsWith('mem-fault:'))
        .join('\n'),
      `mem: wrapup: ${rel} changed while wrapup was writing it; it was kept as it is and nothing was written to it — the next run plans on it`,
    );
    assert.equal(summaryOf(ws, '2026-11-16-wrapup.md'), mine);
  });

  test('a re-run gives the same bytes; a hand-edited summary is kept and the new one goes beside it as -v2', async (t) => {
    const { ws } = weekWorkspace(t, '2026-11-17');
    const args = ['-C', ws, 'wrapup', '--date', '2026-11-17', '--now', '2026-11-18T05:00'];
    assert.equal((await mem(args)).code, 0);
    const first = summaryOf(ws, '2026-11-17-wrapup.md');
    assert.match(
      first,
      /- Decision: 所有接口都返回 UTF-8 编码的 JSON — \[DECISION-20261117-所有接口都返回-utf-8-编码的-json\]/u,
    );
    assert.match(first, /- Noted: 周五下午不发布新版本 — \[NOTE-20261117-周五下午不发布新版本\]/u);
    const again = await mem([...args, '--json']);
    assert.equal(again.code, 0, again.stderr);
    assert.deepEqual(JSON.parse(again.stdout).written, []);
    assert.equal(summaryOf(ws, '2026-11-17-wrapup.md'), first);

    const edited = first.replace(
      '## Open loops\n- (none)',
      '## Open loops\n- Ask Li about the GBK clients (added by hand)',
    );
    writeFileSync(join(ws, 'second-brain', 'summaries', '2026-11-17-wrapup.md'), edited);
    const third = await mem(args);
    assert.equal(third.code, 0, third.stderr);
    assert.match(
      third.stderr,
      /2026-11-17-wrapup\.md was edited by hand; kept it and wrote the new summary beside it as second-brain\/summaries\/2026-11-17-wrapup-v2\.md/,
    );
    assert.equal(summaryOf(ws, '2026-11-17-wrapup.md'), edited);
    assert.equal(summaryOf(ws, '2026-11-17-wrapup-v2.md'), first);
    const fourth = await mem(args);
    assert.equal(fourth.code, 0);
    assert.match(
      fourth.stderr,
      /2026-11-17-wrapup\.md was edited by hand; kept it and the summary beside it, second-brain\/summaries\/2026-11-17-wrapup-v2\.md, is up to date/,
    );
    assert.deepEqual(
      summaries(ws),
      ['2026-11-17-wrapup-v2.md', '2026-11-17-wrapup.md'],
      'a fourth run rewrites nothing new',
    );
  });

  test('splits a summary longer than limits.summaryLines into volumes', async (t) => {
    const { ws } = weekWorkspace(t, '2026-11-18');
    editConfig(ws, (cfg) => (cfg.limits = { summaryLines: 25 }));
    const r = await mem(['-C', ws, 'wrapup', '--date', '2026-11-18', '--now', '2026-11-19T06:00', '--json']);
    assert.equal(r.code, 0, r.stderr);
    const files = JSON.parse(r.stdout).files as string[];
    assert.deepEqual(files.slice(0, 2), [
      'second-brain/summaries/2026-11-18-wrapup.md',
      'second-brain/summaries/2026-11-18-wrapup-vol2.md',
    ]);
    const texts = files.map((f) => readFileSync(join(ws, f), 'utf8'));
    for (const text of texts) assert.ok(text.split('\n').length - 1 < 25, `${text.split('\n').length - 1} lines`);
    const n = files.length;
    assert.ok(texts[1]!.startsWith(`---\ndate: 2026-11-18\nvolume: 2\nvolumes: ${n}\n`));
    assert.ok(
      texts[1]!.includes(
        `# Wrap-up 2026-11-18 (volume 2 of ${n})\n\n_Continued from [volume 1](2026-11-18-wrapup.md)._\n`,
      ),
    );
    assert.deepEqual(texts.flatMap(h2), SECTIONS, 'the six sections, in order, across the volumes');
  });

  test('--dry-run prints the summary and writes nothing; a bad --date is a usage error', async (t) => {
    const { ws } = weekWorkspace(t, '2026-11-16');
    const before = snapshot(ws, () => false);
    const r = await mem(['-C', ws, 'wrapup', '--date', '2026-11-16', '--now', '2026-11-17T05:00', '--dry-run']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stdout,
      /^---\ndate: 2026-11-16\n[\s\S]*## Decisions made today\n[\s\S]*wrapup 2026-11-16: would write second-brain\/summaries\/2026-11-16-wrapup\.md/,
    );
    assert.deepEqual(
      snapshot(ws, (rel) => rel.includes('.locks')),
      new Map([...before].filter(([rel]) => !rel.includes('.locks'))),
    );
    const bad = await mem(['-C', ws, 'wrapup', '--date', '2026-13-40', '--now', '2026-11-17T05:00']);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--date "2026-13-40" is not a calendar date/);
  });

  test('write allowance: wrapup only under second-brain/summaries, compound never there', async (t) => {
    const { ws } = weekWorkspace(t);
    const locks = { waitMs: 1000, staleMs: 10_000 };
    const wrapup = new WorkspaceWriter(ws, 'wrapup', locks);
    const compound = new WorkspaceWriter(ws, 'compound', locks);
    await wrapup.write('second-brain/summaries/2026-11-16-wrapup.md', 'ok\n');
    for (const rel of [
      'MEMORY.md',
      'memory/2026-11-16.md',
      'memory/archive/weekly-2026-W47.md',
      'second-brain/research/x.md',
      'second-brain/summaries/../../MEMORY.md',
    ]) {
      await assert.rejects(
        wrapup.write(rel, 'x'),
        /WRITE_DENIED|may not write|refused to write/,
        `wrapup must not write ${rel}`,
      );
    }
    await compound.write('memory/archive/weekly-2026-W47.md', 'ok\n');
    for (const rel of [
      'second-brain/summaries/2026-11-16-wrapup.md',
      'memory/projects/x.md',
      'memory/archive/../../mem.config.json',
      'mem.config.json',
    ]) {
      await assert.rejects(
        compound.write(rel, 'x'),
        /may not write|refused to write/,
        `compound must not write ${rel}`,
      );
    }
    assert.equal(readFileSync(join(ws, 'MEMORY.md'), 'utf8').startsWith('# Shop agent memory'), true);
  });
});

test('the catch-up counts transcript line warnings in one line instead of repeating each', async (t) => {
  const { ws } = exampleWorkspace(t);
  const r = await mem(['-C', ws, '--now', '2026-11-22T09:00:00Z', 'wrapup', '--date', '2026-11-21']);
  assert.equal(r.code, 0, r.stderr);
  assert.doesNotMatch(r.stderr, /malformed line skipped/);
  assert.match(r.stderr, /^warning: microsync catch-up: \d+ transcript line warnings /m);
});
