/** The archive tier: raw transcripts indexed incrementally, searched only with `--archive`. */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { appendFileSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { loadRecorder } from './helpers/loaded.js';
import { exampleWorkspace as freshWorkspace, mem } from './helpers/cli.js';

const NOW = '2026-11-22T09:00:00Z';

interface Update {
  warnings: string[];
  files: number;
  filesRead: number;
  bytesRead: number;
  turns: number;
  docs: number;
  totalDocs: number;
  compacted: number;
  rewritten: Array<{ why: string }>;
}
interface Hits {
  results: Array<{
    sessionPath: string;
    sessionId: string;
    turns: string;
    timestamp: string | null;
    snippet: string;
    source: string;
  }>;
  behind: number;
  indexed: boolean;
}

async function update(ws: string, ...args: string[]): Promise<Update> {
  const r = await mem(['-C', ws, '--json', 'archive', ...args]);
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout) as Update;
}

async function archive(ws: string, ...args: string[]): Promise<Hits & { stderr: string }> {
  const r = await mem(['-C', ws, '--json', 'search', '--archive', ...args]);
  assert.equal(r.code, 0, r.stderr);
  return { ...(JSON.parse(r.stdout) as Hits), stderr: r.stderr };
}

/**
 * The example workspace, its transcripts last modified 10 minutes ago: a Markdown transcript changed
 * just now may be mid-turn, and its last turn would wait (the last test shows that).
 */
function exampleWorkspace(t: Parameters<typeof freshWorkspace>[0]): ReturnType<typeof freshWorkspace> {
  const ex = freshWorkspace(t);
  const quiet = new Date(Date.now() - 10 * 60_000);
  for (const name of readdirSync(ex.transcripts, { recursive: true, encoding: 'utf8' }))
    utimesSync(join(ex.transcripts, name), quiet, quiet);
  return ex;
}

const line = (text: string, at: string) =>
  JSON.stringify({ role: 'user', content: text, timestamp: at, session_id: 'standup-2026-11-21' }) + '\n';

test('an appended transcript: the next update reads only the new bytes, and the new words are found', async (t) => {
  const { ws, transcripts } = exampleWorkspace(t);
  const first = await update(ws);
  assert.equal(first.files, 6);
  assert.equal(first.filesRead, 6);
  assert.ok(first.docs > 0 && first.totalDocs === first.docs);
  const again = await update(ws);
  assert.deepEqual(
    [again.filesRead, again.bytesRead, again.turns, again.docs],
    [0, 0, 0, 0],
    'nothing new, nothing read',
  );

  const file = join(transcripts, 'jsonl', 'ledgerline-standup.jsonl');
  const before = (await archive(ws, 'zanzibar')).results;
  assert.deepEqual(before, []);
  const added = line('The zanzibar rollout waits for the quarterly audit.', '2026-11-21T10:07:00Z');
  appendFileSync(file, added);
  const stale = await archive(ws, 'zanzibar');
  assert.deepEqual(stale.results, [], 'not indexed until the next update');
  assert.equal(stale.behind, 1);
  assert.match(stale.stderr, /1 transcript changed since the last "mem archive"/);

  const next = await update(ws);
  assert.equal(next.filesRead, 1);
  assert.equal(next.bytesRead, Buffer.byteLength(added), 'only the appended line was read');
  assert.equal(next.turns, 1);
  assert.equal(next.docs, 1);
  assert.equal(next.totalDocs, first.totalDocs + 1);
  const hit = await archive(ws, 'zanzibar', 'audit');
  assert.equal(hit.results.length, 1);
  const h = hit.results[0]!;
  assert.equal(h.sessionId, 'standup-2026-11-21');
  assert.equal(h.source, 'generic');
  assert.match(h.sessionPath, /ledgerline-standup\.jsonl$/);
  assert.equal(h.turns, '11-11', 'turn indexes continue from the cursor');
  assert.equal(h.timestamp, '2026-11-21T10:07:00.000Z');
  assert.match(h.snippet, /zanzibar rollout/);
  assert.equal(hit.behind, 0);
});

