/**
 * Crash safety under random SIGKILL (DESIGN §9 invariant 3). A seeded schedule kills `mem microsync`,
 * `mem remember`, `mem wrapup` and `mem compound` runs at random moments; after each kill every Markdown file still parses, and
 * once the jobs are re-run the workspace holds exactly the ids of an uninterrupted run, with no temp
 * file left. CI runs a few kills; `npm run test:stress` sets MEM_STRESS_KILLS=100.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { getField } from '../src/entries/model.js';
import { parseBlocks, serializeBlocks } from '../src/entries/parse.js';
import { editConfig, entryIds, exampleWorkspace, finished, mem, startMem } from './helpers/cli.js';

const KILLS = Number(process.env.MEM_STRESS_KILLS ?? 4);
const NOW = '2026-11-22T09:00:00Z';
const LIMITS = { lockStaleMs: 2000, lockUpdateMs: 500, lockWaitMs: 8000 };

/** mulberry32: the same seed gives the same kill schedule. */
function prng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? files(p) : [p];
  });
}

function assertAllMarkdownParses(ws: string): void {
  for (const f of files(join(ws, 'memory')).filter((p) => p.endsWith('.md'))) {
    const text = readFileSync(f, 'utf8');
    const blocks = parseBlocks(text);
    assert.equal(serializeBlocks(blocks), text, `${relative(ws, f)} round-trips`);
    assert.ok(text === '' || text.endsWith('\n'), `${relative(ws, f)} ends mid-line`);
    for (const b of blocks)
      if (b.type === 'entry') assert.ok(getField(b.entry, 'id'), `${relative(ws, f)}: an entry without an id`);
  }
}

const remembers = Array.from({ length: 4 }, (_, i) => [
  '--now',
  '2026-11-20T18:00:00Z',
  'remember',
  `Crash drill ${i}: keep the pager on`,
]);
const MICROSYNC = ['microsync', '--since', 'all', '--now', NOW];
const WRAPUP = ['--now', NOW, 'wrapup', '--date', '2026-11-21', '--no-llm'];
const COMPOUND = ['--now', '2026-11-23T09:00:00Z', 'compound', '--no-llm'];

/** What consolidation wrote, with the temp dir of the run taken out of session paths. */
function consolidated(ws: string, root: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const rel of ['MEMORY.md', 'second-brain/summaries/2026-11-21-wrapup.md'])
    out.set(rel, readFileSync(join(ws, rel), 'utf8').replaceAll(root, '<root>'));
  return out;
}

test(`${KILLS} random SIGKILLs of microsync, remember, wrapup and compound: nothing lost, doubled or half-written`, async (t) => {
  const clean = exampleWorkspace(t);
  for (const job of [MICROSYNC, ...remembers, WRAPUP, COMPOUND])
    assert.equal((await mem(['-C', clean.ws, ...job])).code, 0);
  const expected = entryIds(clean.ws);
  const expectedFiles = consolidated(clean.ws, clean.root);

  const { ws, root } = exampleWorkspace(t);
  editConfig(ws, (cfg) => (cfg.limits = LIMITS));
  const random = prng(20261122);
  const jobs = [MICROSYNC, WRAPUP, COMPOUND];
  let killedMidRun = 0;
  for (let k = 0; k < KILLS; k++) {
    const job =
      k % 2 === 0 ? jobs[Math.floor(random() * jobs.length)]! : remembers[Math.floor(random() * remembers.length)]!;
    const child = startMem(['-C', ws, ...job]);
    const done = finished(child);
    await new Promise((r) => setTimeout(r, 40 + random() * 400));
    if (child.exitCode === null) killedMidRun++;
    child.kill('SIGKILL');
    const r = await done;
    assert.ok(r.signal === 'SIGKILL' || r.code === 0, `run ${k} (${job.join(' ')}) failed by itself:\n${r.stderr}`);
    assertAllMarkdownParses(ws);
    assert.equal(new Set(entryIds(ws)).size, entryIds(ws).length, `run ${k}: an id appears twice`);
  }

  for (const job of [MICROSYNC, ...remembers, WRAPUP, COMPOUND]) {
    const r = await mem(['-C', ws, ...job]);
    assert.equal(r.code, 0, `${job.join(' ')}: ${r.stderr}`);
  }
  assert.deepEqual(entryIds(ws), expected);
  assert.deepEqual(consolidated(ws, root), expectedFiles, 'MEMORY.md and the wrap-up as after uninterrupted runs');
  assert.deepEqual(
    files(ws).filter((p) => p.includes('.mem-tmp-')),
    [],
    'no temp file left',
  );
  t.diagnostic(
    `${KILLS} kills, ${killedMidRun} while the process was running; ${expected.length} entries compared, 0 lost, 0 duplicated, 0 corrupt`,
  );
});
