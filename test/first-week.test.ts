/**
 * A first week, scripted as a new user lives it (issue 31, "Must show"): a fresh HOME with Claude Code
 * and Codex transcript folders → `mem init ~/memory --detect --write` → the first `mem microsync`
 * says what its 24-hour window left out and how to back-fill → `--since all` → `mem context` from the
 * project's folder holds the project's memory → the next morning's wrap-up → an idle day's wrap-up
 * writes nothing → the weekly compound. Every line each command prints on stdout is read here.
 */
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { mem, ROOT, tempDir } from './helpers/cli.js';

const lines = (text: string) => text.split('\n').filter((l) => l !== '');

/** Every line of `out` matches the pattern at its place, and there are exactly as many. */
function allLines(out: string, patterns: RegExp[], what: string): RegExpMatchArray[] {
  const got = lines(out);
  assert.equal(got.length, patterns.length, `${what} printed:\n${out}`);
  return got.map((l, i) => {
    const m = patterns[i]!.exec(l);
    assert.ok(m, `${what}, line ${i + 1}: ${l}\n  expected ${patterns[i]}`);
    return m;
  });
}

test('a first week: init --detect --write, the back-fill hint, --since all, the pack from the project folder, wrap-ups, compound', async (t) => {
  const root = tempDir(t);
  const home = join(root, 'home');
  cpSync(join(ROOT, 'fixtures', 'transcripts', 'claude-code'), join(home, '.claude', 'projects'), { recursive: true });
  cpSync(join(ROOT, 'fixtures', 'transcripts', 'codex'), join(home, '.codex', 'sessions'), { recursive: true });
  // The folder the Claude Code session ran in (/home/dev/ledgerline) is named after the project.
  const project = join(home, 'ledgerline');
  mkdirSync(project);
  const env = { HOME: home, XDG_CONFIG_HOME: undefined, MEM_SEARCH_SERVER: 'off' };
  const run = async (args: string[], now?: string) => {
    const r = await mem([...(now ? ['--now', now] : []), ...args], { env, cwd: project });
    assert.equal(r.code, 0, `mem ${args.join(' ')}: ${r.stderr}`);
    return r.stdout;
  };

  // Day 1 evening: set up. Nothing to paste by hand; the next command is printed.
  allLines(
    await run(['init', join(home, 'memory'), '--detect', '--write']),
    [
      /^created .*\/memory: mem\.config\.json, MEMORY\.md, /,
      /^transcript folders found: claude \(claude-code, ~\/\.claude\/projects\), codex \(codex, ~\/\.codex\/sessions\)$/,
      /^~\/memory\/mem\.local\.json: added claude .*, codex /,
      /^~\/\.config\/memfold\/config\.json: defaultWorkspace is now ~\/memory, so mem context and mem search work from any folder$/,
      /^next: mem microsync --since all {3}# back-fill/,
    ],
    'init',
  );

  // The first scheduled run reads the last 24 hours and says what it left out: counts add up with the back-fill's.
  const DAY2 = '2026-11-21T12:00:00Z';
  const [first, hint] = allLines(
    await run(['microsync'], DAY2),
    [
      /^microsync: 2 sessions read \(3 files\), (\d+) turns, (\d+) entries added, 0 skipped as duplicates, \d+ malformed lines skipped$/,
      /^not read: (\d+) turns dated before the window \(the first run reads the last 24 hours\); "mem microsync --since all" reads them \(ids keep it idempotent\)$/,
    ],
    'first microsync',
  );
  const [all] = allLines(
    await run(['microsync', '--since', 'all'], DAY2),
    [
      /^microsync: 3 sessions read \(3 files\), (\d+) turns, (\d+) entries added, (\d+) skipped as duplicates, \d+ malformed lines skipped$/,
    ],
    'back-fill',
  );
  assert.equal(Number(first![1]) + Number(hint![1]), Number(all![1]), 'turns read + turns left out = every turn');
  assert.equal(Number(all![3]), Number(first![2]), 'the back-fill skips exactly what the first run added');
  const daily = readdirSync(join(home, 'memory', 'memory')).filter((f) => /^\d{4}-\d{2}-\d{2}\.md$/.test(f));
  const written = daily.flatMap(
    (f) => readFileSync(join(home, 'memory', 'memory', f), 'utf8').match(/^- id: /gm) ?? [],
  );
  assert.equal(written.length, Number(first![2]) + Number(all![2]), 'every entry added is in a daily file, once');

  // A session starting in the project folder, no -C: the pack holds the project's memory, each item cited.
  const pack = await run(['context'], DAY2);
  assert.match(pack, /^## Memories for project:ledgerline$/m);
  assert.match(pack, /^### Rule: Every migration needs a rollback script$/m);
  const cited = [...pack.matchAll(/^\(([A-Z]+-\d{8}-[^ ]+) · (memory\/[\d-]+\.md):(\d+)-(\d+)\)$/gm)];
  assert.ok(cited.length >= 3, pack);
  for (const [, id, file, from, to] of cited) {
    const block = readFileSync(join(home, 'memory', file!), 'utf8')
      .split('\n')
      .slice(Number(from) - 1, Number(to));
    assert.ok(block.includes(`- id: ${id}`), `${id} is at ${file}:${from}-${to}`);
  }
  assert.doesNotMatch(pack, /pnpm workspaces/, "the Codex session, in no project folder, is not this project's");

  // Day 3, 03:00: the wrap-up of day 2, one section per session.
  allLines(
    await run(['wrapup'], '2026-11-22T03:00:00Z'),
    [
      /^wrapup 2026-11-21: wrote second-brain\/summaries\/2026-11-21-wrapup\.md \(1 session; 1 decision, 0 action items, 1 conversation, 0 technical notes, 0 open loops, 0 next steps\)$/,
    ],
    'wrapup',
  );
  const summary = readFileSync(join(home, 'memory', 'second-brain', 'summaries', '2026-11-21-wrapup.md'), 'utf8');
  assert.match(
    summary,
    /^### \d\d:\d\d \S+ 6f1c2d3e-4a5b-4c6d-8e7f-901a2b3c4d5e\n- Goal: .*pnpm.* · messages \d+-\d+$/m,
  );
  assert.match(summary, /^- Outcome: All three packages build with pnpm\..* · messages \d+-\d+$/m);

  // An idle day writes nothing.
  allLines(
    await run(['wrapup'], '2026-11-23T03:00:00Z'),
    [/^wrapup 2026-11-22: nothing to summarise, no entries and no sessions but bots'.*; wrote nothing$/],
    'idle wrapup',
  );
  assert.ok(!existsSync(join(home, 'memory', 'second-brain', 'summaries', '2026-11-22-wrapup.md')));

  // Monday: compound promotes the week into MEMORY.md, citing the one wrap-up there is.
  allLines(
    await run(['compound'], '2026-11-23T04:00:00Z'),
    [
      /^compound 2026-W47: wrote \d+ files; \d+ items in \d+ lines, (\d+) promoted, 0 demoted, 0 superseded, 0 suspected conflicts$/,
    ],
    'compound',
  );
  const memory = readFileSync(join(home, 'memory', 'MEMORY.md'), 'utf8');
  assert.match(memory, /\[RULE-20261120-every-migration-needs-a-rollback-script\]\(memory\/2026-11-20\.md/);
  assert.match(memory, /^- Daily wrap-ups: `second-brain\/summaries\/2026-11-21-wrapup\.md`\.$/m);
  // The next session start carries compound's core rules.
  assert.match(await run(['context'], '2026-11-23T09:00:00Z'), /^## Core \(holds in every session\)$/m);
});
