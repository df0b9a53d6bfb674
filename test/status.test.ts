/**
 * `mem status` (docs/operations.md): the one-screen report, its --json schema, each governance
 * threshold triggering its warning, --strict for cron mail, and --fix splitting oversized files
 * without losing an entry. Real CLI runs on temp workspaces.
 */
import assert from 'node:assert/strict';
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { editConfig, exampleWorkspace, mem, snapshot, tempDir } from './helpers/cli.js';
import { jobLog } from './helpers/daemon.js';
import { fakeCrontab } from './helpers/crontab.js';

function entry(kind: string, n: number, extra: Record<string, string> = {}): string {
  const prefix = { Decision: 'DECISION', Rule: 'RULE', Note: 'NOTE' }[kind]!;
  const words = [
    'postgres',
    'websocket',
    'tuesday',
    'pnpm',
    'kafka',
    'smoke',
    'rollback',
    'uploads',
    'invoices',
    'tokens',
    'alerts',
    'backups',
  ];
  const title = extra.title ?? `${kind} ${n} ${words[n - 1]}`;
  const id = `${prefix}-20261120-${title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
  const fields = {
    id,
    date: '2026-11-20',
    conclusion: `conclusion ${n} for ${title}`,
    origin: 'user',
    status: 'active',
    ...extra,
  };
  delete (fields as Record<string, string>).title;
  return `## ${kind}: ${title}\n${Object.entries(fields)
    .map(([k, v]) => `- ${k}: ${v}`)
    .join('\n')}\n`;
}

/** All entry ids under memory/ (daily files and split-outs), sorted. */
function allIds(ws: string): string[] {
  return [...snapshot(join(ws, 'memory'))]
    .flatMap(([, text]) => [...text.matchAll(/^- id: (\S+)$/gm)].map((m) => m[1]!))
    .sort();
}

interface Status {
  workspace: { path: string };
  jobs: Array<{ job: string; schedule: string | null; nextRun: string | null; lastRun: { outcome: string } | null }>;
  locks: unknown[];
  index: { dirtyFiles: number };
  providers: { llm: unknown; search: string };
  governance: { checks: Array<{ name: string; ok: boolean; value: number; limit: number; level: string }> };
  problems: string[];
}

describe('mem status', () => {
  test('a healthy workspace: every section, --json keys, exit 0 with --strict, and it writes nothing', async (t) => {
    const { ws } = exampleWorkspace(t);
    const env = { MEM_CRONTAB_CMD: fakeCrontab(t).cmd, TZ: 'UTC' };
    assert.equal((await mem(['-C', ws, 'schedule', 'install', '--cron'], { env })).code, 0); // a next run only once something runs the jobs
    const before = snapshot(ws, () => false);
    const r = await mem(['-C', ws, 'status', '--strict', '--now', '2026-11-22T09:00:00Z'], { env });
    assert.equal(r.code, 0, r.stderr);
    for (const part of [
      'workspace',
      'jobs',
      'microsync',
      'next 2026-11-22T10:00:00.000Z',
      'locks none held',
      'index',
      'providers',
      'governance',
      'no problems',
    ])
      assert.ok(r.stdout.includes(part), `${part} in\n${r.stdout}`);
    assert.ok(r.stdout.split('\n').length <= 25, 'one screen');
    const j = JSON.parse(
      (await mem(['-C', ws, 'status', '--json', '--now', '2026-11-22T09:00:00Z'], { env })).stdout,
    ) as Status;
    assert.deepEqual(Object.keys(j).sort(), [
      'archive',
      'governance',
      'index',
      'jobs',
      'locks',
      'problems',
      'providers',
      'sources',
      'workspace',
    ]);
    assert.equal(j.jobs.find((x) => x.job === 'compound')!.nextRun, '2026-11-23T04:00:00.000Z', 'Monday 04:00');
    assert.equal(j.providers.search, 'bm25');
    const cron = await mem(['-C', ws, 'status', '--strict', '-q', '--now', '2026-11-22T09:00:00Z']);
    assert.deepEqual(
      [cron.code, cron.stdout, cron.stderr],
      [0, '', ''],
      'cron mail: -q prints nothing while all is well',
    );
    assert.deepEqual(
      snapshot(ws, () => false),
      before,
      'status wrote nothing',
    );
  });

  test('each governance threshold triggers its warning; --strict exits 1', async (t) => {
    const { ws } = exampleWorkspace(t);
    editConfig(ws, (cfg) => (cfg.limits = { memoryLines: 5, entriesPerDailyFile: 4, summaryLines: 20 }));
    writeFileSync(join(ws, 'MEMORY.md'), Array.from({ length: 9 }, (_, i) => `- line ${i}`).join('\n') + '\n');
    const entries = [1, 2, 3, 4].map((n) => entry('Decision', n));
    entries.push(entry('Rule', 1, { title: 'Deploys happen on Tuesdays', key: 'rule:deploy:day' }));
    entries.push(entry('Rule', 2, { title: 'Deploys happen on Thursdays', key: 'rule:deploy:day' }));
    entries.push(
      entry('Note', 1, { title: 'Staging database password rotation happens every month on the first day' }),
    );
    entries.push(
      entry('Note', 2, { title: 'Staging database password rotation happens every month on the first Monday' }),
    );
    entries.push('## Note: no date here\n- id: NOTE-20261120-no-date-here\n- status: active\n');
    writeFileSync(join(ws, 'memory', '2026-11-20.md'), `# 2026-11-20\n\n${entries.join('\n')}`);
    mkdirSync(join(ws, 'second-brain', 'summaries'), { recursive: true });
    writeFileSync(
      join(ws, 'second-brain', 'summaries', '2026-11-20-wrapup.md'),
      Array.from({ length: 30 }, (_, i) => `line ${i}`).join('\n') + '\n',
    );
    const r = await mem(['-C', ws, 'status', '--json']);
    assert.equal(r.code, 0);
    const j = JSON.parse(r.stdout) as Status;
    const check = (name: string) => j.governance.checks.find((c) => c.name === name)!;
    assert.deepEqual([check('memoryLines').ok, check('memoryLines').value], [false, 9]);
    assert.deepEqual([check('dailyEntries').ok, check('dailyEntries').value], [false, 9]);
    assert.deepEqual([check('summaryLines').ok, check('summaryLines').value], [false, 30]);
    assert.equal(check('conflicts').ok, false);
    assert.equal(check('suspectedConflicts').ok, false);
    assert.equal(check('suspectedConflicts').level, 'notice');
    assert.equal(check('lint').ok, false);
    for (const m of [
      /MEMORY\.md has 9 lines/,
      /1 daily file over 4 entries/,
      /1 summary file at 20 lines or more/,
      /share key rule:deploy:day/,
      /lint problem/,
    ]) {
      assert.ok(
        j.problems.some((p) => m.test(p)),
        `${m} in ${JSON.stringify(j.problems)}`,
      );
    }
    const strict = await mem(['-C', ws, 'status', '--strict', '--now', '2026-11-22T09:00:00Z']);
    assert.equal(strict.code, 1);
    assert.match(strict.stderr, /^mem: status --strict: \d+ problems/m);
    assert.match(strict.stdout, /WARN MEMORY\.md has 9 lines/);
    assert.match(strict.stdout, /note 1 suspected conflict/);
    const cron = await mem(['-C', ws, 'status', '--strict', '-q', '--now', '2026-11-22T09:00:00Z']);
    assert.deepEqual([cron.code, cron.stdout], [1, strict.stdout], '-q still shows the screen when there is a problem');
  });

  test('the last run of a job failing makes --strict exit 1; every job run by hand is in the job log', async (t) => {
    const { ws } = exampleWorkspace(t);
    assert.equal((await mem(['-C', ws, 'remember', 'Release trains leave at ten sharp'])).code, 0);
    editConfig(ws, (cfg) => (cfg.sources = [{ name: 'gone', kind: 'jsonl', path: '/nonexistent/memfold-test' }]));
    const failed = await mem(['-C', ws, 'microsync']);
    assert.notEqual(failed.code, 0);
    const lines = jobLog(ws);
    assert.deepEqual(
      lines.map((l) => [l.job, l.trigger, l.outcome]),
      [
        ['remember', 'manual', 'ok'],
        ['microsync', 'manual', 'failed'],
      ],
    );
    assert.equal(lines[0]!.counts.entriesAdded, 1);
    // The next run's before-look takes unchanged files' counts from the last run's after-look
    // (.mem/md-entries.json) and reads a file edited by hand since: a hand-added entry is no entry of the job's.
    assert.ok(existsSync(join(ws, '.mem', 'md-entries.json')));
    const day = readdirSync(join(ws, 'memory')).find((f) => /^\d{4}-\d{2}-\d{2}\.md$/.test(f))!;
    appendFileSync(
      join(ws, 'memory', day),
      '\n## Rule: Hand-written rule\n- id: RULE-20261120-hand-written-rule\n- conclusion: Hand-written rule\n',
    );
    assert.equal((await mem(['-C', ws, 'remember', 'Hotfixes need a second reviewer'])).code, 0);
    assert.equal(jobLog(ws).at(-1)!.counts.entriesAdded, 1);
    assert.deepEqual(lines[0]!.changed, [lines[0]!.changed![0]!]);
    assert.ok(lines[1]!.message && lines[1]!.exitCode === failed.code);
    const r = await mem(['-C', ws, 'status', '--strict']);
    assert.equal(r.code, 1);
    assert.match(r.stdout, /microsync +failed/);
    assert.match(r.stdout, /last microsync run failed at/);
  });

  test('a usage error (exit 2) is no job run: not in the job log, and --strict stays quiet', async (t) => {
    const { ws } = exampleWorkspace(t);
    const refused = [
      ['remember', 'foo', '--kind', 'bogus'],
      ['remember', 'foo', '--bogus'],
      ['compound', '--week', '47'],
      ['wrapup', '--date', 'tomorrow'],
      ['--now', 'garbage', 'microsync'],
    ];
    const codes = await Promise.all(refused.map(async (args) => (await mem(['-C', ws, ...args])).code));
    assert.deepEqual(
      codes,
      refused.map(() => 2),
    );
    assert.deepEqual(jobLog(ws), []);
    const cron = await mem(['-C', ws, 'status', '--strict', '-q', '--now', '2026-11-22T09:00:00Z']);
    assert.deepEqual([cron.code, cron.stdout], [0, '']);
  });

  test('a file where the lock folder belongs is a problem: the rest is shown, --strict exits 1', async (t) => {
    const { ws } = exampleWorkspace(t);
    writeFileSync(join(ws, 'memory', '.locks'), 'x\n');
    const r = await mem(['-C', ws, 'status', '--json', '--now', '2026-11-22T09:00:00Z']);
    assert.equal(r.code, 0, r.stderr);
    const j = JSON.parse(r.stdout) as Status;
    assert.deepEqual(j.locks, []);
    assert.equal(j.jobs.find((x) => x.job === 'compound')!.schedule, '0 4 * * 1');
    assert.equal(j.problems.length, 1);
    assert.match(
      j.problems[0]!,
      /^cannot read the lock folder memory\/\.locks: a part of its path is a file, not a folder \(.*\); every job that takes a lock fails until it is a folder memfold can use$/,
    );
    const strict = await mem(['-C', ws, 'status', '--strict', '--now', '2026-11-22T09:00:00Z']);
    assert.equal(strict.code, 1);
    assert.match(strict.stdout, /^locks none held$/m);
    assert.match(strict.stdout, /^1 problem:\n  - cannot read the lock folder memory\/\.locks: /m);
  });

  test('--fix splits an oversized daily file into memory/recent/ and a summary into volumes, losing no entry; a second --fix changes nothing', async (t) => {
    const { ws } = exampleWorkspace(t);
    editConfig(ws, (cfg) => (cfg.limits = { entriesPerDailyFile: 5, summaryLines: 40 }));
    const entries = [
      ...Array.from({ length: 7 }, (_, i) => entry('Decision', i + 1)),
      ...Array.from({ length: 3 }, (_, i) => entry('Rule', i + 1, { scope: 'project:shop' })),
      ...Array.from({ length: 2 }, (_, i) => entry('Note', i + 1)),
    ];
    writeFileSync(
      join(ws, 'memory', '2026-11-20.md'),
      `# 2026-11-20\n\nHand-written intro line.\n\n${entries.join('\n')}`,
    );
    const summary =
      Array.from({ length: 100 }, (_, i) => (i % 10 === 0 ? `## Section ${i / 10}` : `text ${i}`)).join('\n') + '\n';
    writeFileSync(join(ws, 'second-brain', 'summaries', '2026-11-20-wrapup.md'), summary);
    const before = allIds(ws);
    assert.equal(before.length, 12);
    const r = await mem(['-C', ws, 'status', '--fix']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /fixed: moved 12 entries of memory\/2026-11-20\.md/);
    assert.deepEqual(allIds(ws), before, 'same ids, each once');
    const recent = readdirSync(join(ws, 'memory', 'recent'))
      .filter((n) => n.endsWith('.md'))
      .sort();
    assert.deepEqual(recent, [
      '2026-11-20-decisions-2.md',
      '2026-11-20-decisions.md',
      '2026-11-20-notes.md',
      '2026-11-20-shop.md',
    ]);
    const daily = readFileSync(join(ws, 'memory', '2026-11-20.md'), 'utf8');
    assert.match(daily, /Hand-written intro line\./);
    for (const f of recent) assert.ok(daily.includes(`](recent/${f})`), `link to ${f}`);
    const vols = readdirSync(join(ws, 'second-brain', 'summaries'))
      .filter((n) => n.endsWith('.md'))
      .sort();
    assert.deepEqual(vols, [
      '2026-11-20-wrapup-vol2.md',
      '2026-11-20-wrapup-vol3.md',
      '2026-11-20-wrapup-vol4.md',
      '2026-11-20-wrapup.md',
    ]);
    const joined = [
      '2026-11-20-wrapup.md',
      '2026-11-20-wrapup-vol2.md',
      '2026-11-20-wrapup-vol3.md',
      '2026-11-20-wrapup-vol4.md',
    ].map((n) => readFileSync(join(ws, 'second-brain', 'summaries', n), 'utf8'));
    for (const v of joined) assert.ok(v.split('\n').length - 1 < 40);
    assert.deepEqual(
      joined
        .join('')
        .split('\n')
        .filter((l) => l && !l.startsWith('Continued in')),
      summary.split('\n').filter(Boolean),
      'every summary line once, in order',
    );
    const lint = await mem(['-C', ws, 'lint']);
    assert.equal(lint.code, 0, lint.stdout);
    const snap = snapshot(ws);
    const again = await mem(['-C', ws, 'status', '--fix', '--strict']);
    assert.equal(again.code, 0, again.stdout);
    assert.deepEqual(snapshot(ws), snap, 'idempotent');
  });
});