test('filters by source, session and time; secrets never land in the archive index', async (t) => {
  const { ws } = exampleWorkspace(t);
  await update(ws);
  const all = await archive(ws, 'smoke', '-k', '10');
  assert.ok(all.results.some((r) => r.source === 'generic'));
  assert.deepEqual(
    (await archive(ws, 'smoke', '--source', 'claude')).results.filter((r) => r.source !== 'claude'),
    [],
  );
  assert.deepEqual((await archive(ws, 'smoke', '--session', 'nope')).results, []);
  assert.ok((await archive(ws, 'smoke', '--session', 'standup-2026-11-21')).results.length > 0);
  assert.deepEqual((await archive(ws, 'smoke', '--since', '2026-11-22', '--now', NOW)).results, []);
  const dir = join(ws, '.mem', 'archive');
  const bytes = readdirSync(dir)
    .map((n) => readFileSync(join(dir, n), 'latin1'))
    .join('');
  assert.ok(!bytes.includes('sk-proj-') && !bytes.includes('AKIA5A4W'), 'the keys in the fixtures are redacted');
  assert.match(bytes, /\[REDACTED:openai-key\]/);
  const bad = await mem(['-C', ws, 'search', '--archive', 'smoke', '--deep']);
  assert.equal(bad.code, 2);
  const noArchive = await mem(['-C', ws, 'search', '--source', 'claude', 'smoke']);
  assert.equal(noArchive.code, 2);
});

test('default search and mem context never return archive hits', async (t) => {
  const { ws } = exampleWorkspace(t);
  assert.equal((await mem(['-C', ws, 'microsync', '--since', 'all', '--now', NOW])).code, 0);
  await update(ws);
  assert.equal((await mem(['-C', ws, 'index'])).code, 0);
  // "weekend" is said only in a transcript (a greeting, never a memory).
  assert.ok((await archive(ws, 'weekend')).results.length > 0, 'the archive has the word');
  const s = await mem(['-C', ws, '--json', 'search', 'weekend', '--deep']);
  assert.equal(s.code, 0, s.stderr);
  assert.deepEqual((JSON.parse(s.stdout) as { results: unknown[] }).results, []);
  const ctx = await mem(['-C', ws, '--json', '--now', NOW, 'context', '--query', 'weekend', '--budget', '4000']);
  assert.equal(ctx.code, 0, ctx.stderr);
  const pack = JSON.parse(ctx.stdout) as { items: unknown[]; text: string };
  assert.ok(!/weekend/i.test(JSON.stringify(pack.items) + pack.text), 'mem context holds no transcript words');
});

test('a rewritten transcript is read again from the start; its old windows are never returned', async (t) => {
  const { ws, transcripts } = exampleWorkspace(t);
  await update(ws);
  const file = join(transcripts, 'jsonl', 'ledgerline-standup.jsonl');
  assert.ok((await archive(ws, 'weekend')).results.length > 0);
  writeFileSync(file, line('A shorter story about pelicans.', '2026-11-21T11:00:00Z'));
  const next = await update(ws);
  assert.equal(next.filesRead, 1);
  assert.equal(next.bytesRead, statSync(file).size);
  assert.match(next.rewritten[0]!.why, /shrank/);
  assert.deepEqual((await archive(ws, 'weekend')).results, [], 'the old text is retired');
  assert.equal((await archive(ws, 'pelicans')).results[0]!.turns, '1-1');
});

test('many small updates are compacted: segments stay few, every appended word is still found, retired windows are dropped', async (t) => {
  const { ws, transcripts } = exampleWorkspace(t);
  await update(ws);
  const file = join(transcripts, 'jsonl', 'ledgerline-standup.jsonl');
  const words = ['albatross', 'bittern', 'cormorant', 'dunlin', 'egret', 'fulmar', 'gannet', 'heron', 'ibis', 'jacana'];
  let compacted = 0;
  for (const [i, w] of words.entries()) {
    appendFileSync(file, line(`The ${w} migration is confirmed.`, `2026-11-21T11:${String(i).padStart(2, '0')}:00Z`));
    compacted += (await update(ws)).compacted;
  }
  assert.ok(compacted >= 8, `the small segments were merged (${compacted})`);
  const state = JSON.parse(readFileSync(join(ws, '.mem', 'archive', 'state.json'), 'utf8')) as { segments: unknown[] };
  assert.ok(state.segments.length < 8, `${state.segments.length} segments after ${words.length + 1} updates`);
  const names = readdirSync(join(ws, '.mem', 'archive')).filter((n) => n.endsWith('.post'));
  assert.equal(names.length, state.segments.length, 'merged segments are removed from disk');
  for (const w of words) assert.equal((await archive(ws, w)).results.length, 1, w);

  writeFileSync(file, line('Only pelicans now.', '2026-11-21T12:00:00Z'));
  for (let i = 0; i < 8; i++) {
    appendFileSync(file, line(`Pelican count ${i}.`, `2026-11-21T12:0${i}:00Z`));
    await update(ws);
  }
  const bytes = readdirSync(join(ws, '.mem', 'archive'))
    .filter((n) => n.endsWith('.docs'))
    .map((n) => readFileSync(join(ws, '.mem', 'archive', n), 'utf8'))
    .join('');
  assert.ok(
    bytes.includes('Pelican count') && !bytes.includes('albatross'),
    'windows of the rewritten file are gone from disk after compaction',
  );
  const pelicans = (await archive(ws, 'pelicans')).results;
  assert.match(pelicans[0]!.snippet, /Only pelicans now/, 'the exact word first');
  assert.ok(
    pelicans.slice(1).every((r) => /Pelican count/.test(r.snippet)),
    'then windows found by the stem (pelic) alone',
  );
});

