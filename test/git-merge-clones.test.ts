/**
 * Two real clones of one workspace (a laptop and a server) run the real jobs on the same day and merge
 * each other with `git pull`/`git merge`, through the driver `mem init --git` sets up (docs/operations.md
 * "Many machines, one memory"): a hand edit against a status flip, two wrap-ups and two compound runs
 * of one day, and a criss-cross merge of an id both machines created. Each ends with 0 conflicted
 * files, nothing lost, nothing twice, and every id meaning one entry on both machines.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test, type TestContext } from 'node:test';
import { editConfig, mem, tempDir } from './helpers/cli.js';
import { git, GIT_ENV, gitOk } from './helpers/git.js';

const ok = gitOk;

async function run(ws: string, now: string, ...args: string[]): Promise<string> {
  const r = await mem(['-C', ws, '--now', now, ...args], { env: GIT_ENV });
  assert.equal(r.code, 0, `mem ${args.join(' ')}: ${r.stderr}`);
  return r.stdout + r.stderr;
}

/** A laptop and a server clone of one workspace, each set up by `mem init --git`, with `base` committed. */
async function clones(
  t: TestContext,
  base: (ws: string) => Promise<void> = async () => {},
): Promise<{ laptop: string; server: string }> {
  const root = tempDir(t);
  const [origin, laptop, server] = [join(root, 'origin.git'), join(root, 'laptop'), join(root, 'server')];
  await ok(root, 'init', '-q', '--bare', '-b', 'main', origin);
  assert.equal((await mem(['init', laptop, '--git'], { env: GIT_ENV })).code, 0);
  await ok(laptop, 'checkout', '-q', '-b', 'main');
  await base(laptop);
  await commit(laptop, 'base');
  await ok(laptop, 'remote', 'add', 'origin', origin);
  await ok(laptop, 'push', '-q', '-u', 'origin', 'main');
  await ok(root, 'clone', '-q', origin, server);
  assert.equal((await mem(['init', server, '--git'], { env: GIT_ENV })).code, 0);
  return { laptop, server };
}

async function commit(ws: string, message: string): Promise<void> {
  await ok(ws, 'add', '-A');
  await ok(ws, 'commit', '-q', '-m', message);
}

/** Merges `ref` into `ws`: exit 0, no conflicted file, no conflict marker in any memory file. */
async function merge(ws: string, ...args: string[]): Promise<string> {
  const r = await git(ws, ...args);
  assert.equal(r.code, 0, r.out);
  assert.equal(await ok(ws, 'diff', '--name-only', '--diff-filter=U'), '', 'no conflicted file');
  const grep = await git(ws, 'grep', '-n', '-E', '^(<<<<<<<|>>>>>>>)( |$)');
  assert.equal(grep.code, 1, grep.out);
  return r.out;
}

const read = (ws: string, file: string) => readFileSync(join(ws, file), 'utf8');
const ids = (text: string) => [...text.matchAll(/^- id: (\S+)$/gm)].map((m) => m[1]!);
const entry = (text: string, id: string) =>
  new RegExp(`^## .*\\n- id: ${id}\\n(?:(?!## ).*\\n)*`, 'm').exec(text)?.[0] ?? '';
const DAY = 'memory/2026-11-20.md';

