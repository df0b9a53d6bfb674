/**
 * `mem init --detect [--write]` on a fresh HOME holding Claude Code and Codex transcript folders:
 * nothing is written without the user's say-so (no --write on a pipe, "n" at the terminal prompt);
 * --write puts the folders found in mem.local.json and the workspace in the user-level
 * defaultWorkspace, so microsync and context work from a project folder; a re-run changes nothing; a
 * different defaultWorkspace already set (in $XDG_CONFIG_HOME) is kept and said so.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { BIN, childEnv, finished, mem, ROOT, tempDir } from './helpers/cli.js';
import { planLocalSources } from '../src/workspace/setup-plan.js';

const SOURCES = [
  { name: 'claude', kind: 'claude-code', path: '~/.claude/projects' },
  { name: 'codex', kind: 'codex', path: '~/.codex/sessions' },
];

function freshHome(root: string): string {
  const home = join(root, 'home');
  cpSync(join(ROOT, 'fixtures', 'transcripts', 'claude-code'), join(home, '.claude', 'projects'), { recursive: true });
  cpSync(join(ROOT, 'fixtures', 'transcripts', 'codex'), join(home, '.codex', 'sessions'), { recursive: true });
  // The folder the Claude Code fixture ran in (/home/dev/ledgerline) has the name that gives its scope.
  mkdirSync(join(home, 'ledgerline'));
  return home;
}

const readJson = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;

test('init --detect --write: sources to mem.local.json once, defaultWorkspace set, then microsync and context from a project folder', async (t) => {
  const root = tempDir(t);
  const home = freshHome(root);
  // XDG_CONFIG_HOME unset: the user-level file is ~/.config/memfold/config.json under the fresh HOME.
  const env = { HOME: home, XDG_CONFIG_HOME: undefined };
  const ws = join(home, 'memory');
  const userFile = join(home, '.config', 'memfold', 'config.json');

  const asked = await mem(['init', ws, '--detect'], { env, cwd: root });
  assert.equal(asked.code, 0, asked.stderr);
  assert.match(
    asked.stdout,
    /^transcript folders found: claude \(claude-code, ~\/\.claude\/projects\), codex \(codex, ~\/\.codex\/sessions\)$/m,
  );
  assert.match(
    asked.stdout,
    /^nothing written \(no --write\); to\n {2}add claude .* to ~\/memory\/mem\.local\.json\n {2}set defaultWorkspace to ~\/memory in ~\/\.config\/memfold\/config\.json\nrun: mem init ~\/memory --detect --write$/m,
  );
  assert.ok(!existsSync(join(ws, 'mem.local.json')) && !existsSync(userFile), 'nothing written without --write');

  const wrote = await mem(['init', ws, '--detect', '--write'], { env, cwd: root });
  assert.equal(wrote.code, 0, wrote.stderr);
  assert.deepEqual(readJson(join(ws, 'mem.local.json')), { sources: SOURCES });
  assert.deepEqual(readJson(join(ws, 'mem.config.json')).sources, [], 'the committed config keeps no machine paths');
  assert.deepEqual(readJson(userFile), { defaultWorkspace: '~/memory' });
  assert.match(
    wrote.stdout,
    /^~\/memory\/mem\.local\.json: added claude \(claude-code, ~\/\.claude\/projects\), codex \(codex, ~\/\.codex\/sessions\)$/m,
  );
  assert.match(
    wrote.stdout,
    /^~\/\.config\/memfold\/config\.json: defaultWorkspace is now ~\/memory, so mem context and mem search work from any folder$/m,
  );
  assert.match(wrote.stdout, /^next: mem microsync --since all {3}# back-fill/m);

  const local = readFileSync(join(ws, 'mem.local.json'), 'utf8');
  const again = await mem(['--json', 'init', ws, '--write'], { env, cwd: root });
  assert.equal(again.code, 0, again.stderr);
  const setup = (JSON.parse(again.stdout) as { setup: Record<string, unknown> }).setup;
  assert.deepEqual(
    [setup.written, setup.sources, setup.alreadyRead, setup.defaultWorkspace, setup.next],
    [false, [], SOURCES, 'same', 'mem microsync --since all'],
  );
  assert.equal(readFileSync(join(ws, 'mem.local.json'), 'utf8'), local, 'a re-run adds no source twice');

  // From a project folder, with no -C and no MEM_WORKSPACE: the user-level defaultWorkspace finds the memory.
  const project = join(home, 'ledgerline');
  const sync = await mem(['--json', 'microsync', '--since', 'all'], { env, cwd: project });
  assert.equal(sync.code, 0, sync.stderr);
  const synced = JSON.parse(sync.stdout) as { sources: number; sessions: number; added: unknown[] };
  assert.deepEqual([synced.sources, synced.sessions], [2, 3], 'both detected folders are read');
  assert.ok(synced.added.length > 0);
  const context = await mem(['context'], { env, cwd: project });
  assert.equal(context.code, 0, context.stderr);
  assert.match(context.stdout, /^## Memories for project:ledgerline$/m);
  assert.match(context.stdout, /RULE-20261120-every-migration-needs-a-rollback-script/);

  // Another workspace while $XDG_CONFIG_HOME names a different default: that default is kept, said so.
  const xdg = join(root, 'xdg');
  mkdirSync(join(xdg, 'memfold'), { recursive: true });
  const theirs = '{ "defaultWorkspace": "/srv/team-memory", "search": { "k": 8 } }\n';
  writeFileSync(join(xdg, 'memfold', 'config.json'), theirs);
  const second = join(root, 'second ws');
  const kept = await mem(['init', second, '--write'], { env: { ...env, XDG_CONFIG_HOME: xdg }, cwd: root });
  assert.equal(kept.code, 0, kept.stderr);
  assert.equal(readFileSync(join(xdg, 'memfold', 'config.json'), 'utf8'), theirs);
  assert.deepEqual(
    readJson(userFile),
    { defaultWorkspace: '~/memory' },
    'the file XDG_CONFIG_HOME does not point at is left alone',
  );
  assert.match(
    kept.stderr,
    /^warning: defaultWorkspace stays \/srv\/team-memory \(.*xdg\/memfold\/config\.json\); to make .*second ws the default, change "defaultWorkspace" in that file, or use -C \/ MEM_WORKSPACE$/m,
  );
  assert.deepEqual(readJson(join(second, 'mem.local.json')), { sources: SOURCES });
  assert.match(kept.stdout, /^next: mem -C '.*\/second ws' microsync --since all /m);
});

test(
  'on a terminal, init --detect asks first: "n" writes nothing, "y" writes the setup',
  { skip: spawnSync('script', ['--version']).status !== 0 && 'no script(1) to run mem on a terminal' },
  async (t) => {
    const root = tempDir(t);
    const home = freshHome(root);
    const env = childEnv({ HOME: home, XDG_CONFIG_HOME: join(root, 'xdg') });
    const ws = join(root, 'ws');
    const userFile = join(root, 'xdg', 'memfold', 'config.json');
    // script(1) runs mem on a pseudo-terminal (stdin and stdout are TTYs) and passes our answer to it.
    const answer = async (text: string) => {
      const child = spawn('script', ['-qec', `"${process.execPath}" "${BIN}" init "${ws}" --detect`, '/dev/null'], {
        cwd: root,
        env,
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      child.stdin.end(text);
      const r = await finished(child);
      assert.equal(r.code, 0, r.stdout + r.stderr);
      assert.match(
        r.stdout,
        /write this setup\?\r?\n {2}add claude .*mem\.local\.json\r?\n {2}set defaultWorkspace to .*config\.json\r?\n\[y\/N\] /,
      );
      return r.stdout;
    };
    const no = await answer('n\n');
    assert.match(no, /^nothing written; to\r?$/m);
    assert.ok(!existsSync(join(ws, 'mem.local.json')) && !existsSync(userFile), 'a "n" writes nothing');
    const yes = await answer('y\n');
    assert.match(yes, /mem\.local\.json: added claude/);
    assert.deepEqual(readJson(join(ws, 'mem.local.json')), { sources: SOURCES });
    assert.deepEqual(readJson(userFile), { defaultWorkspace: ws });
  },
);

test('the sources plan: committed sources are copied into a mem.local.json without its own, names never clash, a folder is never read twice', () => {
  const ws = '/w';
  const committed = [
    { name: 'claude', kind: 'jsonl', path: '/data/exports' },
    { name: 'cc', kind: 'claude-code', path: '~/.claude/projects/' },
  ];
  const p = planLocalSources(ws, undefined, committed, SOURCES);
  assert.deepEqual(p.present, [SOURCES[0]], 'the same kind and folder (a trailing / aside) is already read');
  assert.deepEqual(p.added, [SOURCES[1]]);
  assert.equal(p.copied, 2);
  assert.deepEqual(
    JSON.parse(p.text!).sources,
    [...committed, SOURCES[1]],
    "mem.local.json's list replaces the committed one, so that one is kept in it",
  );
  const own = planLocalSources(
    ws,
    '{"llm": {"model": "m"}, "sources": [{"name": "claude", "kind": "jsonl", "path": "x"}]}',
    committed,
    SOURCES,
  );
  assert.deepEqual(
    own.added.map((s) => s.name),
    ['claude-2', 'codex'],
  );
  assert.deepEqual(JSON.parse(own.text!).llm, { model: 'm' }, 'other keys of mem.local.json stay');
  assert.equal(
    planLocalSources(ws, own.text, committed, SOURCES).text,
    undefined,
    'planned again on its own result: nothing to add',
  );
  assert.throws(
    () => planLocalSources(ws, '{"sources": 3}', [], SOURCES),
    /mem\.local\.json: "sources" must be a list/,
  );
  const globbed = [
    { name: 'a', kind: 'codex', path: '~/.codex/**/*.jsonl' },
    { name: 'b', kind: 'claude-code', path: '~/.claude/projects-old' },
  ];
  assert.deepEqual(
    planLocalSources(ws, undefined, globbed, SOURCES).present,
    [SOURCES[1]],
    'a glob reading a folder above counts; a sibling folder with a longer name does not',
  );
});
