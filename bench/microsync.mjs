#!/usr/bin/env node
// microsync.mjs — benchmark of `mem microsync` (rule-based, offline) over generated transcripts.
//
// Usage (from the project root, after `npm run build`; `npm run bench:microsync` does both):
//   node bench/microsync.mjs [--scale 1] [--files 200] [--mb 50] [--seed 20261122] [--repeat 3]
//                            [--workdir DIR] [--keep]
//   BENCH_SCALE=0.1 npm run bench:microsync        # quick run: 20 files, ~5 MB
//
// What it does, in one process tree, so every figure comes from the same machine state:
// 1. generates the corpus with bench/gen-transcripts.mjs (200 transcripts, ~50 MB, five formats) in a
//    fresh workspace (default: a temp folder, removed at the end unless --keep);
// 2. baselines: `node -e 0` (Node start-up) and `node bin/mem.cjs --version` (CLI start-up), median of 7;
// 3. full run: `mem -C <ws> microsync --since all --no-llm --json --now 2026-11-22T00:00:00Z`;
// 4. incremental run: appends 10 lines in all, two to one transcript of each format (the largest of
//    its kind; the first line a settled statement), timestamped 2026-11-22T06:00Z, then
//    `mem microsync --no-llm --json --now 2026-11-22T12:00:00Z` (cursors, no --since); asserts its
//    `bytesRead` equals exactly the bytes appended and that the new statements were written;
// 5. no-op run: the same command again, nothing new: asserts bytesRead 0 and no entry added.
// Steps 3-5 run --repeat times on a reset workspace (memory/ and .mem/ removed, appended bytes cut
// off again); the table shows medians (peak RSS: the maximum). Every run goes through
// `/usr/bin/time -v` when present (peak RSS, CPU time) and preloads bench/probe.mjs (the same from
// process.resourceUsage() where time is missing, and /proc/self/io rchar: every byte the process
// read, module files included; the incremental run's rchar minus the no-op run's is what reading the
// new data cost, hidden re-reads included). Wall times on a shared machine move with its load, which
// is printed; CPU seconds move much less. Results: a table on stdout and
// bench/out/microsync-<stamp>.json (+ microsync-latest.json). Exit code 1 when an assertion fails.

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { argReader } from './gen-kit.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const MEM = path.join(ROOT, 'bin', 'mem.cjs');
const PROBE = path.join(ROOT, 'bench', 'probe.mjs');
const GEN = path.join(ROOT, 'bench', 'gen-transcripts.mjs');
const OUT_DIR = path.join(ROOT, 'bench', 'out');
const NOW_FULL = '2026-11-22T00:00:00Z';
const APPEND_AT = Date.parse('2026-11-22T06:00:00Z');
const NOW_INCR = '2026-11-22T12:00:00Z';
const APPEND_LINES = 10; // in all, spread over one transcript of each format (the first line of each a settled statement)

// ---------- args ----------
const args = process.argv.slice(2);
const arg = argReader(args);
const scale = parseFloat(String(arg('scale', process.env.BENCH_SCALE ?? '1')));
const files = parseInt(String(arg('files', Math.max(5, Math.round(200 * scale)))), 10);
const mb = parseFloat(String(arg('mb', 50 * scale)));
const seed = parseInt(String(arg('seed', '20261122')), 10);
const repeat = Math.max(1, parseInt(String(arg('repeat', process.env.BENCH_REPEAT ?? '3')), 10));
const keep = args.includes('--keep');
const workdir = arg('workdir', null);
if (!(scale > 0) || !(files >= 5) || !(mb > 0)) {
  console.error(
    'usage: node bench/microsync.mjs [--scale S] [--files N>=5] [--mb M] [--seed N] [--repeat R] [--workdir DIR] [--keep]',
  );
  process.exit(2);
}
if (!fs.existsSync(path.join(ROOT, 'dist', 'cli', 'main.js'))) {
  console.error('dist/ is missing: run `npm run build` first (or `npm run bench:microsync`)');
  process.exit(2);
}

const TIME =
  fs.existsSync('/usr/bin/time') && spawnSync('/usr/bin/time', ['-v', 'true']).status === 0 ? '/usr/bin/time' : null;
const failures = [];
const check = (ok, what) => {
  if (!ok) failures.push(what);
  return ok;
};

