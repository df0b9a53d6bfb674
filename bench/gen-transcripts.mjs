#!/usr/bin/env node
// gen-transcripts.mjs — deterministic synthetic agent transcripts for the `mem microsync` benchmark.
//
// Usage:
//   node bench/gen-transcripts.mjs --out <dir> [--files 200] [--mb 50] [--seed 20261122] [--force]
//
// Layout produced (<out> is a complete memfold workspace):
//   <out>/mem.config.json                  five sources, one per transcript kind, pointing below
//   <out>/memory/                          empty; microsync appends daily files here
//   <out>/transcripts/claude-code/<project>/<uuid>.jsonl                    ~35% of the files
//   <out>/transcripts/codex/YYYY/MM/DD/rollout-<time>-<uuid>.jsonl          ~25%
//   <out>/transcripts/openclaw/agents/main/sessions/<uuid>.jsonl            ~15%
//   <out>/transcripts/jsonl/<name>.jsonl                                    ~15%
//   <out>/transcripts/markdown/<date>-<slug>.md                             ~10%
//
// Line shapes are copied from fixtures/transcripts/ (see its README): Claude Code summary lines,
// command wrappers, isMeta caveats, thinking/text/tool_use blocks one per line, tool_result lines
// with toolUseResult (which repeats the output, as the real client does), Task sub-agents with
// isSidechain; Codex session_meta, injected <user_instructions>/<environment_context>, turn_context,
// messages with their event_msg copies, reasoning with encrypted_content, function_call /
// function_call_output (legacy JSON-in-a-string output), custom_tool_call apply_patch, token_count;
// OpenClaw session header, model_change, thinking_level_change, custom, compaction, toolCall /
// toolResult / bashExecution; generic JSONL with ISO and epoch times; Markdown with front matter,
// `## user · <time>` headings and fenced tool output. Tool outputs are large (1 KB to ~250 KB: file
// listings, logs, source files), which is where real transcripts spend their bytes. About one user
// turn in 20 is a settled statement ("We decided to …", "From now on …", "Remember this: …",
// "记住：…", "我们决定…", "以後…"); the rest is requests, chit-chat and guesses ("maybe …?"). About
// one message in 8 is Chinese (Simplified or Traditional). Two sessions are scheduler runs
// ("[cron] …"), which microsync must skip, and a few lines are malformed (truncated JSON).
//
// Sessions run 2026-11-01 .. 2026-11-21 UTC; every timestamp is before 2026-11-22T00:00:00Z, so a run
// with `--now 2026-11-22T00:00:00Z --since all` sees everything.
// File sizes are skewed (a few large sessions, many small) and scaled so the total is about --mb
// (within a few per cent).
// Same arguments => byte-identical output. Prints a JSON summary on stdout.

import fs from 'node:fs';
import path from 'node:path';
import { argReader, seeded } from './gen-kit.mjs';

// ---------- args ----------
const args = process.argv.slice(2);
const arg = argReader(args);
const outDir = arg('out', null);
const files = parseInt(String(arg('files', '200')), 10);
const mb = parseFloat(String(arg('mb', '50')));
const seed = parseInt(String(arg('seed', '20261122')), 10) >>> 0;
const force = args.includes('--force');
if (!outDir || outDir === true || !(files >= 5) || !(mb > 0)) {
  console.error('usage: node bench/gen-transcripts.mjs --out <dir> [--files N>=5] [--mb M] [--seed N] [--force]');
  process.exit(2);
}

// ---------- deterministic PRNG (mulberry32) ----------
const { rnd, int, pick, chance } = seeded(seed);
const hex = (n) => {
  let s = '';
  for (let i = 0; i < n; i++) s += '0123456789abcdef'[int(0, 15)];
  return s;
};
const uuid = () => `${hex(8)}-${hex(4)}-4${hex(3)}-${pick(['8', '9', 'a', 'b'])}${hex(3)}-${hex(12)}`;
const B62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const b62 = (n) => {
  let s = '';
  for (let i = 0; i < n; i++) s += B62[int(0, 61)];
  return s;
};
const B64 = B62 + '+/';
const b64 = (n) => {
  let s = '';
  for (let i = 0; i < n; i++) s += B64[int(0, 63)];
  return s;
};

