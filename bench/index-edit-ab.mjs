#!/usr/bin/env node
// index-edit-ab.mjs — `mem index` after editing one memory file, two builds of memfold interleaved
// in one run (the machine's load drifts), each on its own copy of a workspace (their `.mem/` layouts
// may differ), with `node -e 0` between runs as the baseline.
//
// Usage:
//   node bench/index-edit-ab.mjs --ws /tmp/reads3-1k/ws --old /tmp/old-build --new . [--runs 10] [--workdir DIR]
//   --ws      a workspace from bench/gen-corpus.mjs (copied, never written)
//   --old/--new  project roots holding a built bin/mem.cjs (npm run build)
//   --edit    note (an unscoped note appended to the oldest daily file, as bench/lib.mjs oneEditIndexRuns)
//             or scoped (a scoped decision appended to the newest daily file naming a project scope)
// Prints p50 / p95 wall time and peak RSS per build, the ratio to `node -e 0`, and new/old.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { arg, median, p95, run } from './lib.mjs';

const ws = arg('ws', null);
const builds = { old: arg('old', null), new: arg('new', '.') };
const runs = parseInt(arg('runs', '10'), 10);
const edit = arg('edit', 'note');
if (!ws || !builds.old) {
  console.error('usage: node bench/index-edit-ab.mjs --ws DIR --old ROOT [--new ROOT] [--runs N] [--edit note|scoped]');
  process.exit(2);
}
const workdir = arg('workdir', null) ?? fs.mkdtempSync(path.join(os.tmpdir(), 'memfold-index-ab-'));
const OFF = { MEM_SEARCH_SERVER: 'off' };
const mem = (b) => path.resolve(builds[b], 'bin', 'mem.cjs');

const copies = {};
for (const b of Object.keys(builds)) {
  copies[b] = path.join(workdir, b);
  if (!fs.existsSync(copies[b])) fs.cpSync(ws, copies[b], { recursive: true });
  const r = run(process.execPath, [mem(b), '-C', copies[b], 'index'], { env: OFF });
  if (r.code !== 0) throw new Error(`${b}: mem index: ${r.stderr}`);
}

/** The file an edit appends to, and the text. */
function target(dir, i) {
  const daily = fs
    .readdirSync(path.join(dir, 'memory'))
    .filter((f) => /^\d{4}-\d{2}-\d{2}\.md$/.test(f))
    .sort();
  if (edit === 'note')
    return [
      path.join(dir, 'memory', daily[0]),
      `\n## Note: bench edit ${i}\n- id: NOTE-bench-edit-${i}\n- why: one more entry\n`,
    ];
  const file = daily
    .slice()
    .reverse()
    .find((f) => /- scope: project:/.test(fs.readFileSync(path.join(dir, 'memory', f), 'utf8')));
  const scope = /- scope: (project:[\w-]+)/.exec(fs.readFileSync(path.join(dir, 'memory', file), 'utf8'))[1];
  const day = file.slice(0, 10);
  return [
    path.join(dir, 'memory', file),
    `\n## Decision: bench decision ${i}\n- id: DECISION-${day.replaceAll('-', '')}-bench-decision-${i}\n- date: ${day}\n- scope: ${scope}\n- conclusion: decided in run ${i}\n`,
  ];
}

const originals = Object.fromEntries(
  Object.entries(copies)
    .map(([b, d]) => [b, target(d, 0)[0]])
    .map(([b, f]) => [b, [f, fs.readFileSync(f)]]),
);
const times = { old: [], new: [] };
const rss = { old: [], new: [] };
const base = [];
try {
  for (let i = 0; i < runs; i++) {
    for (const b of i % 2 ? ['new', 'old'] : ['old', 'new']) {
      const [file, text] = target(copies[b], i);
      fs.appendFileSync(file, text);
      base.push(run(process.execPath, ['-e', '0']).ms);
      const r = run(process.execPath, [mem(b), '-C', copies[b], '--json', 'index'], { env: OFF, rss: true });
      if (r.code !== 0) throw new Error(`${b}: ${r.stderr}`);
      times[b].push(r.ms);
      if (r.rssMB) rss[b].push(r.rssMB);
    }
  }
} finally {
  for (const [b, [f, text]] of Object.entries(originals)) {
    fs.writeFileSync(f, text);
    run(process.execPath, [mem(b), '-C', copies[b], 'index'], { env: OFF });
  }
}
const node0 = median(base);
console.log(
  `${edit} edit, ${runs} runs each, interleaved; node -e 0 median ${node0.toFixed(1)} ms; workdir ${workdir}`,
);
for (const b of ['old', 'new'])
  console.log(
    `${b}: p50 ${median(times[b]).toFixed(0)} ms (${(median(times[b]) / node0).toFixed(2)}×), p95 ${p95(times[b]).toFixed(0)} ms, peak RSS ${rss[b].length ? Math.max(...rss[b]).toFixed(0) : '?'} MB`,
  );
console.log(`new/old p50: ${(median(times.new) / median(times.old)).toFixed(2)}`);
