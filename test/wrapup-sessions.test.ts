/**
 * `mem wrapup` tells what each session did (issue 31, items 4 and 5), through the built CLI on
 * Claude Code transcripts shaped like real ones (tool_use / tool_result lines, a refused edit): an
 * idle day writes nothing and compound does not cite it; a day where an agent built something gets
 * one `###` section per session with its goal, outcome and changed files cited by message range; one
 * message is one open loop; a long bullet is cut at a word or character boundary with "…", nothing
 * left open and no secret half-kept.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { claudeSession } from './helpers/claude-sessions.js';
import { editConfig, mem, memOk, tempDir } from './helpers/cli.js';

type Line = { role: 'user' | 'assistant'; content: unknown; meta?: boolean };
const say = (role: 'user' | 'assistant', text: string): Line => ({
  role,
  content: role === 'user' ? text : [{ type: 'text', text }],
});
const call = (id: string, name: string, input: object): Line => ({
  role: 'assistant',
  content: [{ type: 'tool_use', id, name, input }],
});
const result = (id: string, text: string): Line => ({
  role: 'user',
  content: [{ type: 'tool_result', tool_use_id: id, content: text }],
});

/** A Claude Code session with tool calls, as Claude Code writes one (one minute a line). */
function agentSession(root: string, folder: string, id: string, start: string, lines: Line[]): void {
  const dir = join(root, 'home', '.claude', 'projects', folder.replace(/[^A-Za-z0-9]/g, '-'));
  mkdirSync(dir, { recursive: true });
  const t0 = Date.parse(start);
  const jsonl = lines.map((l, i) =>
    JSON.stringify({
      type: l.role,
      sessionId: id,
      cwd: folder,
      isSidechain: false,
      uuid: `${id}-${i}`,
      timestamp: new Date(t0 + i * 60_000).toISOString(),
      message: { role: l.role, content: l.content },
    }),
  );
  writeFileSync(join(dir, `${id}.jsonl`), jsonl.join('\n') + '\n');
}

const TOKEN = 'ghp_' + 'Zx8Qw2Lm4Np6Rt8Vb0Cd2Fg4Hj6Kl8Mn0Pq2';
const LONG =
  'Please document the import flow before Friday, so that the next person who touches it does not have to read every adapter: the reader calls `parseRows(file, { strict: true, encoding: "utf-8" })` and then hands each row to the validator, ' +
  `token ${TOKEN} stays out.`;
const LONG_ZH =
  '请把导入流程的说明写清楚，包括读取文件、校验每一行、把错误汇总成报告、再把结果写回数据库这几个步骤，每一步都要写明失败时怎么处理、重试几次、日志写到哪里、谁来负责跟进，还要说明哪些字段是必填的、哪些可以为空、默认值是什么、不同客户的文件格式有什么差别、编码不是UTF-8时怎么办、文件太大时怎么分批处理、导入到一半失败时怎么回滚、怎样通知负责的同事，以及上线后怎么监控导入的成功率和耗时，出了问题先找谁、再找谁。';