test('microsync keeps a kept archive fresh, and never starts one', async (t) => {
  const { ws, transcripts } = exampleWorkspace(t);
  assert.equal((await mem(['-C', ws, 'microsync', '--since', 'all', '--now', NOW])).code, 0);
  assert.ok(!readdirSync(join(ws, '.mem')).includes('archive'), 'no archive unless asked for');
  await update(ws);
  appendFileSync(
    join(transcripts, 'jsonl', 'ledgerline-standup.jsonl'),
    line('The quokka census is done.', '2026-11-21T10:08:00Z'),
  );
  const r = await mem(['-C', ws, '-v', 'microsync', '--now', NOW]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /archive: 1 transcript read, 1 new window\b/);
  const hit = await archive(ws, 'quokka');
  assert.equal(hit.results.length, 1);
  assert.equal(hit.behind, 0);
});

test('binary *.jsonl transcripts (random bytes, a gzip, a small one without NUL) are skipped with one warning each, as microsync does; nothing is added for them', async (t) => {
  const plain = exampleWorkspace(t);
  const base = await update(plain.ws);
  const { ws, transcripts } = exampleWorkspace(t);
  const dir = join(transcripts, 'jsonl');
  const session = readFileSync(join(dir, 'ledgerline-standup.jsonl'));
  writeFileSync(join(dir, 'random.jsonl'), randomBytes(300_000));
  writeFileSync(join(dir, 'export.jsonl'), gzipSync(Buffer.concat(Array.from({ length: 200 }, () => session))));
  writeFileSync(
    join(dir, 'small.jsonl'),
    Buffer.from([0xff, 0xfe, 0xfd, 0xc3, 0x28, 0xa0, 0xa1, 0x0a, 0xe2, 0x28, 0xa1, 0xf0, 0x28, 0x8c, 0xbc, 0x0a]),
  );
  const r = await mem(['-C', ws, '--json', 'archive']);
  assert.equal(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout) as Update;
  for (const [name, why] of [
    ['random', 'NUL bytes'],
    ['export', 'NUL bytes'],
    ['small', 'mostly not UTF-8'],
  ] as const) {
    const warning = `${join(dir, name)}.jsonl: looks binary (${why}), not a transcript; skipped`;
    assert.deepEqual(
      r.stderr.split('\n').filter((l) => l.includes(`${name}.jsonl`)),
      [`warning: ${warning}`],
    );
    assert.deepEqual(
      out.warnings.filter((w) => w.includes(`${name}.jsonl`)),
      [warning],
    );
  }
  assert.deepEqual(
    [out.files, out.turns, out.docs, out.totalDocs],
    [base.files + 3, base.turns, base.docs, base.totalDocs],
    'no turn or window from them',
  );
  const again = await mem(['-C', ws, 'archive']);
  assert.equal(again.code, 0, again.stderr);
  assert.doesNotMatch(again.stderr, /looks binary/, 'a skipped file is not warned about again until it changes');

  // Microsync, which keeps the archive fresh, reads a new binary file too: still one warning for it.
  writeFileSync(join(dir, 'late.jsonl'), randomBytes(1000).fill(0, 0, 1));
  const sync = await mem(['-C', ws, '-v', 'microsync', '--now', NOW]);
  assert.equal(sync.code, 0, sync.stderr);
  assert.deepEqual(
    sync.stderr.split('\n').filter((l) => l.includes('late.jsonl')),
    [`warning: ${join(dir, 'late')}.jsonl: looks binary (NUL bytes), not a transcript; skipped`],
  );
  assert.match(sync.stderr, /archive: 1 transcript read, 0 new windows/);
});