// ---------- vocabulary ----------
const PROJECTS = [
  'ledgerline',
  'atlas-api',
  'beacon-web',
  'cobalt-infra',
  'driftwood',
  'ember-search',
  'falcon-mobile',
  'granite-etl',
];
const DIRS = [
  'src',
  'src/api',
  'src/core',
  'src/db',
  'src/jobs',
  'web/src',
  'web/src/hooks',
  'packages/core/src',
  'scripts',
  'test',
];
const NAMES = [
  'events',
  'balances',
  'billing',
  'uploads',
  'ledger',
  'invoices',
  'auth',
  'session',
  'cache',
  'queue',
  'retry',
  'metrics',
  'config',
  'router',
  'schema',
  'migrate',
  'worker',
  'index',
];
const TECH = [
  'PostgreSQL',
  'SQLite',
  'Redis',
  'Kafka',
  'NATS',
  'gRPC',
  'GraphQL',
  'websockets',
  'pnpm workspaces',
  'vitest',
  'Playwright',
  'OpenTelemetry',
  'Sentry',
  'Grafana',
  'zod',
  'esbuild',
  'Vite',
  'Docker',
  'Terraform',
  'S3',
  'DuckDB',
  'ClickHouse',
  'pgvector',
  'MiniSearch',
  'node-cron',
  'proper-lockfile',
  'BullMQ',
  'Caddy',
  'nginx',
  'Fly.io',
];
const AREAS = [
  'the event store',
  'the billing API',
  'the upload pipeline',
  'the dashboard',
  'the nightly ETL',
  'the search index',
  'the auth service',
  'CI',
  'the staging cluster',
  'the mobile sync',
  'the invoice renderer',
  'the retry queue',
  'the metrics exporter',
  'the config loader',
  'the migration runner',
];
const REASONS = [
  'it locked under concurrent writers',
  'the p99 latency doubled under load',
  'the old client leaked memory after a few hours',
  'nobody could debug the cache invalidation',
  'it kept timing out in CI',
  'the vendor is dropping support next year',
  'the cost was three times the budget',
  'it broke on CJK input',
  'the incident on Tuesday traced back to it',
  'the load test showed 40% less CPU',
  'it was impossible to reproduce locally',
  'the team already knows it well',
];
const RULES = [
  'every migration needs a rollback script',
  'no PR merges without a green smoke test',
  'API errors use RFC 7807 problem+json bodies',
  'feature flags are removed within two releases',
  'secrets live in the vault, never in .env files',
  'every cron job logs its start and end',
  'public endpoints are rate-limited per API key',
  'dependency upgrades go in their own PR',
  'timestamps are stored in UTC',
  'tests never hit the real network',
  'logs never include request bodies',
  'each service owns its own schema',
];
const FACTS = [
  'the staging DB password rotates on Mondays',
  'the invoice PDF service caps pages at 200',
  'the CI runners have 2 cores and 24 GB',
  'the EU region is the source of truth for balances',
  'deploys freeze on Friday afternoons',
  'the mobile app still calls the v1 balances endpoint',
  'the payment provider sandbox resets nightly at 02:00 UTC',
  'the on-call rotation is in the ops calendar',
];
const CHAT = [
  "Morning! Coffee's brewing ☕ let's pick this up.",
  'lol my laptop fan just took off like a jet engine 😅',
  'thanks, that looks good',
  'ok, give me a sec, grabbing lunch',
  'nice, that was quick',
  'hmm interesting',
  'Nice work, have a good weekend!',
  'brb, standup',
  'ugh, the wifi here is terrible today',
  'cool 👍',
];
const GUESSES = [
  'maybe we should try {t}? not sure, just thinking out loud',
  'Maybe {t} later? Not sure, let us not decide that now.',
  'what if we used {t} for {a}? just an idea',
  'I wonder whether {t} would help with {a}, no idea yet',
];
const REQUESTS = [
  'Can you look at {a}? It {p}.',
  'Please run the tests for {a} and tell me what fails.',
  'Check why {a} is slow on the big fixture.',
  'Refactor {f} so the retry logic is in one place.',
  'Add logging around {a}; I want to see the timings.',
  'Read {f} and explain what the batch size does.',
  'Fix the flaky test in {f}.',
];
const PROBLEMS = [
  'spikes under load',
  'drops writes on failover',
  'returns stale results',
  'fails on large files',
  'times out in CI',
  'races with the watcher',
  'misorders events',
];
const ZH_CHAT = [
  '早上好！今天先把缓存的问题定下来。',
  '哈哈，今晚终于不用半夜被告警叫醒了。',
  '好的，谢谢！',
  '稍等，我先去开个会。',
  '辛苦了，周末愉快！',
  '這個看起來不錯。',
];
const ZH_REQ = [
  '帮我看一下 {a} 为什么这么慢。',
  '把 {f} 里的重试逻辑整理一下。',
  '請幫我跑一下 {a} 的測試。',
  '看看 {f} 的批量大小是怎么设置的。',
];
const ZH_GUESS = ['也许以后可以试试 {t}？还没想好。', '或許可以換成 {t}？先不決定。'];

