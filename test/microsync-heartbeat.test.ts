/**
 * Heartbeat polls are dropped turn by turn, not session by session: OpenClaw runs them inside the main
 * session, so a session that opens with one still has the person's messages after it, and those land;
 * the polls and the agent's HEARTBEAT_OK never do. Sessions that are wholly a scheduler's (an OpenClaw
 * cron run) are still skipped whole, and wrapup skips a day of nothing but heartbeats. The built CLI
 * on real temp workspaces, plus the pure checks.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { isHeartbeatAck, isHeartbeatPoll } from '../src/extract/heartbeat.js';
import { prepareTurns } from '../src/extract/trust.js';
import type { Turn } from '../src/transcripts/index.js';
import { dailyText, editConfig, entryIds, mem, transcriptWorkspace } from './helpers/cli.js';
import { jsonl, put } from './helpers/transcripts-tmp.js';

const PROMPT =
  'Read HEARTBEAT.md if it exists (workspace context). Follow it strictly. Do not infer or repeat old tasks from prior chats. If nothing needs attention, reply HEARTBEAT_OK.';
/** A poll as OpenClaw writes it into the main session: queued system events, the prompt, where and when. */
const POLL = `System: [2026-11-24 09:29:58 GMT+8] Exec finished (gentle-c, code 0)\n\n${PROMPT}\nWhen reading HEARTBEAT.md, use workspace file /home/dev/.openclaw/workspace/HEARTBEAT.md (exact case).\nCurrent time: Monday, November 24th, 2026 - 09:30 AM (Asia/Shanghai) / 2026-11-24 01:30 UTC`;

describe('what a heartbeat poll and its acknowledgement look like', () => {
  test('polls: the default prompt after queued system events, tags, labels, custom prompts that ask for the token', () => {
    for (const text of [
      PROMPT,
      POLL,
      '[heartbeat] check the inbox',
      'Heartbeat: check the inbox',
      'Check the deploy queue. If nothing needs attention, reply with `HEARTBEAT_OK`.',
    ]) {
      assert.ok(isHeartbeatPoll(text), text);
    }
    for (const text of [
      'Please stop replying HEARTBEAT_OK every time; from now on send me a one-line summary.',
      'Why does HEARTBEAT.md exist?',
      'System: is the build green?',
    ]) {
      assert.ok(!isHeartbeatPoll(text), text);
    }
  });

  test('acknowledgements: the token first or last with at most a short note; an alert or a mention is not one', () => {
    for (const text of [
      'HEARTBEAT_OK',
      '  **HEARTBEAT_OK**  ',
      '<b>HEARTBEAT_OK</b>',
      'Nothing new in the inbox. HEARTBEAT_OK',
      'HEARTBEAT_OK — inbox empty.',
    ]) {
      assert.ok(isHeartbeatAck(text), text);
    }
    for (const text of [
      'The 09:00 deploy failed: the migration timed out. Shall I roll back?',
      'I replied HEARTBEAT_OK because the inbox was empty, as you asked.',
      `${'A long alert. '.repeat(30)}HEARTBEAT_OK`,
    ]) {
      assert.ok(!isHeartbeatAck(text), text);
    }
  });

  test('prepareTurns leaves the polls and acknowledgements out and keeps every other turn with its index', () => {
    const turn = (index: number, role: Turn['role'], text: string): Turn => ({
      sessionId: 's',
      sessionPath: '/x/s.jsonl',
      index,
      role,
      text,
      timestamp: '2026-11-24T01:30:00Z',
      endOffset: index * 10,
    });
    const prepared = prepareTurns([
      turn(1, 'user', POLL),
      turn(2, 'assistant', 'HEARTBEAT_OK'),
      turn(3, 'user', 'We decided to drop Redis.'),
      turn(4, 'assistant', 'When idle I send HEARTBEAT_OK, as HEARTBEAT.md asks.'),
    ]);
    assert.deepEqual(
      prepared.turns.map((t) => t.index),
      [3, 4],
    );
  });
});