describe('two clones merging after both ran the jobs', () => {
  test('a typo fixed on one machine and a status flipped on the other both stay, the same in either merge order; a field both changed keeps ours and records theirs for mem lint', async (t) => {
    const { laptop, server } = await clones(t, async (ws) => {
      await run(
        ws,
        '2026-11-20T10:00:00Z',
        'remember',
        '--title',
        'Deploy windwo',
        'The deploy windwo is Tuesday morning',
      );
      await run(ws, '2026-11-20T10:05:00Z', 'remember', '--title', 'Release day', 'Releases are cut on Fridays');
    });
    const [deploy, release] = ids(read(laptop, DAY));
    writeFileSync(
      join(laptop, DAY),
      read(laptop, DAY)
        .replace('## Note: Deploy windwo', '## Note: Deploy window')
        .replace('deploy windwo is', 'deploy window is')
        .replace('on Fridays', 'on Thursdays'),
    );
    await commit(laptop, 'laptop: typo fixed, release day moved');
    await ok(laptop, 'push', '-q');
    await run(server, '2026-11-20T11:00:00Z', 'forget', deploy!);
    writeFileSync(join(server, DAY), read(server, DAY).replace('on Fridays', 'on Mondays'));
    await commit(server, 'server: forgot the deploy window, release day moved');
    await ok(server, 'push', '-q', 'origin', 'HEAD:server');

    await merge(server, 'pull', '-q', '--no-rebase', '--no-edit', 'origin', 'main');
    const out = await merge(laptop, 'pull', '--no-rebase', '--no-edit', 'origin', 'server');
    const [onLaptop, onServer] = [read(laptop, DAY), read(server, DAY)];
    for (const text of [onLaptop, onServer]) assert.deepEqual(ids(text), [deploy, release], 'every entry once');
    assert.equal(entry(onLaptop, deploy!), entry(onServer, deploy!), 'either merge order gives the same entry');
    assert.match(
      entry(onLaptop, deploy!),
      /^## Note: Deploy window\n(?:.*\n)*- conclusion: The deploy window is Tuesday morning\n(?:.*\n)*- status: retracted\n/,
    );
    assert.doesNotMatch(entry(onLaptop, deploy!), /merge_conflict/);
    assert.match(
      entry(onLaptop, release!),
      /- conclusion: Releases are cut on Thursdays\n(?:.*\n)*- merge_conflict:\n {2}- conclusion: Releases are cut on Mondays\n/,
      'ours kept, theirs recorded',
    );
    assert.match(
      entry(onServer, release!),
      /- conclusion: Releases are cut on Mondays\n(?:.*\n)*- merge_conflict:\n {2}- conclusion: Releases are cut on Thursdays\n/,
    );
    assert.match(
      out,
      new RegExp(`warning: merge-driver: ${DAY}: both sides changed conclusion of ${release} differently`),
    );
    const lint = await mem(['-C', laptop, 'lint']);
    assert.match(
      lint.stdout + lint.stderr,
      new RegExp(`${release}[^\\n]*merge_conflict|merge_conflict[^\\n]*${release}`),
    );
  });

  test('both machines wrap up the same day and run compound: MEMORY.md, the wrap-up and the weekly log merge with nothing lost or twice; mem status warns about an older .gitattributes', async (t) => {
    const { laptop, server } = await clones(t);
    const said = {
      laptop: ['Deploys need a green staging run', 'The laptop keeps the release notes'],
      server: ['Backups run nightly at two', 'The server rotates the logs weekly'],
    };
    for (const [ws, name, at] of [
      [laptop, 'laptop', '04:00'],
      [server, 'server', '04:07'],
    ] as const) {
      for (const [i, text] of said[name].entries()) await run(ws, `2026-11-20T1${i}:00:00Z`, 'remember', text);
      await run(ws, '2026-11-20T23:00:00Z', 'wrapup', '--date', '2026-11-20');
      await run(ws, `2026-11-23T${at}:00Z`, 'compound');
      await commit(ws, name);
    }
    const all = ids(read(laptop, DAY)).concat(ids(read(server, DAY)));
    assert.equal(all.length, 4);
    await ok(laptop, 'push', '-q');
    await merge(server, 'pull', '--no-rebase', '--no-edit');
    assert.deepEqual(ids(read(server, DAY)).sort(), [...all].sort(), 'every entry once, ids unchanged');
    const memory = read(server, 'MEMORY.md');
    for (const id of all) assert.equal(memory.split(`[${id}]`).length - 1, 1, `MEMORY.md cites ${id} once`);
    assert.equal(memory.match(/^## Notes$/gm)?.length, 1, memory);
    const wrapup = read(server, 'second-brain/summaries/2026-11-20-wrapup.md');
    for (const text of [...said.laptop, ...said.server])
      assert.equal(wrapup.split(text).length - 1, 1, `the wrap-up holds "${text}" once`);
    assert.equal(wrapup.match(/^## Technical notes \/ debugging lessons$/gm)?.length, 1, wrapup);
    assert.equal(wrapup.match(/^---$/gm)?.length, 2, 'one front matter');
    const log = read(server, 'memory/archive/weekly-2026-W47.md');
    assert.equal(log.match(/^# Weekly log/gm)?.length, 1, log);
    assert.deepEqual(log.match(/^## Run .*$/gm), ['## Run 2026-11-23T04:07:00Z', '## Run 2026-11-23T04:00:00Z']);
    for (const id of all)
      assert.equal(log.split(`promoted: ${id} `).length - 1, 1, `the log names the promotion of ${id} once`);
    assert.equal((await mem(['-C', server, 'lint'])).code, 0);

    writeFileSync(join(laptop, '.gitattributes'), 'memory/**/*.md merge=memfold\n');
    const old = await mem(['-C', laptop, 'status']);
    assert.match(
      old.stdout,
      /\.gitattributes lacks memfold's merge rules "\/MEMORY\.md merge=memfold", "second-brain\/summaries\/\*\.md merge=memfold", "memory\/\.forgotten merge=union" \(an older "mem init --git"\)[^\n]*run "mem init \S+ --git" on this clone/,
    );
    assert.equal((await mem(['init', laptop, '--git'], { env: GIT_ENV })).code, 0);
    assert.doesNotMatch((await mem(['-C', laptop, 'status'])).stdout, /merge rule/);
  });

  test('a criss-cross merge of an id both machines created gives it to the same entry on both; the other entry and its citations in MEMORY.md and the weekly log move to -2 together', async (t) => {
    const { laptop, server } = await clones(t);
    const said = {
      laptop: 'The deploy window is Tuesday at ten',
      server: 'The deploy window moved to Thursday at two',
    };
    for (const [ws, name, at] of [
      [laptop, 'laptop', '04:00'],
      [server, 'server', '04:07'],
    ] as const) {
      await run(ws, '2026-11-20T10:00:00Z', 'remember', '--title', 'Deploy window', said[name]);
      await run(ws, `2026-11-23T${at}:00Z`, 'compound');
      await commit(ws, name);
      await ok(ws, 'push', '-q', 'origin', `HEAD:${name}`);
    }
    const id = 'NOTE-20261120-deploy-window';
    assert.deepEqual([ids(read(laptop, DAY)), ids(read(server, DAY))], [[id], [id]]);
    // Each machine merges the other's commit, then each other's merge: a criss-cross.
    for (const [ws, other] of [
      [laptop, 'server'],
      [server, 'laptop'],
    ] as const) {
      await ok(ws, 'fetch', '-q', 'origin');
      assert.match(
        await merge(ws, 'merge', '--no-edit', `origin/${other}`),
        new RegExp(`warning: merge-driver: ${DAY}: both sides created ${id}; (our|their) entry is now ${id}-2`),
      );
    }
    const first = [read(laptop, DAY), read(server, DAY)];
    for (const [ws, name] of [
      [laptop, 'laptop'],
      [server, 'server'],
    ] as const)
      await ok(ws, 'push', '-q', 'origin', `HEAD:${name}`);
    for (const [ws, other] of [
      [laptop, 'server'],
      [server, 'laptop'],
    ] as const) {
      await ok(ws, 'fetch', '-q', 'origin');
      await merge(ws, 'merge', '--no-edit', `origin/${other}`);
    }
    const conclusion = (text: string, which: string) => /- conclusion: (.*)/.exec(entry(text, which))?.[1];
    const keeper = conclusion(first[0]!, id);
    const loser = keeper === said.laptop ? 'server' : 'laptop';
    for (const [i, text] of [...first, read(laptop, DAY), read(server, DAY)].entries()) {
      assert.deepEqual(ids(text).sort(), [id, `${id}-2`], 'both entries, once each');
      assert.equal(
        conclusion(text, id),
        keeper,
        `the bare id means one entry on both machines, before and after the criss-cross (${i})\n${text}`,
      );
      assert.equal(conclusion(text, `${id}-2`), said[loser]);
    }
    for (const ws of [laptop, server]) {
      const memory = read(ws, 'MEMORY.md');
      const cited = (text: string) => new RegExp(`^- .*${text}.* \\(\\[([^\\]]+)\\]`, 'm').exec(memory)?.[1];
      assert.equal(cited(keeper!), id, memory);
      assert.equal(cited(said[loser]), `${id}-2`, 'the item of the renamed entry cites its new id');
      const log = read(ws, 'memory/archive/weekly-2026-W47.md');
      const run = (at: string) => log.split(`## Run 2026-11-23T${at}:00Z`)[1]!.split('## Run')[0]!;
      const [keptRun, lostRun] = loser === 'laptop' ? [run('04:07'), run('04:00')] : [run('04:00'), run('04:07')];
      assert.match(
        lostRun,
        new RegExp(`promoted: ${id}-2 \\(`),
        `the renamed entry's machine logged it under its new id\n${log}`,
      );
      assert.doesNotMatch(lostRun, new RegExp(`promoted: ${id} \\(`));
      assert.match(keptRun, new RegExp(`promoted: ${id} \\(`));
    }
  });

  test('an id both machines learned from transcripts goes to the entry said first, whichever machine merges: microsync records when it was said', async (t) => {
    const { laptop, server } = await clones(t, async (ws) => {
      editConfig(ws, (cfg) => {
        cfg.timezone = 'UTC';
        cfg.sources = [{ name: 'tr', kind: 'markdown', path: '../tr' }];
      });
    });
    const tr = join(laptop, '..', 'tr');
    // The same rule with different endings: one title, so one id. The server said it first; the
    // laptop's text has the smaller hash, so without the times the laptop's entry would keep the id.
    const said = { laptop: ['15:00', 'the staging database'], server: ['09:00', 'a copy of production'] } as const;
    for (const [ws, name] of [
      [laptop, 'laptop'],
      [server, 'server'],
    ] as const) {
      rmSync(tr, { recursive: true, force: true });
      mkdirSync(tr);
      const [at, what] = said[name];
      const file = join(tr, `${name}.md`);
      writeFileSync(
        file,
        `---\nsession_id: ${name}-1\n---\n\n## user · 2026-11-20T${at}:00Z\n\nFrom now on, every migration needs a rollback script and a dry run against ${what}.\n`,
      );
      utimesSync(file, new Date(`2026-11-20T${at}:30Z`), new Date(`2026-11-20T${at}:30Z`));
      // HOME above the transcripts: the entry says ~/tr/<name>.md, so its text (and hash) is the same every run.
      const sync = await mem(['-C', ws, '--now', '2026-11-20T23:00:00Z', 'microsync'], {
        env: { ...GIT_ENV, HOME: join(tr, '..') },
      });
      assert.equal(sync.code, 0, sync.stderr);
      assert.match(read(ws, DAY), new RegExp(`^ {2}- timestamp: 2026-11-20T${at}:00Z$`, 'm'), 'the source says when');
      await commit(ws, name);
      await ok(ws, 'push', '-q', 'origin', `HEAD:${name}`);
    }
    const [id] = ids(read(laptop, DAY));
    assert.deepEqual([ids(read(laptop, DAY)), ids(read(server, DAY))], [[id], [id]]);
    for (const [ws, other] of [
      [laptop, 'server'],
      [server, 'laptop'],
    ] as const) {
      await ok(ws, 'fetch', '-q', 'origin');
      const out = await merge(ws, 'merge', '--no-edit', `origin/${other}`);
      assert.match(
        out,
        new RegExp(`both sides created ${id}; ${ws === laptop ? 'our' : 'their'} entry is now ${id}-2`),
      );
      const text = read(ws, DAY);
      assert.deepEqual(ids(text).sort(), [id, `${id}-2`]);
      assert.match(
        entry(text, id!),
        new RegExp(`- conclusion: .*${said.server[1]}\\.?\n`),
        `the earlier entry keeps the bare id when ${ws === laptop ? 'the laptop' : 'the server'} merges\n${text}`,
      );
      assert.match(entry(text, `${id}-2`), new RegExp(`- conclusion: .*${said.laptop[1]}\\.?\n`));
    }
  });
});