function fill(tpl) {
  return tpl
    .replace('{t}', pick(TECH))
    .replace('{a}', pick(AREAS))
    .replace('{p}', pick(PROBLEMS))
    .replace('{f}', `${pick(DIRS)}/${pick(NAMES)}.ts`);
}
let settledSeq = 0;
function settled() {
  // A serial number keeps titles (and so entry ids) distinct across the corpus.
  const n = ++settledSeq;
  const t = pick(TECH),
    a = pick(AREAS);
  switch (int(0, 8)) {
    case 0:
      return `We decided to move ${a} to ${t} because ${pick(REASONS)}. (ticket LL-${n})`;
    case 1:
      return `From now on, ${pick(RULES)} in ${a} (LL-${n}).`;
    case 2:
      return `Remember this: ${pick(FACTS)}, so check ${a} first (LL-${n}).`;
    case 3:
      return `We're switching ${a} from ${pick(TECH)} to ${t}. That's decided; ${pick(REASONS)}. Ref LL-${n}.`;
    case 4:
      return `Rule: ${pick(RULES)}, no exceptions for ${a} (LL-${n}).`;
    case 5:
      return `记住：${a} 部署前要先跑 smoke test（LL-${n}）。`;
    case 6:
      return `我们决定放弃 ${pick(TECH)}，${a} 改用 ${t}（LL-${n}）。排查太难了。`;
    case 7:
      return `以後 ${a} 的 migration 都要附 rollback 腳本（LL-${n}）。`;
    default:
      return `記住：${pick(FACTS)}（LL-${n}）。`;
  }
}
function userText() {
  const r = rnd();
  const zh = chance(0.12);
  if (r < 0.05) return { text: settled(), settled: true };
  if (r < 0.2) return { text: zh ? pick(ZH_CHAT) : pick(CHAT) };
  if (r < 0.27) return { text: fill(zh ? pick(ZH_GUESS) : pick(GUESSES)) };
  return { text: fill(zh ? pick(ZH_REQ) : pick(REQUESTS)) };
}
function assistantText() {
  if (chance(0.1)) return `好的，我先看看 ${pick(DIRS)}/${pick(NAMES)}.ts。${pick(AREAS)} 的问题应该在那里。`;
  const s = [
    `I looked at ${pick(DIRS)}/${pick(NAMES)}.ts.`,
    `The ${pick(NAMES)} path calls ${pick(NAMES)}() ${int(2, 40)} times per request.`,
    `I'll change the batch size to ${int(2, 64) * 16} and rerun the suite.`,
    `That should fix ${pick(AREAS)}; ${pick(TECH)} is not involved.`,
    'Tests pass locally.',
    `I'd suggest keeping ${pick(TECH)} for now.`,
  ];
  let out = '';
  for (let i = int(1, 4); i > 0; i--) out += (out ? ' ' : '') + pick(s);
  return out;
}
function thinking() {
  return `The user wants ${pick(AREAS)} looked at. Check ${pick(DIRS)}/${pick(NAMES)}.ts, then run the tests. ${b62(int(40, 200))}`;
}

