#!/usr/bin/env node
// The quick start: copies the bundled example workspace and transcripts to ./demo-workspace, runs
// `mem microsync` over them offline (rule-based extractor, fixed --now so the run is reproducible)
// and prints what landed in memory/.
import { cpSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const demo = join(root, 'demo-workspace');
rmSync(demo, { recursive: true, force: true });
cpSync(join(root, 'fixtures/example-workspace'), join(demo, 'workspace'), { recursive: true });
cpSync(join(root, 'fixtures/transcripts'), join(demo, 'transcripts'), { recursive: true });

const workspace = join(demo, 'workspace');
const mem = (...args) =>
  spawnSync(process.execPath, [join(root, 'bin/mem.js'), '-C', workspace, ...args], { stdio: 'inherit' });

console.log(`$ mem -C demo-workspace/workspace microsync --since all --now 2026-11-22T09:00:00Z`);
const run = mem('microsync', '--since', 'all', '--now', '2026-11-22T09:00:00Z');
if (run.status !== 0) process.exit(run.status ?? 1);

const days = readdirSync(join(workspace, 'memory'))
  .filter((f) => /^\d{4}-\d{2}-\d{2}\.md$/.test(f))
  .sort();
for (const day of days) {
  console.log(`\n──── memory/${day} ────\n`);
  process.stdout.write(readFileSync(join(workspace, 'memory', day), 'utf8'));
}
console.log(`\nRun it again and nothing changes (ids are idempotency keys):`);
mem('microsync', '--since', 'all', '--now', '2026-11-22T09:00:00Z');
console.log(`\nTry: node bin/mem.js -C demo-workspace/workspace get <id>   |   ... lint   |   ... remember "..."`);
