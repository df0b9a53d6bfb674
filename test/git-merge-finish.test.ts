/**
 * Two real clones, each set up by `mem init --git`, create the same id; only one of them runs compound
 * and wraps up, so its MEMORY.md, weekly log and wrap-up cite the id and the other side never touches
 * them. git takes those files whole, without the merge driver; the post-merge hook (`mem merge-finish`)
 * renames their citations to the id the merge gave that side's entry, in either merge direction
 * (`git pull`, `git merge`). A clone without the hook is named by `mem status`; a rename recorded by a
 * merge that ended without the hook is not applied to the next one. Rebase and cherry-pick: not covered.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { test } from 'node:test';
import { mem, tempDir } from './helpers/cli.js';
import { git, GIT_ENV, gitOk as ok } from './helpers/git.js';

const ID = 'NOTE-20261120-deploy-window';
const DAY = 'memory/2026-11-20.md';
const CITING = ['MEMORY.md', 'memory/archive/weekly-2026-W47.md', 'second-brain/summaries/2026-11-20-wrapup.md'];
const read = (ws: string, file: string) => readFileSync(join(ws, file), 'utf8');

async function run(ws: string, now: string, ...args: string[]): Promise<string> {
  const r = await mem(['-C', ws, '--now', now, ...args], { env: GIT_ENV });
  assert.equal(r.code, 0, `mem ${args.join(' ')}: ${r.stderr}`);
  return r.stdout + r.stderr;
}

async function commit(ws: string, message: string): Promise<void> {
  await ok(ws, 'add', '-A');
  await ok(ws, 'commit', '-q', '-m', message);
}

/**
 * Each machine's entry of the id, said at `at` (the earlier keeps the bare id). The workspace is the
 * folder mem/ of the repository, so git's paths and the workspace's differ; returns the workspaces.
 */
async function clones(root: string) {
  const [origin, a, b] = [join(root, 'origin.git'), join(root, 'laptop'), join(root, 'server')];
  const [laptop, server] = [join(a, 'mem'), join(b, 'mem')];
  await ok(root, 'init', '-q', '--bare', '-b', 'main', origin);
  await ok(root, 'init', '-q', '-b', 'main', a);
  assert.equal((await mem(['init', laptop, '--git'], { env: GIT_ENV })).code, 0);
  await commit(laptop, 'base');
  await ok(laptop, 'remote', 'add', 'origin', origin);
  await ok(laptop, 'push', '-q', '-u', 'origin', 'main');
  await ok(root, 'clone', '-q', origin, b);
  const init = await mem(['init', server, '--git'], { env: GIT_ENV });
  assert.match(init.stdout, /post-merge hook installed: .*\/server\/\.git\/hooks\/post-merge runs "mem merge-finish"/);
  for (const [ws, at, text] of [
    [laptop, '09:00', 'The deploy window is Tuesday at ten'],
    [server, '10:00', 'The deploy window moved to Thursday at two'],
  ] as const) {
    await run(ws, `2026-11-20T${at}:00Z`, 'remember', '--title', 'Deploy window', text);
    // When it was said, as microsync records it: the laptop's entry is earlier and keeps the bare id.
    writeFileSync(join(ws, DAY), read(ws, DAY).replace(/^- date: .*$/m, `$&\n- timestamp: 2026-11-20T${at}:00Z`));
  }
  await run(laptop, '2026-11-20T11:00:00Z', 'remember', 'Releases are cut on Fridays');
  await run(server, '2026-11-20T23:00:00Z', 'wrapup', '--date', '2026-11-20');
  await run(server, '2026-11-23T04:00:00Z', 'compound');
  for (const f of CITING) assert.match(read(server, f), new RegExp(`${ID}(?!-2)`), `${f} cites the server's entry`);
  await commit(laptop, 'laptop');
  await ok(laptop, 'push', '-q');
  await commit(server, 'server');
  await ok(server, 'push', '-q', 'origin', 'HEAD:server');
  return { laptop, server };
}

const renamedId = (text: string) => new RegExp(`${ID}-2\\b`).test(text) && !new RegExp(`${ID}(?!-2)`).test(text);