// Large tool outputs: numbered source files, test logs, directory listings.
function sourceFile(lines) {
  const out = [];
  for (let i = 1; i <= lines; i++) {
    const ind = '  '.repeat(int(0, 3));
    const body = pick([
      `const ${pick(NAMES)} = await ${pick(NAMES)}.${pick(['load', 'get', 'find', 'parse'])}(${pick(NAMES)}Id);`,
      `if (!${pick(NAMES)}) throw new Error('${pick(NAMES)} not found: ' + id);`,
      `export function ${pick(NAMES)}${pick(['Of', 'For', 'By'])}${pick(['Id', 'Key', 'Day'])}(input: string): number {`,
      `return ${pick(NAMES)}.filter((x) => x.${pick(NAMES)} > ${int(0, 999)}).length;`,
      `// TODO(${pick(['dana', 'jia', 'omar', 'lena'])}): ${pick(PROBLEMS)} when the ${pick(NAMES)} table is large`,
      `import { ${pick(NAMES)} } from '../${pick(NAMES)}.js';`,
      '}',
      '',
    ]);
    out.push(`${String(i).padStart(6)}→${ind}${body}`);
  }
  return out.join('\n');
}
function testLog(lines) {
  const out = [];
  for (let i = 0; i < lines; i++) {
    const ok = chance(0.93);
    out.push(
      `${ok ? ' ✓' : ' ✗'} ${pick(DIRS)}/${pick(NAMES)}.test.ts > ${pick(NAMES)} ${pick(['handles', 'rejects', 'retries', 'parses'])} ${pick(PROBLEMS)} ${int(1, 900)}ms`,
    );
    if (!ok)
      out.push(
        `   AssertionError: expected ${int(0, 99)} to equal ${int(0, 99)}\n    at ${pick(DIRS)}/${pick(NAMES)}.ts:${int(1, 400)}:${int(1, 80)}`,
      );
  }
  out.push(
    ` Test Files  ${int(1, 60)} passed (${int(60, 90)})\n      Tests  ${int(100, 900)} passed (${int(900, 1000)})`,
  );
  return out.join('\n');
}
function listing(lines) {
  const out = [];
  for (let i = 0; i < lines; i++)
    out.push(
      `-rw-r--r--  1 dev dev ${String(int(100, 999999)).padStart(7)} Nov ${int(1, 21)} ${String(int(0, 23)).padStart(2, '0')}:${String(int(0, 59)).padStart(2, '0')} ${pick(DIRS)}/${pick(NAMES)}${pick(['.ts', '.test.ts', '.json', '.sql', '.md'])}`,
    );
  return out.join('\n');
}
// Mostly 1-20 KB, sometimes a whole file or a long log (up to ~250 KB), but at most about a
// twelfth of the session's target size, so small sessions stay small and the total lands near --mb.
let toolLineCap = Infinity;
function toolOutput() {
  const lines = Math.max(3, Math.min(toolLineCap, chance(0.08) ? int(1500, 4000) : int(15, 300)));
  return pick([sourceFile, sourceFile, testLog, listing])(lines);
}
function toolCall() {
  const f = `${pick(DIRS)}/${pick(NAMES)}.ts`;
  return pick([
    { name: 'Read', shell: `cat -n ${f}`, input: { file_path: `/home/dev/${pick(PROJECTS)}/${f}` } },
    {
      name: 'Bash',
      shell: 'pnpm test',
      input: { command: `pnpm vitest run ${pick(DIRS)}`, description: 'Run the tests' },
    },
    {
      name: 'Grep',
      shell: `rg -n ${pick(NAMES)} src`,
      input: { pattern: pick(NAMES), path: pick(DIRS), output_mode: 'content' },
    },
    { name: 'Bash', shell: 'ls -la', input: { command: `ls -la ${pick(DIRS)}`, description: 'List files' } },
  ]);
}

// ---------- time ----------
const DAY0 = Date.UTC(2026, 10, 1, 7, 0, 0); // 2026-11-01 07:00 UTC
function sessionStart(i, n) {
  // Spread sessions over 2026-11-01 .. 2026-11-21, within working hours.
  const day = Math.floor((i * 21) / n);
  return DAY0 + day * 86400000 + int(0, 10 * 3600) * 1000;
}
const iso = (ms) => new Date(ms).toISOString();

// ---------- writers (one per kind) ----------
// Each returns { lines: string[] (without "\n"), turns, settled } for a session of about `target` bytes.
// `clock` is the session's running time in ms; every line advances it a little.