test('mem status tells whether the archive is kept, its size, and how many transcripts changed since', async (t) => {
  const { ws, transcripts } = exampleWorkspace(t);
  const status = async () => {
    const r = await mem(['-C', ws, '--json', 'status']);
    assert.equal(r.code, 0, r.stderr);
    return JSON.parse(r.stdout) as {
      archive: { kept: boolean; transcripts: number; windows: number; segments: number; behind: number };
    };
  };
  assert.equal((await status()).archive.kept, false);
  assert.match((await mem(['-C', ws, 'status'])).stdout, /archive not kept \(run "mem archive"/);
  const u = await update(ws);
  assert.deepEqual((await status()).archive, {
    ...(await status()).archive,
    kept: true,
    transcripts: 6,
    windows: u.totalDocs,
    segments: 1,
    behind: 0,
  });
  appendFileSync(
    join(transcripts, 'jsonl', 'ledgerline-standup.jsonl'),
    line('One more line.', '2026-11-21T10:09:00Z'),
  );
  assert.equal((await status()).archive.behind, 1);
  assert.match(
    (await mem(['-C', ws, 'status'])).stdout,
    /archive \d+ windows of 6 transcripts in 1 segment, updated .*; 1 transcript changed since/,
  );
});

test('a damaged archive segment: search leaves it out and says so; the next mem archive rebuilds it', async (t) => {
  const { ws } = exampleWorkspace(t);
  await update(ws);
  const dir = join(ws, '.mem', 'archive');
  const post = readdirSync(dir).find((n) => n.endsWith('.post'))!;
  writeFileSync(join(dir, post), readFileSync(join(dir, post)).subarray(0, 3000));
  const hurt = await archive(ws, 'weekend');
  assert.deepEqual(hurt.results, []);
  assert.match(
    hurt.stderr,
    /archive segment damaged \(seg-\d+\.post is truncated \(3000 bytes, expected \d+\)\): its windows were left out; run "mem archive"/,
  );
  const r = await mem(['-C', ws, '--json', 'archive']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(
    r.stderr,
    /the archive index was damaged \(seg-\d+\.post is truncated \(3000 bytes, expected \d+\)\); it was rebuilt from the transcripts/,
  );
  assert.equal((JSON.parse(r.stdout) as Update).filesRead, 6);
  const healed = await archive(ws, 'weekend');
  assert.ok(healed.results.length > 0);
  assert.doesNotMatch(healed.stderr, /damaged/);
});

test('mem search --archive loads no commander, zod or luxon (without a time), nor the Markdown search engine', async (t) => {
  const { ws, root } = exampleWorkspace(t);
  await update(ws);
  const rec = loadRecorder(root);
  const r = await mem(['-C', ws, '--json', 'search', '--archive', 'weekend'], { env: rec.env });
  assert.equal(r.code, 0, r.stderr);
  assert.ok((JSON.parse(r.stdout) as Hits).results.length > 0);
  const loaded = rec.take();
  assert.match(loaded, /dist\/cli\/first\.cjs/, 'the recorder saw the CLI load');
  for (const pkg of ['commander', 'zod', 'luxon', 'minisearch', 'remark', 'openai'])
    assert.doesNotMatch(loaded, new RegExp(`node_modules/${pkg}/`), `${pkg} loaded`);
});

test('a Markdown turn still being written is left for the next update, then archived whole', async (t) => {
  const { ws, transcripts } = exampleWorkspace(t);
  const file = join(transcripts, 'markdown', 'live-session.md');
  writeFileSync(
    file,
    '---\nsession_id: live-1\n---\n\n## user · 2026-11-21T10:00:00Z\n\nThe kestrel migration starts Monday.\n\n## assistant · 2026-11-21T10:00:30Z\n\nNoted, and the quokka',
  );
  await update(ws);
  assert.deepEqual(
    (await archive(ws, 'quokka')).results,
    [],
    'the open turn is held back while the file was just written',
  );
  assert.equal((await archive(ws, 'kestrel')).results.length, 1, 'the closed turn before it is archived');
  appendFileSync(file, ' dashboard moves to Tuesday.\n');
  const quiet = new Date(Date.now() - 10 * 60_000);
  utimesSync(file, quiet, quiet);
  await update(ws);
  const hits = (await archive(ws, 'quokka')).results;
  assert.equal(hits.length, 1);
  assert.match(hits[0]!.snippet, /quokka dashboard moves to Tuesday/);
});