test('the post-merge hook renames the citations of a renamed id in the files a merge took whole from the renamed side, in either direction', async (t) => {
  const { laptop, server } = await clones(tempDir(t));

  // The laptop merges the server's work: the server's entry becomes -2 and its citing files come in whole.
  const pulled = await git(laptop, 'pull', '--no-rebase', '--no-edit', 'origin', 'server');
  assert.equal(pulled.code, 0, pulled.out);
  assert.match(pulled.out, new RegExp(`their entry is now ${ID}-2`));
  for (const f of CITING) {
    assert.ok(
      renamedId(read(laptop, f)),
      `${f} on the laptop cites the server's entry by its new id\n${read(laptop, f)}`,
    );
    assert.match(
      pulled.out,
      new RegExp(`merge-finish: ${f}: ${ID} → ${ID}-2 .*; left for you to commit`),
      `one line for ${f}`,
    );
  }
  assert.match(read(laptop, DAY), new RegExp(`- id: ${ID}-2\\n[^#]*moved to Thursday`));
  // Left in the worktree for the user to commit; the record is used up: a second run is silent.
  const porcelain = async (ws: string) => (await ok(ws, 'status', '--porcelain')).split('\n').filter(Boolean).sort();
  assert.deepEqual(await porcelain(laptop), CITING.map((f) => ` M mem/${f}`).sort());
  const records = (ws: string) =>
    ok(ws, 'rev-parse', '--git-path', 'memfold-renames').then((p) => resolve(ws, p.trim()));
  assert.ok(!existsSync(await records(laptop)), 'the record is removed');
  const again = await mem(['-C', laptop, 'merge-finish'], { env: GIT_ENV });
  assert.deepEqual([again.code, again.stdout, again.stderr], [0, '', '']);

  // The server merges the laptop's work (git merge): its own entry is renamed and its own files, which the
  // laptop never touched, are renamed too; git.autoCommit commits them.
  const cfg = JSON.parse(read(server, 'mem.config.json'));
  writeFileSync(join(server, 'mem.config.json'), JSON.stringify({ ...cfg, git: { autoCommit: true } }, null, 2));
  await commit(server, 'auto-commit on');
  await ok(server, 'fetch', '-q', 'origin');
  const merged = await git(server, 'merge', '--no-edit', 'origin/main');
  assert.equal(merged.code, 0, merged.out);
  assert.match(merged.out, new RegExp(`our entry is now ${ID}-2`));
  for (const f of CITING) assert.ok(renamedId(read(server, f)), `${f} on the server\n${read(server, f)}`);
  assert.match(await ok(server, 'log', '-1', '--format=%s%n%b'), /^mem merge-finish: 3 files changed/);
  assert.deepEqual(await porcelain(server), []);

  // A clone without the hook is named by mem status, and mem init --git puts it back.
  rmSync(join(server, '..', '.git', 'hooks', 'post-merge'));
  assert.match(
    (await mem(['-C', server, 'status'], { env: GIT_ENV })).stdout,
    /post-merge hook does not run "mem merge-finish"/,
  );
  assert.match((await mem(['init', server, '--git'], { env: GIT_ENV })).stdout, /post-merge hook installed/);
  assert.doesNotMatch((await mem(['-C', server, 'status'], { env: GIT_ENV })).stdout, /post-merge/);

  // A rename recorded by an earlier merge that ended without the hook is named, not applied to another
  // merge; one of a merge that was aborted is dropped without a word.
  const file = await records(server);
  const [l, sv] = [await ok(server, 'rev-parse', 'origin/main'), await ok(server, 'rev-parse', 'origin/server')];
  const stale = { ours: sv.trim(), theirs: l.trim(), prefix: 'mem/', side: 'ours', from: ID, to: `${ID}-3` };
  const aborted = { ...stale, theirs: '2'.repeat(40), to: `${ID}-4` };
  writeFileSync(file, `${JSON.stringify(stale)}\n${JSON.stringify(aborted)}\n`);
  const late = await mem(['-C', server, 'merge-finish'], { env: GIT_ENV });
  assert.equal(late.code, 0, late.stderr);
  assert.doesNotMatch(late.stderr, /-4/);
  assert.match(
    late.stderr,
    new RegExp(`a rename recorded by an earlier merge that ended without this hook \\(${ID} → ${ID}-3\\) not applied`),
  );
  assert.deepEqual(await porcelain(server), []);
  assert.ok(!existsSync(file));
});
