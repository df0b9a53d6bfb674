/** `mem import openclaw|claude-md`: adopts another memory as entries with sources, never twice, never touching the source. */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { BIN, childEnv, mem, ROOT, tempDir } from './helpers/cli.js';
import { files, markdownOnly, workspace } from './fixtures/governance/workspace.js';

const NOW = ['--now', '2026-11-22T10:00:00Z'];

test('import openclaw and claude-md: entries with sources naming file and lines; a re-run adds nothing', async (t) => {
  const src = tempDir(t);
  cpSync(join(ROOT, 'test/fixtures/governance/openclaw'), join(src, 'openclaw'), { recursive: true });
  cpSync(join(ROOT, 'test/fixtures/governance/claude'), join(src, 'claude'), { recursive: true });
  const sources = files(src);
  const ws = workspace(t, {});

  const oc = await mem(['-C', ws, ...NOW, '--json', 'import', 'openclaw', join(src, 'openclaw')]);
  assert.equal(oc.code, 0, oc.stderr);
  const r = JSON.parse(oc.stdout);
  assert.equal(r.items, 6);
  assert.deepEqual(
    r.added.map((a: { id: string; file: string }) => [a.id, a.file]),
    [
      ['NOTE-20261122-prefers-answers-in-british-english-short-and-direct', 'memory/2026-11-22.md'],
      ['NOTE-20261122-lives-in-lisbon-works-on-the-shop-backend', 'memory/2026-11-22.md'],
      ['DECISION-20261122-we-decided-to-keep-invoices-in-postgresql-not-in-s3-json', 'memory/2026-11-22.md'],
      ['RULE-20261122-never-deploy-the-shop-on-fridays', 'memory/2026-11-22.md'],
      // A dated OpenClaw daily note keeps its day; the fenced code block is not an item.
      ['RULE-20261110-talked-about-the-release-train', 'memory/2026-11-10.md'],
      ['NOTE-20261110-remember-the-vpn-certificate-expires-on-2027-01-31', 'memory/2026-11-10.md'],
    ],
  );
  const cm = await mem(['-C', ws, ...NOW, '--json', 'import', 'claude-md', join(src, 'claude', 'shop')]);
  assert.equal(cm.code, 0, cm.stderr);
  assert.deepEqual(
    JSON.parse(cm.stdout).added.map((a: { id: string }) => a.id),
    [
      'RULE-20261122-run-pnpm-test-before-every-commit',
      'RULE-20261122-use-pnpm-never-npm-in-this-repo',
      'RULE-20261122-keep-functions-under-40-lines',
    ],
  );

  const md = files(ws, markdownOnly);
  const day = md.get('memory/2026-11-22.md')!;
  assert.match(
    day,
    new RegExp(
      `## Rule: Keep functions under 40 lines\\n- id: RULE-20261122-keep-functions-under-40-lines\\n- date: 2026-11-22\\n- source:\\n  - session_id: import:claude-md\\n  - session_path: ${join(src, 'claude/shop/CLAUDE.md').replace(/[.]/g, '\\.')}\\n  - message_range: 10-11\\n- conclusion: Keep functions under 40 lines\\. Split longer ones into helpers named for what they do\\.\\n- confidence: 1\\n- origin: manual\\n- status: active\\n- scope: project:shop\\n`,
    ),
  );
  assert.equal((await mem(['-C', ws, 'lint'])).code, 0);

  // Again: nothing added, nothing changed; the imported files were never touched.
  for (const [kind, p] of [
    ['openclaw', join(src, 'openclaw')],
    ['claude-md', join(src, 'claude', 'shop', 'CLAUDE.md')],
  ]) {
    const again = await mem(['-C', ws, ...NOW, '--json', 'import', kind!, p!]);
    assert.equal(again.code, 0, again.stderr);
    assert.deepEqual(JSON.parse(again.stdout).added, []);
  }
  assert.deepEqual(files(ws, markdownOnly), md);
  assert.deepEqual(files(src), sources);
  // Imported memory is searchable at once.
  assert.match(
    (await mem(['-C', ws, ...NOW, 'search', 'VPN certificate'])).stdout,
    /NOTE-20261110-remember-the-vpn-certificate-expires-on-2027-01-31/,
  );
});