describe('job log', async () => {
  const { appendJobLog, jobLine, readJobLog } = await import('../src/runlog/job-log.js');
  const { tempDir } = await import('./helpers/cli.js');

  test('rotates past limits.jobLogBytes, keeps two old files, and every line stays readable', async (t) => {
    const ws = tempDir(t);
    const line = (n: number) => ({
      job: 'microsync',
      trigger: 'daemon' as const,
      pid: n,
      start: new Date(n * 1000).toISOString(),
      end: new Date(n * 1000 + 500).toISOString(),
      durationMs: 500,
      outcome: 'ok' as const,
      exitCode: 0,
      counts: { entriesAdded: n },
    });
    for (let n = 1; n <= 40; n++) await appendJobLog(ws, line(n), 1024);
    const logs = readdirSync(join(ws, '.mem', 'logs')).sort();
    assert.deepEqual(logs, ['jobs.1.jsonl', 'jobs.2.jsonl', 'jobs.jsonl']);
    for (const f of logs) assert.ok(readFileSync(join(ws, '.mem', 'logs', f), 'utf8').length < 1024 + 400);
    const all = readJobLog(ws);
    assert.equal(all.at(-1)!.pid, 40, 'the newest line is read last');
    assert.deepEqual(
      all.map((l) => l.pid),
      all.map((l) => l.pid).sort((a, b) => a - b),
      'oldest first across the rotated files',
    );
    assert.ok(all.length < 40, 'older lines were rotated away');
  });

  test('jobLine: ISO times and duration from the run, no empty message, at most 50 changed files', () => {
    const run = {
      job: 'wrapup',
      trigger: 'cron' as const,
      pid: 7,
      start: new Date('2026-11-23T10:00:00Z'),
      end: new Date('2026-11-23T10:00:02.5Z'),
    };
    const changed = Array.from({ length: 60 }, (_, i) => `memory/f${i}.md`);
    const line = jobLine(run, {
      outcome: 'failed',
      exitCode: 1,
      message: 'boom',
      counts: { filesChanged: 60 },
      changed,
    });
    assert.deepEqual(Object.keys(line), [
      'job',
      'trigger',
      'pid',
      'start',
      'end',
      'durationMs',
      'outcome',
      'exitCode',
      'message',
      'counts',
      'changed',
    ]);
    assert.equal(line.start, '2026-11-23T10:00:00.000Z');
    assert.equal(line.end, '2026-11-23T10:00:02.500Z');
    assert.equal(line.durationMs, 2500);
    assert.deepEqual(line.changed, changed.slice(0, 50));
    const quiet = jobLine(run, { outcome: 'ok', exitCode: 0, message: '', counts: {}, changed: [] });
    assert.equal('message' in quiet, false);
    assert.equal('changed' in quiet, false);
  });
});

test('status counts agree with their nouns: "1 file to index", then "2 files to index"', async (t) => {
  const ws = tempDir(t);
  await mem(['init', ws]);
  assert.match((await mem(['-C', ws, 'status'])).stdout, /^index not built \(1 file to index; run "mem index"\)/m);
  writeFileSync(join(ws, 'memory', 'projects', 'notes.md'), '# Notes\n\nsomething to index\n');
  assert.match((await mem(['-C', ws, 'status'])).stdout, /^index not built \(2 files to index; run "mem index"\)/m);
});
