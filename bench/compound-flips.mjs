#!/usr/bin/env node
// compound-flips.mjs — benchmark of `mem compound` settling many status flips in one daily file.
//
// Usage (from the project root, after `npm run build`; `npm run bench:compound` does both):
//   node bench/compound-flips.mjs [--sizes 1000,5000] [--keys-per-100 6] [--mem bin/mem.cjs]
//                                 [--workdir DIR] [--keep]
//
// For each size N: a fresh workspace (`mem init`) whose one daily file (memory/2026-11-17.md) holds
// N rules sharing N·6/100 keys (the review's 5,000 entries with 300 keys: 4,700 supersessions), then
// whole-process times of `mem lint` (one read of the file, for scale) and `mem compound --no-llm`
// (every flip), both against `node -e 0` (median of 10) in the same run. Asserts compound flipped
// N − keys entries. --mem times another build of the CLI (e.g. a copy of bin/ and dist/ from before
// a change). Results: a table on stdout and bench/out/compound-flips-latest.json.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { arg, flag, median, run as runProcess } from './lib.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const MEM = path.resolve(arg('mem', path.join(ROOT, 'bin', 'mem.cjs')));
const OUT_DIR = path.join(ROOT, 'bench', 'out');
const sizes = arg('sizes', '1000,5000').split(',').map(Number);
const keysPer100 = Number(arg('keys-per-100', '6'));
const keep = flag('keep');
const workdir = arg('workdir', null) ?? fs.mkdtempSync(path.join(os.tmpdir(), 'memfold-bench-compound-'));
const NOW = '2026-11-24T04:00:00Z';
const DAY = '2026-11-17';

/** A process that must succeed. */
function run(cmd, argv) {
  const r = runProcess(cmd, argv);
  if (r.code !== 0) throw new Error(`${cmd} ${argv.join(' ')} exited ${r.code}: ${r.stderr}`);
  return r;
}

/** N rules over `keys` keys (entry i has key i mod keys): per key, the highest id wins and the rest are superseded. */
function dailyFile(n, keys) {
  const entries = Array.from({ length: n }, (_, i) => {
    const id = `RULE-20261117-bench-rule-${String(i).padStart(5, '0')}`;
    return `\n## Rule: Bench rule ${i} for area ${i % keys}\n- id: ${id}\n- date: ${DAY}\n- key: rule:bench-${i % keys}\n- conclusion: Bench rule ${i} settles area ${i % keys} (version ${Math.floor(i / keys)})\n- confidence: 0.9\n- origin: user\n- status: active\n`;
  });
  return `# ${DAY}\n${entries.join('')}`;
}

const node0 = median(Array.from({ length: 10 }, () => run(process.execPath, ['-e', '0']).ms));
console.log(`mem: ${path.relative(process.cwd(), MEM) || MEM}\nnode -e 0 (median of 10): ${node0.toFixed(1)} ms\n`);
const results = [];
for (const n of sizes) {
  const keys = Math.max(1, Math.round((n * keysPer100) / 100));
  const ws = path.join(workdir, `ws-${n}`);
  fs.rmSync(ws, { recursive: true, force: true });
  run(process.execPath, [MEM, 'init', ws]);
  const daily = dailyFile(n, keys);
  fs.writeFileSync(path.join(ws, 'memory', `${DAY}.md`), daily);
  const lint = runProcess(process.execPath, [MEM, '-C', ws, 'lint']); // exit 0 or problems found: timed either way
  const compound = run(process.execPath, [MEM, '-C', ws, '--now', NOW, '--json', 'compound', '--no-llm']);
  const flips = JSON.parse(compound.stdout).superseded.length;
  if (flips !== n - keys) throw new Error(`compound flipped ${flips} entries, expected ${n - keys}`);
  const r = {
    entries: n,
    keys,
    flips,
    fileKB: Math.round(Buffer.byteLength(daily) / 1024),
    lintMs: Math.round(lint.ms),
    compoundMs: Math.round(compound.ms),
    compoundRatio: compound.ms / node0,
    lintRatio: lint.ms / node0,
  };
  results.push(r);
  console.log(
    `N=${n} (${keys} keys, ${flips} flips, ${r.fileKB} KB): mem compound ${r.compoundMs} ms (${r.compoundRatio.toFixed(1)}× node -e 0); mem lint ${r.lintMs} ms (${r.lintRatio.toFixed(1)}×)`,
  );
}

fs.mkdirSync(OUT_DIR, { recursive: true });
fs.writeFileSync(
  path.join(OUT_DIR, 'compound-flips-latest.json'),
  JSON.stringify(
    {
      at: new Date().toISOString(),
      host: { cpus: os.cpus().length, node: process.version, load: os.loadavg() },
      mem: MEM,
      node0,
      results,
    },
    null,
    2,
  ) + '\n',
);
if (!keep && !arg('workdir', null)) fs.rmSync(workdir, { recursive: true, force: true });