function claudeCode(ctx) {
  const sid = ctx.id;
  const project = ctx.project;
  const cwd = `/home/dev/${project}`;
  let parent = null;
  let clock = ctx.start;
  const L = ctx.out;
  const base = (extra) => {
    const uuidv = uuid();
    const o = {
      parentUuid: parent,
      isSidechain: false,
      userType: 'external',
      cwd,
      sessionId: sid,
      version: '1.0.98',
      gitBranch: 'main',
      ...extra,
      uuid: uuidv,
      timestamp: iso((clock += int(500, 20000))),
    };
    parent = uuidv;
    return o;
  };
  const userLine = (content, extra = {}) => base({ type: 'user', message: { role: 'user', content }, ...extra });
  const asstLine = (block, extra = {}) =>
    base({
      message: {
        id: `msg_01${b62(22)}`,
        type: 'message',
        role: 'assistant',
        model: 'claude-sonnet-4-20250514',
        content: [block],
        stop_reason: null,
        stop_sequence: null,
        usage: {
          input_tokens: int(4, 3000),
          cache_creation_input_tokens: int(0, 9000),
          cache_read_input_tokens: int(0, 40000),
          output_tokens: int(1, 900),
          service_tier: 'standard',
        },
      },
      requestId: `req_011C${b62(20)}`,
      type: 'assistant',
      ...extra,
    });
  L.push({ type: 'summary', summary: `${pick(AREAS)}: ${pick(PROBLEMS)}`, leafUuid: uuid() });
  if (chance(0.5)) {
    L.push(
      userLine(
        '<command-name>/clear</command-name>\n            <command-message>clear</command-message>\n            <command-args></command-args>',
      ),
    );
    L.push(userLine('<local-command-stdout></local-command-stdout>'));
  }
  if (ctx.cron) L.push(userLine(`[cron] nightly dependency audit for ${project}`));
  while (ctx.size() < ctx.target) {
    const u = userText();
    ctx.turn(u);
    L.push(userLine(u.text));
    if (chance(0.5)) L.push(asstLine({ type: 'thinking', thinking: thinking(), signature: b64(int(200, 600)) }));
    L.push(asstLine({ type: 'text', text: assistantText() }));
    for (let k = int(0, 3); k > 0; k--) {
      const call = toolCall();
      const id = `toolu_01${b62(22)}`;
      L.push(asstLine({ type: 'tool_use', id, name: call.name, input: call.input }));
      const output = toolOutput();
      L.push(
        userLine([{ tool_use_id: id, type: 'tool_result', content: output }], {
          toolUseResult: { stdout: output, stderr: '', interrupted: false, isImage: false },
        }),
      );
    }
    if (chance(0.05)) {
      // A Task sub-agent: its lines are isSidechain, then the result comes back to the main thread.
      const id = `toolu_01${b62(22)}`;
      L.push(
        asstLine({
          type: 'tool_use',
          id,
          name: 'Task',
          input: { description: 'Write migration', prompt: `Write the migration for ${pick(AREAS)}.` },
        }),
      );
      const saved = parent;
      parent = null;
      L.push(
        userLine(`Write the migration for ${pick(AREAS)}. We decided to keep it reversible.`, { isSidechain: true }),
      );
      L.push(
        asstLine(
          { type: 'text', text: `Created migrations/00${int(10, 99)}_${pick(NAMES)}.sql and its rollback.` },
          { isSidechain: true },
        ),
      );
      parent = saved;
      L.push(
        userLine([
          {
            tool_use_id: id,
            type: 'tool_result',
            content: [{ type: 'text', text: 'Created the migration and its rollback script.' }],
          },
        ]),
      );
    }
    if (chance(0.03))
      L.push(
        userLine(
          'Caveat: The messages below were generated by the user while running local commands. DO NOT respond to these messages or otherwise consider them in your response unless the user explicitly asks you to.',
          { isMeta: true },
        ),
      );
    if (chance(0.02))
      L.push(
        userLine(
          '<command-name>/cost</command-name>\n            <command-message>cost</command-message>\n            <command-args></command-args>',
        ),
      );
    if (chance(0.01)) L.push(malformedLine(userLine('and the retention policy is')));
  }
}