test("import openclaw: a file named like a day that is none (2026-02-30, 2026-13-01, 0000-01-01) gets today's date, as any other name; a real day keeps its own", async (t) => {
  const src = join(tempDir(t), 'openclaw');
  mkdirSync(join(src, 'memory'), { recursive: true });
  for (const day of ['2026-02-30', '2026-13-01', '0000-01-01', '2024-02-29'])
    writeFileSync(join(src, 'memory', `${day}.md`), `# Notes\n\n- Fact from ${day} about the deploy pipeline.\n`);
  const ws = workspace(t, {});
  const r = await mem(['-C', ws, ...NOW, '--json', 'import', 'openclaw', src]);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(
    JSON.parse(r.stdout)
      .added.map((a: { file: string }) => a.file)
      .sort(),
    ['memory/2024-02-29.md', ...Array(3).fill('memory/2026-11-22.md')],
  );
  assert.deepEqual([...files(ws, markdownOnly).keys()].filter((f) => f.startsWith('memory/')).sort(), [
    'memory/2024-02-29.md',
    'memory/2026-11-22.md',
  ]);
  const lint = await mem(['-C', ws, 'lint']);
  assert.equal(lint.code, 0, lint.stdout);
});

test('import refuses an unknown kind and a missing path', async (t) => {
  const ws = workspace(t, {});
  const bad = await mem(['-C', ws, 'import', 'notion', ws]);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /import kind "notion" is not one of openclaw, claude-md, codex, claude-memory/);
  const missing = await mem(['-C', ws, 'import', 'claude-md', join(ws, 'nope')]);
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /no such file or folder/);
});

test('import reads strict UTF-8: a Latin-1 file in an OpenClaw folder is skipped with a warning naming it and its line; a CLAUDE.md in Latin-1 is refused', async (t) => {
  const src = join(tempDir(t), 'openclaw');
  mkdirSync(join(src, 'memory'), { recursive: true });
  writeFileSync(join(src, 'MEMORY.md'), '# Notes\n\n- The deploy runs on Tuesdays only.\n');
  writeFileSync(
    join(src, 'memory', '2026-11-01.md'),
    Buffer.from('# Lunch\n\n- Caf\xe9 on the corner serves the team lunch.\n', 'latin1'),
  );
  writeFileSync(
    join(src, 'CLAUDE.md'),
    Buffer.from('# Shop\n\n- Never deploy the Caf\xe9 service on Fridays.\n', 'latin1'),
  );
  const ws = workspace(t, {});
  const before = files(ws, markdownOnly);

  const cm = await mem(['-C', ws, ...NOW, 'import', 'claude-md', src]);
  assert.equal(cm.code, 1);
  assert.equal(
    cm.stderr,
    `mem: ${join(src, 'CLAUDE.md')}: line 3 is not valid UTF-8, so nothing was imported; convert it to UTF-8 (e.g. iconv -f latin1 -t utf-8) and run again\n`,
  );
  assert.deepEqual(files(ws, markdownOnly), before);

  const oc = await mem(['-C', ws, ...NOW, '--json', 'import', 'openclaw', src]);
  assert.equal(oc.code, 0, oc.stderr);
  const res = JSON.parse(oc.stdout);
  const warning = `skipped ${join(src, 'memory', '2026-11-01.md')}: line 3 is not valid UTF-8 (convert it, e.g. iconv -f latin1 -t utf-8)`;
  assert.deepEqual(
    [res.files, res.warnings, res.added.map((a: { id: string }) => a.id)],
    [[join(src, 'MEMORY.md')], [warning], ['NOTE-20261122-the-deploy-runs-on-tuesdays-only']],
  );
  assert.match(oc.stderr, new RegExp(`^warning: ${warning.replace(/[.()]/g, '\\$&')}$`, 'm'));
  assert.ok(![...files(ws, markdownOnly).values()].some((text) => text.includes('\ufffd')));
});

