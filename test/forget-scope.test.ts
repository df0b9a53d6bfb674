/**
 * `mem forget --hard` removes exactly the named entries: never a line of another entry, however much
 * that entry's id, title or conclusion looks like the forgotten one. Through the built CLI.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { mem, tempDir } from './helpers/cli.js';

const json = (stdout: string) => JSON.parse(stdout) as Record<string, any>;

async function initWs(t: { after(fn: () => void): void }): Promise<string> {
  const ws = join(tempDir(t, 'memfold-scope-'), 'w');
  const r = await mem(['init', ws]);
  assert.equal(r.code, 0, r.stderr);
  return ws;
}

async function remember(ws: string, now: string, text: string, kind: string): Promise<string> {
  const r = await mem(['-C', ws, '--now', now, '--json', 'remember', text, '--kind', kind]);
  assert.equal(r.code, 0, r.stderr);
  return json(r.stdout).id as string;
}

/** The entry block of `id` in a daily file's text (its heading through the line before the next heading). */
const blockOf = (text: string, id: string) => text.split(/\n(?=## )/).find((b) => b.includes(`- id: ${id}\n`));

describe('forget --hard touches only the named entries', { concurrency: 2 }, () => {
  test('an entry whose title and conclusion contain the forgotten conclusion stays whole, is reported, and keeps its use-log lines', async (t) => {
    const ws = await initWs(t);
    const now = ['--now', '2026-11-18T10:00'];
    const gone = await remember(ws, '2026-11-18T10:00', 'Deploys happen on Tuesdays only', 'rule');
    const stays = await remember(
      ws,
      '2026-11-18T10:00',
      'Deploys happen on Tuesdays only, except security hotfixes which may go out any day',
      'rule',
    );
    mkdirSync(join(ws, 'second-brain/summaries'), { recursive: true });
    writeFileSync(
      join(ws, 'second-brain/summaries/2026-11-18-wrapup.md'),
      '# Wrap-up 2026-11-18\n\n- Agreed: Deploys happen on Tuesdays only.\n- Agreed: Deploys happen on Tuesdays only, except security hotfixes which may go out any day.\n',
    );
    // As compound writes them: each item cites its entry; the kept one is shortened, so its text alone does not say whose it is.
    const item = (text: string, id: string) => `- ${text} ([${id}](memory/2026-11-18.md))\n`;
    writeFileSync(
      join(ws, 'MEMORY.md'),
      `# MEMORY\n\n## Core rules\n${item('Deploys happen on Tuesdays only', gone)}${item('Deploys happen on Tuesdays only, except security…', stays)}`,
    );
    assert.equal((await mem(['-C', ws, ...now, 'get', gone])).code, 0);
    assert.equal((await mem(['-C', ws, ...now, 'get', stays])).code, 0);
    const daily = join(ws, 'memory/2026-11-18.md');
    const staysBlock = blockOf(readFileSync(daily, 'utf8'), stays)!;
    assert.ok(staysBlock.startsWith('## Rule: Deploys happen on Tuesdays only, except'));

    const dry = await mem(['-C', ws, ...now, '--json', 'forget', gone, '--hard', '--dry-run']);
    assert.equal(dry.code, 0, dry.stderr);
    const plan = json(dry.stdout);
    assert.deepEqual(plan.files, [
      { file: 'MEMORY.md', entries: 0, lines: 1 },
      { file: 'memory/2026-11-18.md', entries: 1, lines: 0 },
      { file: 'second-brain/summaries/2026-11-18-wrapup.md', entries: 0, lines: 1 },
    ]);
    assert.deepEqual(
      plan.kept.map((k: { entry: string; file: string }) => [k.file, k.entry]),
      [
        ['MEMORY.md', stays],
        ['memory/2026-11-18.md', stays],
      ],
    );

    const r = await mem(['-C', ws, ...now, 'forget', gone, '--hard', '--yes']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stdout,
      new RegExp(`left as is: memory/2026-11-18\\.md:\\d+ \\(entry ${stays}\\) quotes a removed conclusion`),
    );
    const after = readFileSync(daily, 'utf8');
    assert.equal(blockOf(after, stays), staysBlock, 'the other rule is byte for byte as it was');
    assert.ok(!after.includes(`- id: ${gone}\n`));
    assert.equal(
      readFileSync(join(ws, 'MEMORY.md'), 'utf8'),
      `# MEMORY\n\n## Core rules\n${item('Deploys happen on Tuesdays only, except security…', stays)}`,
    );
    assert.equal(
      readFileSync(join(ws, 'second-brain/summaries/2026-11-18-wrapup.md'), 'utf8'),
      '# Wrap-up 2026-11-18\n\n- Agreed: Deploys happen on Tuesdays only, except security hotfixes which may go out any day.\n',
    );
    const usage = readFileSync(join(ws, '.mem/usage.jsonl'), 'utf8');
    assert.ok(usage.includes(stays) && !new RegExp(`${gone}"`).test(usage), usage);
    assert.equal((await mem(['-C', ws, 'get', stays])).code, 0);
    const lint = await mem(['-C', ws, '--json', 'lint']);
    assert.equal(lint.code, 0, lint.stdout + lint.stderr);
  });

  test('a CJK id that starts another CJK id: the other entry keeps its id line, and trace keeps its log lines apart', async (t) => {
    const ws = await initWs(t);
    const short = await remember(ws, '2026-11-16T10:00', '记住：部署前检查', 'note');
    const long = await remember(ws, '2026-11-16T10:05', '记住：部署前检查数据库迁移脚本', 'note');
    assert.ok(long.startsWith(short), `${long} starts with ${short}`);
    assert.equal((await mem(['-C', ws, '--now', '2026-11-16T10:06', 'forget', long])).code, 0);
    const tr = await mem(['-C', ws, '--json', 'trace', short]);
    assert.equal(tr.code, 0, tr.stderr);
    assert.deepEqual(
      json(tr.stdout).chain[0].log,
      [],
      "the log line retracting the longer id is not the shorter entry's",
    );

    const daily = join(ws, 'memory/2026-11-16.md');
    const longBlock = blockOf(readFileSync(daily, 'utf8'), long);
    const r = await mem(['-C', ws, '--now', '2026-11-16T10:07', 'forget', short, '--hard', '--yes']);
    assert.equal(r.code, 0, r.stderr);
    const after = readFileSync(daily, 'utf8');
    assert.equal(blockOf(after, long), longBlock, 'the other entry is byte for byte as it was');
    assert.ok(!after.includes(`- id: ${short}\n`));
    const lint = await mem(['-C', ws, 'lint']);
    assert.equal(lint.code, 0, lint.stdout + lint.stderr);
    assert.equal((await mem(['-C', ws, 'get', long])).code, 0);
  });
});