describe('microsync on an OpenClaw main session that opens with a heartbeat poll', () => {
  let id = 0;
  const msg = (minute: number, role: 'user' | 'assistant', text: string) => ({
    type: 'message',
    id: `m${++id}`,
    parentId: id > 1 ? `m${id - 1}` : null,
    timestamp: `2026-11-24T01:${String(minute).padStart(2, '0')}:00.000Z`,
    message: {
      role,
      content: [{ type: 'text', text }],
      timestamp: Date.parse(`2026-11-24T01:${String(minute).padStart(2, '0')}:00.000Z`),
    },
  });
  const header = (sid: string) => ({
    type: 'session',
    version: 3,
    id: sid,
    timestamp: '2026-11-24T01:00:00.000Z',
    cwd: '/home/dev/.openclaw/workspace',
  });

  test("the person's decision and rule between heartbeat polls land; the polls and HEARTBEAT_OK do not; a cron run is still skipped whole", async (t) => {
    const { ws, tr } = await transcriptWorkspace(t, 'jsonl');
    editConfig(ws, (cfg) => (cfg.sources = [{ name: 'claw', kind: 'openclaw', path: '../tr' }]));
    put(
      tr,
      'agents/main/sessions/main-1.jsonl',
      jsonl(
        header('main-1'),
        msg(0, 'user', PROMPT),
        msg(1, 'assistant', 'HEARTBEAT_OK'),
        msg(10, 'user', 'We decided to move the nightly backup to 02:00 because the 01:00 slot collides with billing.'),
        msg(11, 'assistant', 'Noted, I will update the schedule.'),
        msg(30, 'user', POLL),
        msg(31, 'assistant', '**HEARTBEAT_OK**'),
        msg(40, 'user', 'From now on, always ask before deleting anything in the shared drive.'),
        msg(41, 'assistant', 'Understood.'),
      ),
    );
    put(
      tr,
      'agents/main/sessions/cron-1.jsonl',
      jsonl(
        header('cron-1'),
        msg(0, 'user', "[cron:7f3a2c10 Nightly billing] Reconcile yesterday's invoices."),
        msg(1, 'user', 'We decided to let the reconciliation bot push to main.'),
      ),
    );
    const r = await mem([
      '-C',
      ws,
      '--json',
      'microsync',
      '--since',
      'all',
      '--no-llm',
      '--now',
      '2026-11-24T09:00:00Z',
    ]);
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout) as { skippedSessions: Array<{ path: string; reason: string }> };
    assert.deepEqual(
      out.skippedSessions.map((s) => [s.path.replace(/^.*\//, ''), s.reason]),
      [['cron-1.jsonl', 'scheduler or heartbeat session']],
    );
    const ids = entryIds(ws);
    assert.ok(
      ids.some((i) => /^DECISION-20261124-move-the-nightly-backup/.test(i)),
      ids.join(', '),
    );
    assert.ok(
      ids.some((i) => /^RULE-20261124-.*ask-before-deleting/.test(i)),
      ids.join(', '),
    );
    assert.equal(ids.length, 2, ids.join(', '));
    const daily = dailyText(ws);
    assert.doesNotMatch(daily, /HEARTBEAT|prior chats|reconciliation bot/i);
    assert.match(daily, /message_range: 3-3/, 'turns are numbered as read, the polls counted');
  });

  test("wrapup: the person's session is summarised without its polls; a session of nothing but heartbeats that day is a bot's run", async (t) => {
    const { ws, tr } = await transcriptWorkspace(t, 'jsonl');
    editConfig(ws, (cfg) => (cfg.sources = [{ name: 'claw', kind: 'openclaw', path: '../tr' }]));
    put(
      tr,
      'agents/main/sessions/main-2.jsonl',
      jsonl(
        header('main-2'),
        msg(0, 'user', PROMPT),
        msg(1, 'assistant', 'HEARTBEAT_OK'),
        msg(10, 'user', 'We decided to move the nightly backup to 02:00 because the 01:00 slot collides with billing.'),
        msg(11, 'assistant', 'Noted.'),
      ),
    );
    put(
      tr,
      'agents/main/sessions/beat-2.jsonl',
      jsonl(
        header('beat-2'),
        msg(30, 'user', POLL),
        msg(31, 'assistant', 'The 01:00 backup failed: disk full on /var. Shall I prune the old snapshots?'),
      ),
    );
    assert.equal(
      (await mem(['-C', ws, 'microsync', '--since', 'all', '--no-llm', '--now', '2026-11-24T09:00:00Z'])).code,
      0,
    );
    const r = await mem([
      '-C',
      ws,
      '--json',
      'wrapup',
      '--date',
      '2026-11-24',
      '--no-llm',
      '--now',
      '2026-11-25T06:00:00Z',
    ]);
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout) as {
      sessions: string[];
      skippedSessions: Array<{ sessionId: string; reason: string }>;
    };
    assert.deepEqual(out.sessions, ['main-2']);
    assert.deepEqual(
      out.skippedSessions.map((s) => [s.sessionId, s.reason]),
      [['beat-2', 'heartbeat polls only']],
    );
    const summary = readFileSync(join(ws, 'second-brain', 'summaries', '2026-11-24-wrapup.md'), 'utf8');
    assert.match(summary, /nightly backup to 02:00/);
    assert.doesNotMatch(summary, /HEARTBEAT|prior chats|disk full/);
  });
});