function codex(ctx) {
  let clock = ctx.start;
  const L = ctx.out;
  const line = (type, payload) => ({ timestamp: iso(clock), type, payload });
  const tick = () => (clock += int(300, 15000));
  L.push(
    line('session_meta', {
      id: ctx.id,
      timestamp: iso(clock + 118),
      cwd: `/home/dev/${ctx.project}`,
      originator: 'codex_cli_rs',
      cli_version: '0.58.0',
      instructions: null,
      source: 'cli',
      model_provider: 'openai',
      git: { commit_hash: hex(40), branch: 'main', repository_url: `git@github.com:dev/${ctx.project}.git` },
    }),
  );
  L.push(
    line('response_item', {
      type: 'message',
      role: 'user',
      content: [
        {
          type: 'input_text',
          text: '<user_instructions>\n\n# Repository guidelines\n\n- TypeScript strict; run `pnpm test` before proposing a commit.\n- Keep diffs small.\n\n</user_instructions>',
        },
      ],
    }),
  );
  L.push(
    line('response_item', {
      type: 'message',
      role: 'user',
      content: [
        {
          type: 'input_text',
          text: `<environment_context>\n  <cwd>/home/dev/${ctx.project}</cwd>\n  <approval_policy>on-request</approval_policy>\n  <sandbox_mode>workspace-write</sandbox_mode>\n  <network_access>restricted</network_access>\n  <shell>bash</shell>\n</environment_context>`,
        },
      ],
    }),
  );
  if (ctx.cron) {
    tick();
    L.push(
      line('response_item', {
        type: 'message',
        role: 'user',
        content: [{ type: 'input_text', text: '[cron] weekly lockfile refresh' }],
      }),
    );
  }
  while (ctx.size() < ctx.target) {
    tick();
    L.push(
      line('turn_context', {
        cwd: `/home/dev/${ctx.project}`,
        approval_policy: 'on-request',
        sandbox_policy: { mode: 'workspace-write', network_access: false },
        model: 'gpt-5-codex',
        effort: 'medium',
        summary: 'auto',
      }),
    );
    const u = userText();
    ctx.turn(u);
    L.push(line('response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: u.text }] }));
    L.push(line('event_msg', { type: 'user_message', message: u.text, images: [], kind: 'plain' }));
    tick();
    L.push(
      line('response_item', {
        type: 'reasoning',
        summary: [{ type: 'summary_text', text: `**Inspecting ${pick(AREAS)}**` }],
        content: null,
        encrypted_content: `gAAAAA${b64(int(400, 2400))}`,
      }),
    );
    for (let k = int(0, 3); k > 0; k--) {
      const call = toolCall();
      const id = `call_${b62(24)}`;
      tick();
      if (chance(0.15)) {
        L.push(
          line('response_item', {
            type: 'custom_tool_call',
            status: 'completed',
            call_id: id,
            name: 'apply_patch',
            input: `*** Begin Patch\n*** Update File: ${pick(DIRS)}/${pick(NAMES)}.ts\n@@\n${sourceFile(int(5, 40)).replace(/^/gm, '+')}\n*** End Patch`,
          }),
        );
        L.push(
          line('response_item', {
            type: 'custom_tool_call_output',
            call_id: id,
            output: JSON.stringify({
              output: `Success. Updated the following files:\nM ${pick(DIRS)}/${pick(NAMES)}.ts\n`,
              metadata: { exit_code: 0, duration_seconds: 0.0 },
            }),
          }),
        );
      } else {
        L.push(
          line('response_item', {
            type: 'function_call',
            name: 'shell',
            arguments: JSON.stringify({
              command: ['bash', '-lc', call.shell],
              workdir: `/home/dev/${ctx.project}`,
              timeout_ms: 300000,
            }),
            call_id: id,
          }),
        );
        tick();
        L.push(
          line('response_item', {
            type: 'function_call_output',
            call_id: id,
            output: JSON.stringify({
              output: toolOutput(),
              metadata: { exit_code: 0, duration_seconds: int(1, 300) / 10 },
            }),
          }),
        );
      }
      L.push(
        line('event_msg', {
          type: 'token_count',
          info: {
            total_token_usage: {
              input_tokens: int(1000, 90000),
              cached_input_tokens: int(0, 80000),
              output_tokens: int(10, 4000),
              reasoning_output_tokens: int(0, 2000),
              total_tokens: int(1000, 99000),
            },
            model_context_window: 272000,
          },
        }),
      );
    }
    tick();
    const a = assistantText();
    L.push(line('response_item', { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: a }] }));
    L.push(line('event_msg', { type: 'agent_message', message: a }));
    if (chance(0.01))
      L.push(
        malformedLine(
          line('response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'and then' }] }),
        ),
      );
  }
}

function openclaw(ctx) {
  let clock = ctx.start;
  const L = ctx.out;
  let parent = null;
  const entry = (type, extra) => {
    const id = hex(8);
    const o = { type, id, parentId: parent, timestamp: iso((clock += int(300, 15000))), ...extra };
    parent = id;
    return o;
  };
  L.push({ type: 'session', version: 3, id: ctx.id, timestamp: iso(clock), cwd: '/home/dev/.openclaw/workspace' });
  L.push(entry('model_change', { provider: 'anthropic', modelId: 'claude-sonnet-4-5' }));
  L.push(entry('thinking_level_change', { thinkingLevel: 'low' }));
  const usage = () => ({
    input: int(100, 9000),
    output: int(10, 900),
    cacheRead: 0,
    cacheWrite: 0,
    totalTokens: int(200, 9900),
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
  });
  if (ctx.cron)
    L.push(
      entry('message', {
        message: {
          role: 'user',
          content: [{ type: 'text', text: '[heartbeat] check inbox and calendar' }],
          timestamp: clock,
        },
      }),
    );
  while (ctx.size() < ctx.target) {
    const u = userText();
    ctx.turn(u);
    L.push(
      entry('message', { message: { role: 'user', content: [{ type: 'text', text: u.text }], timestamp: clock } }),
    );
    for (let k = int(0, 3); k > 0; k--) {
      const call = toolCall();
      const id = `toolu_01${b62(22)}`;
      L.push(
        entry('message', {
          message: {
            role: 'assistant',
            content: [
              { type: 'thinking', thinking: thinking(), thinkingSignature: b64(40) },
              { type: 'text', text: assistantText() },
              { type: 'toolCall', id, name: 'exec', arguments: { command: call.shell } },
            ],
            api: 'anthropic-messages',
            provider: 'anthropic',
            model: 'claude-sonnet-4-5',
            usage: usage(),
            stopReason: 'toolUse',
            timestamp: clock,
          },
        }),
      );
      L.push(
        entry('message', {
          message: {
            role: 'toolResult',
            toolCallId: id,
            toolName: 'exec',
            content: [{ type: 'text', text: toolOutput() }],
            details: { exitCode: 0, durationMs: int(5, 9000) },
            isError: false,
            timestamp: clock,
          },
        }),
      );
    }
    L.push(
      entry('message', {
        message: {
          role: 'assistant',
          content: [{ type: 'text', text: assistantText() }],
          api: 'anthropic-messages',
          provider: 'anthropic',
          model: 'claude-sonnet-4-5',
          usage: usage(),
          stopReason: 'stop',
          timestamp: clock,
        },
      }),
    );
    if (chance(0.1))
      L.push(
        entry('custom', { customType: 'openclaw:last-activity', data: { channel: 'telegram', chatType: 'direct' } }),
      );
    if (chance(0.05))
      L.push(
        entry('message', {
          message: {
            role: 'bashExecution',
            command: 'pnpm test',
            output: testLog(int(10, 200)),
            exitCode: 0,
            cancelled: false,
            truncated: false,
            timestamp: clock,
          },
        }),
      );
    if (chance(0.02))
      L.push(
        entry('compaction', {
          summary: `User worked on ${pick(AREAS)}.`,
          firstKeptEntryId: parent,
          tokensBefore: int(20000, 150000),
        }),
      );
    if (chance(0.01))
      L.push(malformedLine(entry('message', { message: { role: 'user', content: [{ type: 'text', text: '也许' }] } })));
  }
}

function genericJsonl(ctx) {
  let clock = ctx.start;
  const L = ctx.out;
  const sid = ctx.id;
  const time = () => {
    clock += int(1000, 30000);
    const r = rnd();
    return r < 0.7 ? iso(clock) : r < 0.85 ? Math.floor(clock / 1000) : clock; // ISO, epoch s, epoch ms
  };
  L.push({
    role: 'system',
    content: `You are the ${ctx.project} team assistant. Keep answers short.`,
    timestamp: time(),
    session_id: sid,
  });
  if (ctx.cron) L.push({ role: 'user', content: '[scheduled] daily digest', timestamp: time(), session_id: sid });
  while (ctx.size() < ctx.target) {
    const u = userText();
    ctx.turn(u);
    L.push({
      role: 'user',
      content: chance(0.3) ? [{ type: 'text', text: u.text }] : u.text,
      timestamp: time(),
      session_id: sid,
    });
    L.push({ role: 'assistant', content: assistantText(), timestamp: time(), session_id: sid });
    if (chance(0.6))
      L.push({
        role: 'tool',
        tool_name: pick(['ci', 'shell', 'grep']),
        content: toolOutput(),
        timestamp: time(),
        session_id: sid,
      });
    if (chance(0.01))
      L.push(malformedLine({ role: 'user', content: 'and the deploy window is', timestamp: time(), session_id: sid }));
  }
}

function markdown(ctx) {
  let clock = ctx.start;
  const L = ctx.out;
  L.push(
    '---',
    `session_id: ${ctx.id}`,
    `started_at: ${iso(clock)}`,
    `title: ${pick(AREAS)}`,
    '---',
    '',
    `# ${pick(AREAS)} (exported chat)`,
    '',
  );
  const head = (role, timed = true) => `## ${role}${timed ? ` · ${iso((clock += int(1000, 60000)))}` : ''}`;
  while (ctx.size() < ctx.target) {
    const u = userText();
    ctx.turn(u);
    L.push(head(pick(['user', 'user', 'User'])), '', u.text, '');
    L.push(head('assistant', chance(0.8)), '', assistantText(), '');
    if (chance(0.6)) L.push('## tool', '', '```', toolOutput(), '```', '');
  }
}

// A JSON line cut short, as a crash mid-write leaves it (still newline-terminated by the next write).
function malformedLine(obj) {
  const s = JSON.stringify(obj);
  return { raw: s.slice(0, Math.floor(s.length / 2)) };
}

const KINDS = [
  { kind: 'claude-code', share: 0.35, write: claudeCode },
  { kind: 'codex', share: 0.25, write: codex },
  { kind: 'openclaw', share: 0.15, write: openclaw },
  { kind: 'jsonl', share: 0.15, write: genericJsonl },
  { kind: 'markdown', share: 0.1, write: markdown },
];

function relPathFor(kind, i, id, start, project) {
  const d = new Date(start);
  const ymd = [
    String(d.getUTCFullYear()),
    String(d.getUTCMonth() + 1).padStart(2, '0'),
    String(d.getUTCDate()).padStart(2, '0'),
  ];
  switch (kind) {
    case 'claude-code':
      return path.join('claude-code', `-home-dev-${project}`, `${id}.jsonl`);
    case 'codex':
      return path.join('codex', ...ymd, `rollout-${iso(start).slice(0, 19).replace(/:/g, '-')}-${id}.jsonl`);
    case 'openclaw':
      return path.join('openclaw', 'agents', 'main', 'sessions', `${id}.jsonl`);
    case 'jsonl':
      return path.join('jsonl', `${project}-${ymd.join('-')}-${String(i).padStart(4, '0')}.jsonl`);
    default:
      return path.join('markdown', `${ymd.join('-')}-${String(i).padStart(4, '0')}.md`);
  }
}

// ---------- main ----------
const out = path.resolve(String(outDir));
if (fs.existsSync(out) && fs.readdirSync(out).length > 0) {
  if (!force) {
    console.error(`${out} is not empty (use --force to replace it)`);
    process.exit(2);
  }
  fs.rmSync(out, { recursive: true, force: true });
}
fs.mkdirSync(path.join(out, 'memory'), { recursive: true });
const tdir = path.join(out, 'transcripts');

// Kinds by share (largest remainder), then an interleaved order so every kind spans the dates.
const counts = KINDS.map((k) => Math.max(1, Math.floor(k.share * files)));
for (let i = 0; counts.reduce((a, b) => a + b, 0) < files; i = (i + 1) % counts.length) counts[i]++;
while (counts.reduce((a, b) => a + b, 0) > files) counts[counts.indexOf(Math.max(...counts))]--;
const plan = [];
KINDS.forEach((k, ki) => {
  for (let j = 0; j < counts[ki]; j++) plan.push(k);
});
for (let i = plan.length - 1; i > 0; i--) {
  const j = Math.floor(rnd() * (i + 1));
  [plan[i], plan[j]] = [plan[j], plan[i]];
}

// Skewed sizes (Pareto-ish weights), scaled to the total.
const weights = plan.map(() => Math.pow(1 - rnd() * 0.97, -1.2));
const wsum = weights.reduce((a, b) => a + b, 0);
const totalBytes = mb * 1024 * 1024;
const cronAt = new Set([Math.floor(files / 3), Math.floor((2 * files) / 3)]);

const summary = { out, seed, files: 0, bytes: 0, turnsUser: 0, settled: 0, byKind: {} };
const sources = [];
let wantedSoFar = 0;
for (let i = 0; i < plan.length; i++) {
  const { kind, write } = plan[i];
  const start = sessionStart(i, plan.length);
  const id = uuid();
  const project = pick(PROJECTS);
  // Sessions end after the exchange that crosses their target, so they overshoot a little: later
  // targets shrink by the overshoot so far, and the total lands near --mb.
  const wanted = (weights[i] / wsum) * totalBytes;
  const target = Math.max(2048, Math.round(wanted * (wantedSoFar > 0 ? wantedSoFar / Math.max(1, summary.bytes) : 1)));
  wantedSoFar += wanted;
  toolLineCap = Math.floor(target / 12 / 60);
  const L = [];
  let size = 0;
  let counted = 0;
  const ctx = {
    id,
    project,
    start,
    target,
    out: L,
    cron: cronAt.has(i),
    // Bytes so far (lines are serialised lazily; count what was added since the last call).
    size() {
      for (; counted < L.length; counted++) {
        const v = L[counted];
        const s = typeof v === 'string' ? v : v.raw !== undefined ? v.raw : JSON.stringify(v);
        L[counted] = s;
        size += Buffer.byteLength(s) + 1;
      }
      return size;
    },
    turn(u) {
      summary.turnsUser++;
      if (u.settled && !ctx.cron) summary.settled++;
    },
  };
  write(ctx);
  ctx.size();
  const rel = relPathFor(kind, i, id, start, project);
  const file = path.join(tdir, rel);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, L.join('\n') + '\n');
  summary.files++;
  summary.bytes += size;
  const k = (summary.byKind[kind] ??= { files: 0, bytes: 0 });
  k.files++;
  k.bytes += size;
}
for (const { kind } of KINDS) sources.push({ name: kind, kind, path: `transcripts/${kind}` });
const config = { format_version: 1, timezone: 'UTC', sources, exclude: [], extraPaths: [] };
fs.writeFileSync(path.join(out, 'mem.config.json'), JSON.stringify(config, null, 2) + '\n');
summary.mb = +(summary.bytes / 1024 / 1024).toFixed(2);
console.log(JSON.stringify(summary));