test('an idle day writes nothing; a day an agent built an app says what was done, per session, and cuts long bullets cleanly', async (t) => {
  const root = tempDir(t);
  const ws = join(root, 'ws');
  await memOk(['init', ws]);
  editConfig(ws, (cfg) => {
    cfg.timezone = 'UTC';
    cfg.sources = [{ name: 'cc', kind: 'claude-code', path: join(root, 'home', '.claude', 'projects') }];
  });
  const app = join(root, 'src', 'todo');
  mkdirSync(app, { recursive: true });
  // Friday: only a scheduler's poll.
  claudeSession(root, app, 'cron-friday', '2026-11-20T02:00:00Z', [
    ['user', '[cron] nightly check: rotate the logs.'],
    ['assistant', 'HEARTBEAT_OK'],
  ]);
  // Saturday: an agent builds the app; a refused edit changes nothing.
  agentSession(root, app, '0b7e2c4a-5d6f-4a1b-9c3d-2e4f6a8b0c1d', '2026-11-21T09:00:00Z', [
    say('user', 'Hi!'),
    say('user', 'Build a todo app with Next.js in this folder.'),
    call('t1', 'Write', {
      file_path: join(app, 'src', 'app', 'page.tsx'),
      content: 'export default function Page() {}',
    }),
    result('t1', `File created successfully at: ${join(app, 'src', 'app', 'page.tsx')}`),
    call('t2', 'Edit', { file_path: join(app, 'package.json'), old_string: '"x"', new_string: '"y"' }),
    result('t2', `The file ${join(app, 'package.json')} has been updated.`),
    call('t3', 'Write', { file_path: join(app, 'refused.ts'), content: 'x' }),
    result('t3', '<tool_use_error>File has not been read yet. Read it first before writing to it.</tool_use_error>'),
    say(
      'assistant',
      'The todo app is ready: a Next.js page lists, adds and completes todos, and package.json has the dev script to run it locally.',
    ),
    say('user', 'Maybe we should use tRPC later. Not sure.'),
    say('user', LONG),
    say('user', LONG_ZH),
  ]);

  // The idle day: one line, nothing written, --json says so.
  const idle = await mem(['-C', ws, '--now', '2026-11-21T06:00', 'wrapup', '--date', '2026-11-20']);
  assert.equal(idle.code, 0, idle.stderr);
  assert.equal(
    idle.stdout,
    "wrapup 2026-11-20: nothing to summarise, no entries and no sessions but bots' (1 bot session left out); wrote nothing\n",
  );
  assert.ok(!existsSync(join(ws, 'second-brain', 'summaries', '2026-11-20-wrapup.md')));

  const r = await mem(['-C', ws, '--now', '2026-11-22T06:00', 'wrapup', '--date', '2026-11-21', '--json']);
  assert.equal(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout) as { idle: boolean; counts: Record<string, number> };
  assert.equal(out.idle, false);
  assert.equal(out.counts.openLoops, 1, 'one message, one open loop');
  const text = readFileSync(join(ws, 'second-brain', 'summaries', '2026-11-21-wrapup.md'), 'utf8');
  const section = /\n### 09:00 \S+ 0b7e2c4a-5d6f-4a1b-9c3d-2e4f6a8b0c1d\n((?:- .*\n)+)/.exec(text)?.[1];
  assert.ok(section, text);
  const cite = ' — session 0b7e2c4a-5d6f-4a1b-9c3d-2e4f6a8b0c1d · messages';
  assert.match(section, new RegExp(`^- Goal: Build a todo app with Next\\.js in this folder${cite} 2-2\\n`));
  assert.match(
    section,
    new RegExp(
      `\\n- Outcome: The todo app is ready: a Next\\.js page lists, adds and completes todos, .*${cite} 9-9\\n`,
    ),
  );
  assert.match(section, new RegExp(`\\n- Changed 2 files: src/app/page\\.tsx, package\\.json${cite} 3-5\\n`));
  const loops = section.split('\n').filter((l) => l.startsWith('- Open loop:'));
  assert.deepEqual(loops, [`- Open loop: Maybe we should use tRPC later. Not sure${cite} 10-10`]);

  // Long bullets: cut at a word (or CJK character) boundary, "…", no quote or code span left open, no half token.
  const long = section.split('\n').filter((l) => l.includes('…'));
  assert.equal(long.length, 2, section);
  for (const line of long) {
    // An action item, or (when microsync made the request an entry) the entry's title, quoted.
    const quoted = /^- Recorded \d+ entr(?:y|ies): "/.test(line);
    const said = line.replace(/^- (?:Action item|Recorded \d+ entr(?:y|ies)): "?/, '').replace(/ — session .*$/, '');
    const [kept, after] = (quoted ? said.replace(/"$/, '') : said).split('…') as [string, string];
    assert.ok([...kept].length <= 200, said);
    assert.ok(LONG.startsWith(kept) || LONG_ZH.startsWith(kept), `"${kept}" is not where the text begins`);
    const next = (LONG.startsWith(kept) ? LONG : LONG_ZH).slice(kept.length);
    assert.match(next, /^[\s,，、。；;:：]|^\p{sc=Han}/u, `cut inside a word: "${kept}|${next.slice(0, 10)}"`);
    assert.equal((kept + after).split('`').length % 2, 1, `a code span left open: ${said}`);
    assert.equal((kept + after).split('"').length % 2, 1, `a quote left open: ${said}`);
  }
  assert.ok(!text.includes('ghp_'), 'a secret is redacted before the cut, never half-kept');
  assert.doesNotMatch(text, /refused\.ts|\(s\)/);

  // Compound's "Where to look" cites the day that has a summary, never the idle one, nor an older wrapup's six "(none)".
  const old = [
    'Decisions made today',
    'Action items',
    'Important conversations',
    'Technical notes / debugging lessons',
    'Open loops',
    'Tomorrow next steps',
  ]
    .map((h) => `## ${h}\n- (none)\n`)
    .join('\n');
  writeFileSync(
    join(ws, 'second-brain', 'summaries', '2026-11-19-wrapup.md'),
    `---\ndate: 2026-11-19\nsessions:\n  []\n---\n# Wrap-up 2026-11-19\n\n${old}`,
  );
  const c = await mem(['-C', ws, '--now', '2026-11-23T06:00', 'compound', '--week', '2026-W47', '--json']);
  assert.equal(c.code, 0, c.stderr);
  const memory = readFileSync(join(ws, 'MEMORY.md'), 'utf8');
  assert.match(memory, /Daily wrap-ups: `second-brain\/summaries\/2026-11-21-wrapup\.md`\./);
  assert.deepEqual(
    readdirSync(join(ws, 'second-brain', 'summaries'))
      .filter((n) => n.endsWith('.md'))
      .sort(),
    ['2026-11-19-wrapup.md', '2026-11-21-wrapup.md'],
  );
});