// ---------- running a measured child ----------
function measure(argv, { cwd = ROOT, env = {} } = {}) {
  const probeFile = path.join(os.tmpdir(), `memfold-probe-${process.pid}-${Math.random().toString(36).slice(2)}.json`);
  const cmd = TIME ? TIME : process.execPath;
  const full = TIME ? ['-v', process.execPath, ...argv] : argv;
  const t0 = process.hrtime.bigint();
  const r = spawnSync(cmd, full, {
    cwd,
    env: { ...process.env, ...env, MEMFOLD_BENCH_PROBE: probeFile },
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  let probe = {};
  try {
    probe = JSON.parse(fs.readFileSync(probeFile, 'utf8'));
    fs.rmSync(probeFile);
  } catch {
    /* no probe output: the figures below fall back to /usr/bin/time's */
  }
  const timeRss = TIME ? Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(r.stderr)?.[1] ?? NaN) : NaN;
  const timeCpu = TIME
    ? ['User', 'System'].reduce(
        (a, k) => a + Number(new RegExp(`${k} time \\(seconds\\): ([\\d.]+)`).exec(r.stderr)?.[1] ?? NaN),
        0,
      )
    : NaN;
  if (r.status !== 0) {
    console.error(`command failed (exit ${r.status}): node ${argv.join(' ')}\n${r.stderr.slice(-4000)}`);
    process.exit(1);
  }
  return {
    seconds,
    cpuSeconds: Number.isFinite(timeCpu) ? timeCpu : (probe.cpuSeconds ?? null),
    rssKb: Number.isFinite(timeRss) ? timeRss : (probe.maxRssKb ?? null),
    probeRssKb: probe.maxRssKb ?? null,
    rchar: probe.rchar ?? null,
    stdout: r.stdout,
  };
}
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const probeArgs = ['--import', PROBE];
const memArgs = (ws, ...rest) => [...probeArgs, MEM, '-C', ws, ...rest];

// ---------- lines appended for the incremental run (same shapes as the generator's) ----------
function appendedLines(kind, file, n) {
  const first = fs.readFileSync(file, 'utf8').slice(0, 8192).split('\n');
  let t = APPEND_AT;
  const at = () => new Date((t += 7000)).toISOString();
  const settled = `From now on, incremental benchmark rule ${path.basename(file).slice(0, 8)} applies to the retry queue.`;
  const texts = (i) =>
    i === 0
      ? settled
      : i % 3 === 1
        ? 'Noted, I will apply that from the next change on.'
        : i % 3 === 2
          ? `Ran the suite again: ${100 + i} passed.`
          : 'thanks!';
  const lines = [];
  if (kind === 'markdown') {
    // A heading line and a text line per turn.
    for (let i = 0; lines.length < n; i++) lines.push(`## ${i % 2 === 0 ? 'user' : 'assistant'} · ${at()}`, texts(i));
    return lines.slice(0, n);
  }
  const header = JSON.parse(
    first.find(
      (l) =>
        l.includes('"sessionId"') ||
        l.includes('"session_id"') ||
        l.includes('"session_meta"') ||
        l.includes('"session"'),
    ) ?? '{}',
  );
  for (let i = 0; i < n; i++) {
    const role = i % 2 === 0 ? 'user' : 'assistant';
    const text = texts(i);
    const ts = at();
    switch (kind) {
      case 'claude-code': {
        const msg =
          role === 'user'
            ? { role, content: text }
            : {
                id: `msg_bench${i}`,
                type: 'message',
                role,
                model: 'claude-sonnet-4-20250514',
                content: [{ type: 'text', text }],
              };
        lines.push(
          JSON.stringify({
            parentUuid: null,
            isSidechain: false,
            userType: 'external',
            cwd: header.cwd ?? '/home/dev',
            sessionId: header.sessionId,
            version: '1.0.98',
            gitBranch: 'main',
            type: role,
            message: msg,
            uuid: `bench-${i}`,
            timestamp: ts,
          }),
        );
        break;
      }
      case 'codex':
        lines.push(
          JSON.stringify({
            timestamp: ts,
            type: 'response_item',
            payload: {
              type: 'message',
              role,
              content: [{ type: role === 'user' ? 'input_text' : 'output_text', text }],
            },
          }),
        );
        break;
      case 'openclaw':
        lines.push(
          JSON.stringify({
            type: 'message',
            id: `bench${i}`,
            parentId: null,
            timestamp: ts,
            message: { role, content: [{ type: 'text', text }], timestamp: Date.parse(ts) },
          }),
        );
        break;
      default:
        lines.push(JSON.stringify({ role, content: text, timestamp: ts, session_id: header.session_id }));
    }
  }
  return lines;
}

// ---------- main ----------
const ws =
  workdir && workdir !== true
    ? path.resolve(String(workdir))
    : fs.mkdtempSync(path.join(os.tmpdir(), 'memfold-bench-'));
console.log(
  `memfold microsync benchmark — ${files} transcripts, ~${mb} MB, seed ${seed}, ${repeat} repeat(s); workspace ${ws}`,
);
console.log(
  `node ${process.version}, ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB; peak RSS from ${TIME ? '/usr/bin/time -v' : 'process.resourceUsage() (probe)'}`,
);

const g0 = process.hrtime.bigint();
const gen = spawnSync(
  process.execPath,
  [GEN, '--out', ws, '--files', String(files), '--mb', String(mb), '--seed', String(seed), '--force'],
  { encoding: 'utf8' },
);
if (gen.status !== 0) {
  console.error(gen.stderr);
  process.exit(1);
}
const corpus = JSON.parse(gen.stdout);
const genSeconds = Number(process.hrtime.bigint() - g0) / 1e9;
const tdir = path.join(ws, 'transcripts');
const allFiles = [];
(function walk(d) {
  for (const e of fs.readdirSync(d, { withFileTypes: true })) {
    const p = path.join(d, e.name);
    if (e.isDirectory()) walk(p);
    else allFiles.push(p);
  }
})(tdir);
allFiles.sort();
const corpusBytes = allFiles.reduce((a, f) => a + fs.statSync(f).size, 0);
console.log(
  `generated ${allFiles.length} files, ${(corpusBytes / 2 ** 20).toFixed(1)} MB in ${genSeconds.toFixed(1)} s`,
);

// Baselines.
const nodeRuns = Array.from({ length: 7 }, () => measure([...probeArgs, '-e', '0']));
const cliRuns = Array.from({ length: 7 }, () => measure([...probeArgs, MEM, '--version']));

// One transcript of each kind gets the appended lines: the largest of its kind (the worst case for
// a reader that re-reads), skipping the scheduler sessions, which microsync ignores for good.
const kindOf = (f) => path.relative(tdir, f).split(path.sep)[0];
const targets = [];
for (const kind of ['claude-code', 'codex', 'openclaw', 'jsonl', 'markdown']) {
  const mine = allFiles.filter(
    (f) => kindOf(f) === kind && !/\[(cron|heartbeat|scheduled)\]/.test(fs.readFileSync(f, 'utf8').slice(0, 20000)),
  );
  mine.sort((a, b) => fs.statSync(b).size - fs.statSync(a).size);
  if (mine[0]) targets.push({ kind, file: mine[0], size: fs.statSync(mine[0]).size });
}

const runs = [];
for (let r = 0; r < repeat; r++) {
  // Reset: no entries, no cursors, transcripts as generated.
  fs.rmSync(path.join(ws, '.mem'), { recursive: true, force: true });
  fs.rmSync(path.join(ws, 'memory'), { recursive: true, force: true });
  fs.mkdirSync(path.join(ws, 'memory'));
  for (const t of targets) fs.truncateSync(t.file, t.size);

  const full = measure(memArgs(ws, 'microsync', '--since', 'all', '--no-llm', '--json', '--now', NOW_FULL));
  const fullJson = JSON.parse(full.stdout);

  let appended = 0;
  for (const [i, t] of targets.entries()) {
    const n = Math.floor(APPEND_LINES / targets.length) + (i < APPEND_LINES % targets.length ? 1 : 0);
    const text = appendedLines(t.kind, t.file, n)
      .map((l) => `${l}\n`)
      .join('');
    fs.appendFileSync(t.file, text);
    appended += Buffer.byteLength(text);
  }
  const incr = measure(memArgs(ws, 'microsync', '--no-llm', '--json', '--now', NOW_INCR));
  const incrJson = JSON.parse(incr.stdout);
  const noop = measure(memArgs(ws, 'microsync', '--no-llm', '--json', '--now', NOW_INCR));
  const noopJson = JSON.parse(noop.stdout);

  check(
    fullJson.bytesRead > 0 && fullJson.files === allFiles.length,
    `run ${r + 1}: full run read ${fullJson.files} of ${allFiles.length} files`,
  );
  check(
    incrJson.bytesRead === appended,
    `run ${r + 1}: incremental run read ${incrJson.bytesRead} bytes, but ${appended} were appended`,
  );
  check(
    incrJson.added.length >= targets.length,
    `run ${r + 1}: incremental run added ${incrJson.added.length} entries, expected ${targets.length} (one settled statement per appended file)`,
  );
  check(
    noopJson.bytesRead === 0 && noopJson.added.length === 0,
    `run ${r + 1}: no-op run read ${noopJson.bytesRead} bytes and added ${noopJson.added.length} entries`,
  );
  runs.push({
    full: {
      seconds: full.seconds,
      cpuSeconds: full.cpuSeconds,
      rssKb: full.rssKb,
      rchar: full.rchar,
      bytesRead: fullJson.bytesRead,
      files: fullJson.files,
      sessions: fullJson.sessions,
      turns: fullJson.turns,
      malformed: fullJson.malformed,
      candidates: fullJson.candidates,
      added: fullJson.added.length,
      skippedSessions: fullJson.skippedSessions.length,
    },
    incremental: {
      seconds: incr.seconds,
      cpuSeconds: incr.cpuSeconds,
      rssKb: incr.rssKb,
      rchar: incr.rchar,
      appendedBytes: appended,
      bytesRead: incrJson.bytesRead,
      files: targets.length,
      turns: incrJson.turns,
      added: incrJson.added.length,
    },
    noop: {
      seconds: noop.seconds,
      cpuSeconds: noop.cpuSeconds,
      rssKb: noop.rssKb,
      rchar: noop.rchar,
      bytesRead: noopJson.bytesRead,
      added: noopJson.added.length,
    },
  });
  process.stdout.write(
    `run ${r + 1}/${repeat}: full ${full.seconds.toFixed(2)} s, incremental ${incr.seconds.toFixed(3)} s, no-op ${noop.seconds.toFixed(3)} s\n`,
  );
}

// ---------- report ----------
const med = (sel) => median(runs.map(sel));
const nodeS = median(nodeRuns.map((x) => x.seconds));
const cliS = median(cliRuns.map((x) => x.seconds));
const summarise = (k) => ({
  ...runs[0][k],
  seconds: med((x) => x[k].seconds),
  cpuSeconds: med((x) => x[k].cpuSeconds),
  rssKb: Math.max(...runs.map((x) => x[k].rssKb)),
});
const full = summarise('full');
const incr = summarise('incremental');
const noop = summarise('noop');
const MB = 2 ** 20;
const fullMB = full.bytesRead / MB;
const result = {
  date: new Date().toISOString(),
  node: process.version,
  cpu: `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}`,
  memoryGiB: +(os.totalmem() / 2 ** 30).toFixed(1),
  rssFrom: TIME ? '/usr/bin/time -v' : 'process.resourceUsage().maxRSS',
  command: `node bin/mem.cjs -C <ws> microsync --since all --no-llm --json --now ${NOW_FULL}`,
  incrementalCommand: `node bin/mem.cjs -C <ws> microsync --no-llm --json --now ${NOW_INCR}`,
  corpus: {
    files: allFiles.length,
    bytes: corpusBytes,
    seed,
    settledStatements: corpus.settled,
    byKind: corpus.byKind,
    generateSeconds: +genSeconds.toFixed(2),
  },
  repeat,
  loadAverage: os.loadavg(),
  baseline: {
    nodeStartSeconds: nodeS,
    nodeStartCpuSeconds: median(nodeRuns.map((x) => x.cpuSeconds)),
    nodeStartRssKb: median(nodeRuns.map((x) => x.rssKb)),
    cliStartSeconds: cliS,
    cliStartCpuSeconds: median(cliRuns.map((x) => x.cpuSeconds)),
    cliStartRssKb: median(cliRuns.map((x) => x.rssKb)),
  },
  full: {
    ...full,
    mbPerSecond: fullMB / full.seconds,
    mbPerSecondNet: full.seconds - noop.seconds > 0.1 * full.seconds ? fullMB / (full.seconds - noop.seconds) : null,
    mbPerCpuSecond: fullMB / full.cpuSeconds,
    ratioToNodeStart: full.seconds / nodeS,
  },
  incremental: {
    ...incr,
    ratioToFull: incr.seconds / full.seconds,
    cpuRatioToFull: incr.cpuSeconds / full.cpuSeconds,
    ratioToNodeStart: incr.seconds / nodeS,
    rcharOverNoop: incr.rchar !== null && noop.rchar !== null ? incr.rchar - noop.rchar : null,
    appendedTo: targets.map((t) => path.relative(ws, t.file)),
  },
  noop: { ...noop, ratioToNodeStart: noop.seconds / nodeS },
  runs,
  failures,
};

const kb = (k) => (k == null ? 'n/a' : `${(k / 1024).toFixed(0)} MB`);
const b = result.baseline;
const rows = [
  ['run', 'wall s', '× node -e 0', 'CPU s', 'peak RSS', 'read (bytesRead)', 'notes'],
  [
    'node -e 0',
    nodeS.toFixed(3),
    '1.0',
    b.nodeStartCpuSeconds.toFixed(2),
    kb(b.nodeStartRssKb),
    '',
    'Node start-up (median of 7)',
  ],
  [
    'mem --version',
    cliS.toFixed(3),
    (cliS / nodeS).toFixed(1),
    b.cliStartCpuSeconds.toFixed(2),
    kb(b.cliStartRssKb),
    '',
    'CLI start-up (median of 7)',
  ],
  [
    'full',
    full.seconds.toFixed(2),
    (full.seconds / nodeS).toFixed(1),
    full.cpuSeconds.toFixed(2),
    kb(full.rssKb),
    `${fullMB.toFixed(1)} MB`,
    `${full.files} files, ${full.turns} turns, ${full.added} entries; ${result.full.mbPerSecond.toFixed(1)} MB/s (${result.full.mbPerSecondNet?.toFixed(1) ?? 'n/a'} net of the no-op run; ${result.full.mbPerCpuSecond.toFixed(1)} MB per CPU s)`,
  ],
  [
    'incremental',
    incr.seconds.toFixed(3),
    (incr.seconds / nodeS).toFixed(1),
    incr.cpuSeconds.toFixed(2),
    kb(incr.rssKb),
    `${incr.bytesRead} B`,
    `${APPEND_LINES} lines appended across ${incr.files} files = ${incr.appendedBytes} B; ${incr.added} entries; ${((incr.seconds / full.seconds) * 100).toFixed(1)}% of full (CPU ${((incr.cpuSeconds / full.cpuSeconds) * 100).toFixed(1)}%)`,
  ],
  [
    'no-op',
    noop.seconds.toFixed(3),
    (noop.seconds / nodeS).toFixed(1),
    noop.cpuSeconds.toFixed(2),
    kb(noop.rssKb),
    `${noop.bytesRead} B`,
    'nothing new: cursors checked only',
  ],
];
const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => String(r[i]).length)));
console.log('');
for (const [i, r] of rows.entries()) {
  console.log(
    r
      .map((c, j) => (j === 0 || j === r.length - 1 ? String(c).padEnd(widths[j]) : String(c).padStart(widths[j])))
      .join('  ')
      .trimEnd(),
  );
  if (i === 0) console.log(widths.map((w) => '-'.repeat(w)).join('  '));
}
if (result.incremental.rcharOverNoop !== null) {
  console.log(
    `\nprocess read() bytes (rchar), incremental minus no-op: ${result.incremental.rcharOverNoop} B for ${incr.appendedBytes} B appended`,
  );
}
console.log(
  `load average at the end: ${os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')} on ${os.cpus().length} cores (wall times grow with it; CPU s much less)`,
);
console.log(
  `incremental bytesRead == bytes appended: ${runs.every((x) => x.incremental.bytesRead === x.incremental.appendedBytes) ? 'yes' : 'NO'}`,
);

fs.mkdirSync(OUT_DIR, { recursive: true });
const stamp = result.date.replace(/[:.]/g, '-');
const outFile = path.join(OUT_DIR, `microsync-${stamp}.json`);
fs.writeFileSync(outFile, JSON.stringify(result, null, 2) + '\n');
fs.writeFileSync(path.join(OUT_DIR, 'microsync-latest.json'), JSON.stringify(result, null, 2) + '\n');
console.log(`\nresult: ${path.relative(ROOT, outFile)}`);
if (!keep && !workdir) fs.rmSync(ws, { recursive: true, force: true });
if (failures.length) {
  console.error(`\nFAILED:\n- ${failures.join('\n- ')}`);
  process.exit(1);
}