test('import strips control characters before it redacts: a NUL in CLAUDE.md or MEMORY.md no longer makes the day a binary file that search leaves out, nor hides a password from redaction', async (t) => {
  const src = tempDir(t);
  const project = join(src, 'shop');
  mkdirSync(project);
  writeFileSync(
    join(project, 'CLAUDE.md'),
    '# Project\x07\n\n- Always use pnpm for installs.\n- Never commit .env files.\n\x00\x01binary\n- The staging password\x00=hunter2hunter2 is shared.\n',
  );
  const openclaw = join(src, 'openclaw');
  mkdirSync(openclaw);
  writeFileSync(
    join(openclaw, 'MEMORY.md'),
    '# Notes\n\n- garbage collector runs nightly \x00\x00\n- \x00\x00\x00\x00\x00\x00\x00\x00\x00\n',
  );
  const ws = workspace(t, {});

  const cm = await mem(['-C', ws, ...NOW, 'import', 'claude-md', project]);
  assert.equal(cm.code, 0, cm.stderr);
  const oc = await mem(['-C', ws, ...NOW, '--json', 'import', 'openclaw', openclaw]);
  assert.equal(oc.code, 0, oc.stderr);
  // Nine NULs are no item: what is left after stripping is too short to be one.
  assert.deepEqual(
    JSON.parse(oc.stdout).added.map((a: { id: string }) => a.id),
    ['NOTE-20261122-garbage-collector-runs-nightly'],
  );

  const day = files(ws, markdownOnly).get('memory/2026-11-22.md')!;
  assert.doesNotMatch(day, /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
  assert.ok(!day.includes('hunter2'), day);
  assert.match(day, /- conclusion: Never commit \.env files\. binary\n/);
  assert.match(day, /## Note: Garbage collector runs nightly\n/);
  assert.match(day, /- tags: imported:Project\n/);
  const search = await mem(['-C', ws, ...NOW, 'search', 'pnpm']);
  assert.equal(search.code, 0, search.stderr);
  assert.match(search.stdout, /RULE-20261122-always-use-pnpm-for-installs/);
  assert.doesNotMatch(search.stderr, /binary/);
});

test('import: punctuation alone (a ---------- rule, !!!!!!!!!!) is no item, and an item opening with "..." is titled by the sentence after it', async (t) => {
  const dir = join(tempDir(t), 'shop');
  mkdirSync(dir);
  writeFileSync(join(dir, 'CLAUDE.md'), '# Shop\n\n----------\n\n!!!!!!!!!!\n\n- ... then run pnpm install.\n');
  const ws = workspace(t, {});
  const r = await mem(['-C', ws, ...NOW, '--json', 'import', 'claude-md', dir, '--dry-run']);
  assert.equal(r.code, 0, r.stderr);
  const res = JSON.parse(r.stdout);
  assert.deepEqual(
    [res.items, res.added.map((a: { id: string }) => a.id)],
    [1, ['RULE-20261122-then-run-pnpm-install']],
  );
});

test('import skips each <memfold-context> pack as mem context writes it (any letter case, to its closing line), keeping the lines between packs; one mentioned in a sentence hides nothing', async (t) => {
  const dir = join(tempDir(t), 'shop');
  mkdirSync(dir);
  writeFileSync(
    join(dir, 'CLAUDE.md'),
    [
      '# Shop',
      '',
      '- The hook prints a <memfold-context> block at session start.',
      '- Always run the linter before pushing code.',
      '',
      'Injected: <MEMFOLD-CONTEXT>',
      '- Rule: an old memory line that must not come back.',
      '- quoting </memfold-context> inside the pack',
      '- Note: still injected memory.',
      '</Memfold-Context>',
      '',
      '- Never force-push to the main branch.',
      '',
      // A second pack: the person's lines between the two are theirs, and so is what follows.
      '<memfold-context>',
      '- another pack line',
      '</memfold-context>',
      '- The staging database is reset every Monday morning.',
      '',
    ].join('\n'),
  );
  const ws = workspace(t, {});
  const r = await mem(['-C', ws, ...NOW, '--json', 'import', 'claude-md', dir, '--dry-run']);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(
    JSON.parse(r.stdout).added.map((a: { id: string; from: string }) => [a.id, a.from.replace(`${dir}/`, '')]),
    [
      ['RULE-20261122-the-hook-prints-a-memfold-context-block-at-session-start', 'CLAUDE.md:3-3'],
      ['RULE-20261122-always-run-the-linter-before-pushing-code', 'CLAUDE.md:4-4'],
      ['RULE-20261122-injected', 'CLAUDE.md:6-6'],
      ['RULE-20261122-never-force-push-to-the-main-branch', 'CLAUDE.md:12-12'],
      ['RULE-20261122-the-staging-database-is-reset-every-monday-morning', 'CLAUDE.md:17-17'],
    ],
  );
});

test(
  'import openclaw reads only regular files: a FIFO and links to folders (loops) are skipped with one warning each',
  { skip: process.platform === 'win32' && 'no FIFOs or folder links on Windows' },
  async (t) => {
    const src = join(tempDir(t), 'openclaw');
    cpSync(join(ROOT, 'test/fixtures/governance/openclaw'), src, { recursive: true });
    mkdirSync(join(src, 'memory', 'sub'));
    // Two loops: a link up the tree and a link to the folder itself (which together made the old walk branch without end).
    symlinkSync('..', join(src, 'memory', 'sub', 'up'));
    symlinkSync(join(src, 'memory'), join(src, 'memory', 'self'));
    execFileSync('mkfifo', [join(src, 'memory', 'pipe.md')]);
    const ws = workspace(t, {});

    const r = await mem(['-C', ws, ...NOW, '--json', 'import', 'openclaw', src], { timeoutMs: 30_000 });
    assert.equal(r.code, 0, r.stderr);
    const res = JSON.parse(r.stdout);
    assert.deepEqual(res.files, [join(src, 'MEMORY.md'), join(src, 'memory', '2026-11-10.md')]);
    assert.equal(res.added.length, 6);
    const warnings = [
      `skipped ${join(src, 'memory', 'pipe.md')}: a FIFO`,
      `skipped ${join(src, 'memory', 'self')}: a link to a folder, not followed`,
      `skipped ${join(src, 'memory', 'sub', 'up')}: a link to a folder, not followed`,
    ];
    assert.deepEqual(res.warnings, warnings);
    assert.deepEqual(
      r.stderr
        .trim()
        .split('\n')
        .filter((l) => l.startsWith('warning: skipped')),
      warnings.map((w) => `warning: ${w}`),
    );
  },
);

test('mem context and memory_context run in a project folder whose name has a space find the rules imported from it', async (t) => {
  const root = tempDir(t);
  const project = join(root, 'proj', 'my shop');
  mkdirSync(project, { recursive: true });
  writeFileSync(join(project, 'CLAUDE.md'), '# Shop\n\n- Never deploy the shop on Fridays.\n');
  const ws = workspace(t, {});
  const imported = await mem(['-C', ws, ...NOW, '--json', 'import', 'claude-md', join(project, 'CLAUDE.md')]);
  assert.equal(imported.code, 0, imported.stderr);
  assert.match(files(ws, markdownOnly).get('memory/2026-11-22.md') ?? '', /^- scope: project:my-shop$/m);

  const ctx = await mem(['-C', ws, ...NOW, 'context', '--format', 'json'], { cwd: project });
  assert.equal(ctx.code, 0, ctx.stderr);
  const pack = JSON.parse(ctx.stdout) as { scope: string; items: Array<{ layer: number; title: string }> };
  assert.equal(pack.scope, 'project:my-shop');
  assert.deepEqual(
    pack.items.map((i) => [i.layer, i.title]),
    [[1, 'Never deploy the shop on Fridays']],
  );
  // Given by hand with the space, the scope is the same one.
  const given = await mem(['-C', ws, ...NOW, 'context', '--format', 'json', '--scope', 'project:My Shop']);
  assert.equal((JSON.parse(given.stdout) as typeof pack).items.length, 1, given.stderr);

  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, '-C', ws, ...NOW, 'mcp'],
    cwd: project,
    env: childEnv() as Record<string, string>,
    stderr: 'pipe',
  });
  const client = new Client({ name: 'memfold-test', version: '1.0.0' });
  await client.connect(transport);
  t.after(() => client.close());
  const r = (await client.callTool({ name: 'memory_context', arguments: {} })) as { structuredContent?: typeof pack };
  assert.deepEqual(
    r.structuredContent?.items.map((i) => i.title),
    ['Never deploy the shop on Fridays'],
  );
});
