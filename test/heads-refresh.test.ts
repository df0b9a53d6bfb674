/**
 * The heads' and ready packs' refresh through the CLI (src/entries/heads-refresh.ts,
 * src/pack/pack-cache.ts): after a one-file edit, `mem index` rewrites only the heads files, id and
 * link buckets and packs the edit touched, leaves the others untouched on disk, and what it leaves
 * is what a rebuild from nothing writes; `mem context`, `mem get` and `mem trace` answer as on that
 * rebuild. A field the heads do not keep, edited in place, still refits the pack that prints it
 * (src/pack/pack-deps.ts). A scope file whose generation is not the one the meta names, or a hand edit since the
 * refresh, sends the read to the whole table.
 */
import assert from 'node:assert/strict';
import { appendFileSync, cpSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { idBucketFile, idBucketOf, rowsFile, scopeFile } from '../src/entries/heads-store.js';
import { linkBucketOf, linksFile } from '../src/entries/links-index.js';
import { scopeFile as packFile } from '../src/pack/pack-cache-files.js';
import { memOk, tempDir } from './helpers/cli.js';
import { daily, entry, workspace } from './fixtures/governance/workspace.js';

const rule = (id: string, title: string, date: string, scope: string, fields: Record<string, string> = {}) =>
  entry({ id, title, date, fields: { conclusion: title.toLowerCase(), scope, ...fields } });

/** Every file of a folder: name → mtime and text. */
function state(dir: string): Map<string, { mtime: number; text: string }> {
  return new Map(
    readdirSync(dir).map((f) => [
      f,
      { mtime: statSync(join(dir, f)).mtimeMs, text: readFileSync(join(dir, f), 'utf8') },
    ]),
  );
}

test('after a one-file edit mem index rewrites only the heads and packs it touched, as a rebuild would write them; a forged generation or a hand edit sends reads to the whole table', async (t) => {
  const [A, B, C] = ['2026-11-01', '2026-11-02', '2026-11-03'];
  const S3 = 'RULE-20261102-cache-in-process';
  const S4 = 'RULE-20261102-cache-in-redis';
  const ws = workspace(t, {
    [`memory/${A}.md`]: daily(A, [
      rule('RULE-20261101-write-it-down', 'Write it down', A, 'global'),
      rule('RULE-20261101-deploy-on-tuesdays', 'Deploy on Tuesdays', A, 'project:shop'),
      rule('RULE-20261101-short-posts', 'Short posts', A, 'project:blog', { detail: 'under 500 words' }),
    ]),
    [`memory/${B}.md`]: daily(B, [
      rule('RULE-20261102-cache-nothing', 'Cache nothing', B, 'project:shop', { key: 'cache' }),
      rule(S3, 'Cache in process', B, 'project:shop', { supersedes: 'RULE-20261102-cache-nothing' }),
    ]),
    [`memory/${C}.md`]: daily(C, [
      rule('RULE-20261103-tag-every-post', 'Tag every post', C, 'project:blog'),
      rule('RULE-20261103-no-comments', 'No comments', C, 'project:blog'),
    ]),
    'MEMORY.md': `# MEMORY\n\n## Core rules\n- Cache ([${S3}](memory/${B}.md))\n- Tags ([RULE-20261103-tag-every-post](memory/${C}.md))\n`,
  });
  await memOk(['-C', ws, 'index']);
  // A session start read a pack: from now on every refresh keeps packs ready.
  await memOk(['-C', ws, 'context', '--scope', 'project:shop']);
  await memOk(['-C', ws, 'index']);
  const headsDir = join(ws, '.mem', 'entries', 'heads');
  const packsDir = join(ws, '.mem', 'entries', 'packs');
  const [heads0, packs0] = [state(headsDir), state(packsDir)];
  assert.ok(heads0.has(scopeFile('project:blog')) && packs0.has(packFile('project:blog')));

  appendFileSync(
    join(ws, 'memory', `${B}.md`),
    `\n${rule(S4, 'Cache in Redis', B, 'project:shop', { supersedes: S3 })}`,
  );
  await memOk(['-C', ws, 'index']);
  const [heads1, packs1] = [state(headsDir), state(packsDir)];
  const changed = (a: typeof heads0, b: typeof heads0) =>
    [...b.keys()].filter((f) => a.get(f)?.mtime !== b.get(f)!.mtime || a.get(f)?.text !== b.get(f)!.text).sort();
  // The shop's heads and rows, the new id's bucket, the link lists naming the superseded id, the meta.
  const may = new Set([
    'meta.json',
    'chains.json',
    'links.json',
    scopeFile('project:shop'),
    rowsFile('project:shop'),
    idBucketFile(idBucketOf(S4)),
    linksFile(linkBucketOf(S3)),
  ]);
  const touched = changed(heads0, heads1);
  assert.ok(touched.includes(scopeFile('project:shop')), `rewritten: ${touched.join(', ')}`);
  assert.deepEqual(
    touched.filter((f) => !may.has(f)),
    [],
    'nothing else of the heads is rewritten',
  );
  for (const f of [scopeFile('project:blog'), rowsFile('project:blog'), scopeFile('global')])
    assert.deepEqual(heads1.get(f), heads0.get(f), `${f} untouched`);
  // The shop's pack is made again; the blog's and a folder of no scope's stay as they were.
  const repacked = changed(packs0, packs1);
  assert.ok(repacked.includes(packFile('project:shop')), `rewritten: ${repacked.join(', ')}`);
  for (const f of [packFile('project:blog'), packFile('')])
    assert.deepEqual(packs1.get(f), packs0.get(f), `${f} untouched`);

  // A twin rebuilt from nothing holds the same heads, and every read answers the same.
  const twin = join(tempDir(t, 'memfold-heads-twin-'), 'ws');
  cpSync(ws, twin, { recursive: true });
  rmSync(join(twin, '.mem'), { recursive: true });
  await memOk(['-C', twin, 'index']);
  const rebuilt = state(join(twin, '.mem', 'entries', 'heads'));
  const texts = (m: typeof rebuilt) =>
    Object.fromEntries([...m].filter(([f]) => f !== 'meta.json').map(([f, v]) => [f, v.text]));
  assert.deepEqual(texts(heads1), texts(rebuilt), 'the incremental heads are the rebuilt heads');
  const reads = (dir: string) =>
    Promise.all(
      [
        ['context', '--scope', 'project:shop', '--json'],
        ['get', S4],
        ['--json', 'trace', 'RULE-20261102-cache-nothing'],
      ].map(async (argv) => (await memOk(['-C', dir, ...argv])).stdout),
    );
  const expected = await reads(twin);
  assert.match(expected[0]!, /Cache in Redis/);
  assert.doesNotMatch(expected[0]!, /Cache in process/);
  assert.deepEqual(await reads(ws), expected);

  // A field the heads do not keep, edited in place: the blog's pack prints it, so it is made again.
  const fileA = join(ws, 'memory', `${A}.md`);
  writeFileSync(fileA, readFileSync(fileA, 'utf8').replace('under 500 words', 'under 900 words'));
  await memOk(['-C', ws, 'index']);
  assert.notDeepEqual(state(packsDir).get(packFile('project:blog')), packs1.get(packFile('project:blog')));
  assert.match((await memOk(['-C', ws, 'context', '--scope', 'project:blog'])).stdout, /under 900 words/);

  // A scope file of another generation than the meta names (emptied, as stale heads would be): not used.
  rmSync(packsDir, { recursive: true });
  const shop = join(headsDir, scopeFile('project:shop'));
  writeFileSync(shop, JSON.stringify({ ...JSON.parse(readFileSync(shop, 'utf8')), digest: 'forged', rows: [] }));
  assert.equal((await memOk(['-C', ws, 'context', '--scope', 'project:shop', '--json'])).stdout, expected[0]);
  // A hand edit since the refresh: read at once.
  appendFileSync(
    join(ws, 'memory', `${C}.md`),
    `\n${rule('RULE-20261103-one-author', 'One author', C, 'project:blog')}`,
  );
  assert.match((await memOk(['-C', ws, 'context', '--scope', 'project:blog'])).stdout, /One author/);
});
