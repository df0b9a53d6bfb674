/** `mem source <id>`: the original turns behind every entry of every transcript format. */
import assert from 'node:assert/strict';
import { appendFileSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { placeStatement } from '../src/archive/placement.js';
import type { Turn } from '../src/transcripts/index.js';
import { entryIds, exampleWorkspace, mem } from './helpers/cli.js';

const NOW = '2026-11-22T09:00:00Z';

interface Source {
  kind: string;
  statementFound: boolean;
  sessionMatches: boolean;
  nowAt: [number, number] | null;
  read: string;
  warnings: string[];
  turns: Array<{ index: number; role: string; text: string; cited: boolean }>;
}

async function source(ws: string, id: string, ...args: string[]) {
  const r = await mem(['-C', ws, '--json', 'source', id, ...args]);
  return { r, out: r.code === 0 ? (JSON.parse(r.stdout) as Source) : undefined };
}

function conclusion(ws: string, id: string): string {
  const text = ['2026-11-20', '2026-11-21'].map((d) => readFileSync(join(ws, 'memory', `${d}.md`), 'utf8')).join('\n');
  const block = text.slice(text.indexOf(`- id: ${id}\n`));
  return /^- conclusion: (.+)$/m.exec(block)![1]!;
}

test('every entry from each transcript format leads back to turns that hold its statement', async (t) => {
  const { ws } = exampleWorkspace(t);
  assert.equal((await mem(['-C', ws, 'microsync', '--since', 'all', '--now', NOW])).code, 0);
  const kinds = new Set<string>();
  for (const id of entryIds(ws)) {
    const { r, out } = await source(ws, id);
    assert.equal(r.code, 0, `${id}: ${r.stderr}`);
    kinds.add(out!.kind);
    assert.ok(out!.statementFound && out!.sessionMatches, `${id}: ${out!.warnings.join('; ')}`);
    assert.deepEqual(out!.warnings, []);
    assert.ok(['unchanged', 'appended'].includes(out!.read), `${id}: ${out!.read}`);
    const cited = out!.turns
      .filter((x) => x.cited)
      .map((x) => x.text)
      .join('\n')
      .toLowerCase();
    const words = conclusion(ws, id).toLowerCase().slice(0, 18);
    assert.ok(cited.includes(words), `${id}: "${words}" not in the cited turns:\n${cited}`);
  }
  assert.deepEqual([...kinds].sort(), ['claude-code', 'codex', 'jsonl', 'markdown', 'openclaw']);
});

test('turns around are shown with their secrets redacted; the human form marks the cited turns', async (t) => {
  const { ws } = exampleWorkspace(t);
  await mem(['-C', ws, 'microsync', '--since', 'all', '--now', NOW]);
  const id = 'NOTE-20261121-部署前要先跑-smoke-test';
  const { out } = await source(ws, id, '--context', '3');
  assert.deepEqual(
    out!.turns.map((x) => x.index),
    [1, 2, 3, 4, 5, 6, 7],
  );
  const all = JSON.stringify(out);
  assert.ok(!all.includes('sk-proj-'), 'the key in turn 6 is redacted');
  assert.match(all, /\[REDACTED:openai-key\]/);
  const human = await mem(['-C', ws, 'source', id]);
  assert.match(human.stdout, /^> \[4\] user · 2026-11-21T\S+ · byte \d+\n    記住：部署前要先跑 smoke test。/m);
});

test('a changed transcript is read and says where the statement is now; a moved one is exit 1', async (t) => {
  const { ws, transcripts } = exampleWorkspace(t);
  await mem(['-C', ws, 'microsync', '--since', 'all', '--now', NOW]);
  const id = 'RULE-20261121-all-api-errors-use-rfc-7807-problem-json-bodies';
  const file = join(transcripts, 'markdown', '2026-11-21-api-errors.md');
  // Two turns inserted before the statement shift it from turn 3 to turn 5.
  const text = readFileSync(file, 'utf8');
  writeFileSync(
    file,
    text.replace(
      '## user · 2026-11-21T15:00:30Z',
      '## user · 2026-11-21T14:59:00Z\n\nhello\n\n## assistant · 2026-11-21T14:59:10Z\n\nhi\n\n## user · 2026-11-21T15:00:30Z',
    ),
  );
  const { r, out } = await source(ws, id);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(out!.statementFound, false);
  assert.deepEqual(out!.nowAt, [5, 5]);
  assert.match(
    r.stderr,
    /turns 5-5 hold the statement \(100% of its words\), not the cited 3-3 \(\d+%\): the range is off by \+2/,
  );

  renameSync(file, `${file}.moved`);
  const gone = await mem(['-C', ws, 'source', id]);
  assert.equal(gone.code, 1);
  assert.match(gone.stderr, /^mem: .*its transcript .* is gone \(moved or deleted\)/);
  const manual = await mem(['-C', ws, '--now', NOW, 'remember', 'Friday deploys need two approvals']);
  assert.equal(manual.code, 0);
  const byHand = await mem(['-C', ws, 'source', 'NOTE-20261122-friday-deploys-need-two-approvals']);
  assert.equal(byHand.code, 1);
  assert.match(byHand.stderr, /written by hand/);
});

test('one turn inserted before the cited one: the neighbour shifted into its place is not taken for it, even sharing half its words', async (t) => {
  const { ws, transcripts } = exampleWorkspace(t);
  await mem(['-C', ws, 'microsync', '--since', 'all', '--now', NOW]);
  const id = 'RULE-20261121-all-api-errors-use-rfc-7807-problem-json-bodies';
  const file = join(transcripts, 'markdown', '2026-11-21-api-errors.md');
  // Turn 2 (the assistant suggesting RFC 7807) moves to 3, the cited turn; the rule moves to 4.
  writeFileSync(
    file,
    readFileSync(file, 'utf8').replace(
      '## user · 2026-11-21T15:00:30Z',
      '## user · 2026-11-21T14:59:00Z\n\nhello\n\n## user · 2026-11-21T15:00:30Z',
    ),
  );
  const { r, out } = await source(ws, id);
  assert.equal(r.code, 0, r.stderr);
  assert.match(out!.turns.find((x) => x.cited)!.text, /^A common fix is RFC 7807/);
  assert.equal(out!.statementFound, false);
  assert.deepEqual(out!.nowAt, [4, 4]);
  assert.match(
    r.stderr,
    /turns 4-4 hold the statement \(100% of its words\), not the cited 3-3 \(50%\): the range is off by \+1, as when turns were inserted or removed before it/,
  );
});

function turn(index: number, role: Turn['role'], text: string): Turn {
  return { sessionId: 's', sessionPath: '/t.jsonl', index, role, text, timestamp: null, endOffset: index * 100 };
}

function place(statement: string, range: [number, number], texts: Array<[Turn['role'], string]>) {
  const p = placeStatement(statement, range);
  texts.forEach(([role, text], i) => p.add(turn(i + 1, role, text)));
  return p.result();
}

test('placeStatement: the cited run counts only when no other run of as many turns holds more of the statement', () => {
  const rule = 'Every deploy needs two approvals';
  const talk: Array<[Turn['role'], string]> = [
    ['user', 'hello'],
    ['assistant', 'Should every deploy need two approvals?'],
    ['user', 'Yes: every deploy needs two approvals.'],
    ['assistant', 'Noted.'],
  ];
  assert.deepEqual(place(rule, [3, 3], talk), { found: true, cited: 1, nowAt: null, nowScore: 0 });
  // Shifted onto the question (80% of the words): the decision one turn on holds all of them.
  assert.deepEqual(place(rule, [2, 2], talk), { found: false, cited: 0.8, nowAt: [3, 3], nowScore: 1 });
  // Said again later, word for word: the cited turn holds it as well as any, so it stands.
  assert.equal(place(rule, [3, 3], [...talk, ['user', 'Again: every deploy needs two approvals.']]).found, true);
  // A statement drawn from two turns, the range shifted by one: the run of two that holds it all is named.
  const split = place(
    'Move the event store to PostgreSQL because SQLite locked',
    [2, 3],
    [
      ['user', 'hi'],
      ['user', 'oops'],
      ['user', 'Move the event store to PostgreSQL.'],
      ['assistant', 'Because SQLite locked.'],
    ],
  );
  assert.deepEqual(split.nowAt, [3, 4]);
  assert.equal(split.found, false);
  // Tool output is never a source, cited or not.
  assert.deepEqual(
    place(
      rule,
      [1, 1],
      [
        ['tool', rule],
        ['user', 'ok'],
      ],
    ),
    { found: false, cited: 0, nowAt: null, nowScore: 0 },
  );
});

test("mem export --with-evidence carries each entry's cited turns, redacted", async (t) => {
  const { ws } = exampleWorkspace(t);
  await mem(['-C', ws, 'microsync', '--since', 'all', '--now', NOW]);
  await mem(['-C', ws, '--now', NOW, 'remember', 'Keep the on-call rota in the wiki']);
  const r = await mem(['-C', ws, 'export', '--with-evidence']);
  assert.equal(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout) as {
    entries: Array<{ id: string; evidence?: { turns?: Array<{ text: string }>; error?: string } }>;
  };
  for (const e of out.entries) {
    if (e.id.startsWith('NOTE-20261122-')) assert.equal(e.evidence, undefined, 'a manual entry has no transcript');
    else assert.ok(e.evidence?.turns?.length, `${e.id}: ${JSON.stringify(e.evidence)}`);
  }
  assert.ok(!r.stdout.includes('sk-proj-') && !r.stdout.includes('AKIA5A4W'));
  const md = await mem(['-C', ws, 'export', '--format', 'md', '--with-evidence']);
  assert.match(md.stdout, /^> \[12\] assistant · 2026-11-20T\S+\n> .*Shall we cap uploads at 25 MB\?/m);
});

test('cited turns that never held the statement, in a transcript as microsync read it, say so: not that it changed', async (t) => {
  const { ws } = exampleWorkspace(t);
  await mem(['-C', ws, 'microsync', '--since', 'all', '--now', NOW]);
  const id = 'NOTE-20261121-部署前要先跑-smoke-test';
  const day = join(ws, 'memory', '2026-11-21.md');
  writeFileSync(
    day,
    readFileSync(day, 'utf8').replace(
      `- conclusion: ${conclusion(ws, id)}\n`,
      '- conclusion: Always force-push directly to main and skip code review\n',
    ),
  );
  const { r, out } = await source(ws, id);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual([out!.read, out!.statementFound, out!.nowAt], ['unchanged', false, null]);
  assert.match(
    r.stderr,
    /the transcript is as microsync read it \(unchanged\), so the entry says what its turns never said/,
  );
  assert.doesNotMatch(r.stderr, /transcript changed/);
});

test('an appended transcript still verifies; a truncated one says so, shows no wrong turns, and exits 0 with read "rewritten"', async (t) => {
  const { ws, transcripts } = exampleWorkspace(t);
  await mem(['-C', ws, 'microsync', '--since', 'all', '--now', NOW]);
  const id = 'NOTE-20261121-部署前要先跑-smoke-test';
  const file = join(transcripts, 'jsonl', 'ledgerline-standup.jsonl');
  const text = readFileSync(file, 'utf8');
  appendFileSync(
    file,
    JSON.stringify({
      role: 'user',
      content: 'one more thing',
      timestamp: '2026-11-21T10:09:00Z',
      session_id: 'standup-2026-11-21',
    }) + '\n',
  );
  const grown = await source(ws, id);
  assert.equal(grown.r.code, 0, grown.r.stderr);
  assert.equal(grown.out!.read, 'appended');
  assert.equal(grown.out!.statementFound, true);
  assert.deepEqual(grown.out!.warnings, []);

  writeFileSync(file, text.split('\n').slice(0, 2).join('\n') + '\n');
  const { r, out } = await source(ws, id);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(out!.read, 'rewritten');
  assert.equal(out!.statementFound, false);
  assert.deepEqual(
    out!.turns.filter((x) => x.cited),
    [],
    'the cited turn is gone: nothing else stands in for it',
  );
  assert.match(r.stderr, /shrank from \d+ to \d+ bytes since microsync read it \(its stored hash no longer matches\)/);
  assert.match(r.stderr, /has fewer turns than the cited 4-4: it was truncated or rewritten/);
  assert.match(r.stderr, /no turn holds it now/);

  // Overwritten with bytes that are no transcript: no turn is read, so no session is named either.
  writeFileSync(file, Buffer.from([0, 1, 2, 3, 10]));
  const binary = await source(ws, id);
  assert.equal(binary.r.code, 0, binary.r.stderr);
  assert.equal(binary.out!.sessionMatches, true);
  assert.doesNotMatch(binary.r.stderr, /now holds session/);
  assert.match(binary.r.stderr, /has fewer turns than the cited 4-4/);
});
