/** `mem export`: every entry with its fields and sources, as JSON or Markdown, to stdout or --out. */
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { lstatSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { mem, tempDir } from './helpers/cli.js';
import { files, workspace } from './fixtures/governance/workspace.js';

const DAY = `# 2026-11-21

## Decision: Move the event store to PostgreSQL
- id: DECISION-20261121-move-event-store-to-postgresql
- date: 2026-11-21
- source:
  - session_id: 7f3c2a10
  - session_path: ~/.claude/projects/shop/7f3c2a10.jsonl
  - message_range: 12-18
- conclusion: use PostgreSQL 16 for events
- origin: user
- status: active
- reviewer: ana

## Note: Hand note
- id: NOTE-20261121-hand-note
- date: 2026-11-21
- status: retracted
`;

test('export gives every entry (any status, any folder) with fields and sources; md keeps the bytes; --out writes a file', async (t) => {
  const ws = workspace(t, {
    'memory/2026-11-21.md': DAY,
    'memory/archive/2026-10-02.md':
      '# old\n\n## Rule: Old rule\n- id: RULE-20261002-old-rule\n- date: 2026-10-02\n- status: archived\n',
  });
  const before = files(ws);
  const r = await mem(['-C', ws, '--now', '2026-11-22T10:00:00Z', 'export']);
  assert.equal(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.equal(out.count, 3);
  assert.deepEqual(
    out.entries.map((e: { id: string; path: string }) => [e.id, e.path]),
    [
      ['DECISION-20261121-move-event-store-to-postgresql', 'memory/2026-11-21.md'],
      ['NOTE-20261121-hand-note', 'memory/2026-11-21.md'],
      ['RULE-20261002-old-rule', 'memory/archive/2026-10-02.md'],
    ],
  );
  const pg = out.entries.find((e: { id: string }) => e.id.startsWith('DECISION'));
  assert.deepEqual(pg.source, {
    session_id: '7f3c2a10',
    session_path: '~/.claude/projects/shop/7f3c2a10.jsonl',
    message_range: '12-18',
  });
  assert.equal(pg.fields.reviewer, 'ana', 'unknown fields are exported too');
  assert.deepEqual([pg.startLine, pg.endLine], [3, 13]);

  const md = await mem(['-C', ws, '--now', '2026-11-22T10:00:00Z', 'export', '--format', 'md']);
  assert.ok(
    md.stdout.includes(DAY.slice(DAY.indexOf('## Decision'), DAY.indexOf('## Note')).trimEnd()),
    'entries keep their exact text',
  );
  assert.match(md.stdout, /<!-- file: memory\/2026-11-21\.md -->/);

  const dest = join(tempDir(t), 'backup', 'memory.json');
  const w = await mem(['-C', ws, '--now', '2026-11-22T10:00:00Z', '--json', 'export', '--out', dest]);
  assert.equal(w.code, 0, w.stderr);
  assert.deepEqual(JSON.parse(readFileSync(dest, 'utf8')), out);
  const refused = await mem(['-C', ws, 'export', '--out', join(ws, 'memory', 'export.md'), '--format', 'md']);
  assert.equal(refused.code, 2);
  assert.match(refused.stderr, /inside the workspace's memory/);
  assert.deepEqual(files(ws), before, 'export never writes into the workspace');
});

test("--out never replaces the workspace's configuration or anything in .git or .mem; a file that is no export only with --force; an export or an empty file again and again", async (t) => {
  const ws = workspace(t, {
    'memory/2026-11-21.md': DAY,
    'mem.local.json': '{}\n',
    '.git/config': '[core]\n',
    'notes.md': 'my notes\n',
    'empty.json': '',
  });
  const before = files(ws);
  for (const [rel, why] of [
    ['mem.config.json', "is the workspace's configuration \\(mem\\.config\\.json\\)"],
    ['mem.local.json', "is the workspace's configuration \\(mem\\.local\\.json\\)"],
    ['.git/config', 'is inside a \\.git folder'],
    ['.git/new', 'is inside a \\.git folder'],
    ['.mem/export.json', "is inside the workspace's memory \\(\\.mem/export\\.json\\)"],
  ] as const) {
    const r = await mem(['-C', ws, 'export', '--force', '--out', join(ws, rel)]);
    assert.equal(r.code, 2, `${rel}: ${r.stderr}`);
    assert.match(r.stderr, new RegExp(`^mem: --out \\S+ ${why}; write the export elsewhere\\n$`), rel);
  }
  const foreign = await mem(['-C', ws, 'export', '--out', join(ws, 'notes.md')]);
  assert.equal(foreign.code, 2);
  assert.match(
    foreign.stderr,
    /^mem: --out \S+notes\.md is a file that is not a memfold export; pass --force to replace it, or write the export elsewhere\n$/,
  );
  assert.deepEqual(files(ws), before, 'nothing was written');

  for (const format of ['md', 'json', 'md']) {
    const again = await mem(['-C', ws, 'export', '--format', format, '--out', join(ws, 'memory-export.md')]);
    assert.equal(again.code, 0, again.stderr);
  }
  assert.equal(
    (await mem(['-C', ws, 'export', '--out', join(ws, 'empty.json')])).code,
    0,
    'an empty file holds nothing to lose',
  );
  assert.equal((await mem(['-C', ws, 'export', '--force', '--out', join(ws, 'notes.md')])).code, 0);
  assert.match(readFileSync(join(ws, 'notes.md'), 'utf8'), /^\{\n {2}"exportedAt"/);
});

test(
  '--out through a symlink or into a FIFO writes through it and never replaces it (as `--out /dev/stdout` needs)',
  { skip: process.platform === 'win32' ? 'no FIFOs or POSIX symlinks' : false },
  async (t) => {
    const ws = workspace(t, { 'memory/2026-11-21.md': DAY });
    const dir = tempDir(t);
    symlinkSync('target.json', join(dir, 'link.json'));
    const viaLink = await mem(['-C', ws, 'export', '--out', join(dir, 'link.json')]);
    assert.equal(viaLink.code, 0, viaLink.stderr);
    assert.ok(lstatSync(join(dir, 'link.json')).isSymbolicLink(), 'the link is still a link');
    assert.equal(JSON.parse(readFileSync(join(dir, 'target.json'), 'utf8')).count, 2);
    const fifo = join(dir, 'pipe');
    execFileSync('mkfifo', [fifo]);
    const reader = spawn('cat', [fifo], { stdio: ['ignore', 'pipe', 'ignore'] });
    let got = '';
    reader.stdout.setEncoding('utf8').on('data', (d: string) => (got += d));
    const closed = new Promise((resolve) => reader.on('close', resolve));
    const viaFifo = await mem(['-C', ws, 'export', '--out', fifo]);
    assert.equal(viaFifo.code, 0, viaFifo.stderr);
    await closed;
    assert.equal(JSON.parse(got).count, 2);
    assert.ok(lstatSync(fifo).isFIFO(), 'the FIFO is still a FIFO');
  },
);

test(
  '--out never lands inside the memory through a link: to the workspace, into it, or to a file not there yet',
  { skip: process.platform === 'win32' ? 'no POSIX symlinks' : false },
  async (t) => {
    const ws = workspace(t, { 'memory/2026-11-21.md': DAY });
    const dir = tempDir(t);
    const wsLink = join(dir, 'ws-link');
    symlinkSync(ws, wsLink);
    symlinkSync(join(ws, 'memory', 'new.md'), join(dir, 'dangling.md'));
    const before = files(ws);
    for (const [via, out] of [
      [wsLink, join(ws, 'memory', 'copy.md')],
      [ws, join(wsLink, 'memory', 'copy.md')],
      [ws, join(dir, 'dangling.md')],
    ] as const) {
      const r = await mem(['-C', via, 'export', '--format', 'md', '--out', out]);
      assert.equal(r.code, 2, `-C ${via} --out ${out}: ${r.stderr}`);
      assert.match(r.stderr, /is inside the workspace's memory \(memory\/(copy|new)\.md\)/);
    }
    assert.deepEqual(files(ws), before, 'nothing was written into the workspace');
    const beside = await mem(['-C', wsLink, 'export', '--out', join(dir, 'export.json')]);
    assert.equal(beside.code, 0, beside.stderr);
  },
);

test(
  '--out /dev/stdout is stdout, even a socket (as a test runner gives): the export alone, as without --out',
  { skip: process.platform === 'win32' ? 'no /dev/stdout' : false },
  async (t) => {
    const ws = workspace(t, { 'memory/2026-11-21.md': DAY });
    const plain = await mem(['-C', ws, 'export', '--now', '2026-11-22T09:00:00Z']);
    for (const flags of [[], ['--json']]) {
      const r = await mem(['-C', ws, ...flags, 'export', '--out', '/dev/stdout', '--now', '2026-11-22T09:00:00Z']);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, plain.stdout, 'stdout is the export, with no summary after it');
      assert.equal(r.stderr, '');
    }
  },
);
