/**
 * What an npm user gets: `npm pack` of a copy of the project as `npm test` built it, the tarball
 * installed into a fresh prefix from the npm cache alone (`--offline`), and the README's first day
 * run from the installed `mem`. The tarball holds LICENSE, README, every docs/ page the README links,
 * no source maps (they point at src/, which is not shipped) and no src/. The prepack script empties
 * dist/ and runs the build `npm test` has just run on this checkout, so an unbuilt clone packs a
 * working CLI; the pack here skips it (--ignore-scripts) rather than build a second time.
 * Slow (an install of every dependency): one test, in its own file.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync, type SpawnOptions } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { childEnv, finished, ROOT, tempDir, type RunResult } from './helpers/cli.js';

const npmFound = spawnSync('npm', ['--version'], { encoding: 'utf8' }).status === 0;
const gitFound = spawnSync('git', ['-C', ROOT, 'rev-parse', '--git-dir'], { encoding: 'utf8' }).status === 0;

/** The environment of `npm test` without what npm sets for its own scripts (a child npm reads it as config). */
function npmEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env))
    if (!/^npm_(lifecycle|package|config_(prefix|global|offline|dry_run))/i.test(k)) env[k] = v;
  return env;
}

async function run(cmd: string, args: string[], opts: SpawnOptions, timeoutMs = 300_000): Promise<RunResult> {
  return finished(spawn(cmd, args, { ...opts, stdio: ['ignore', 'pipe', 'pipe'] }), timeoutMs);
}

/** The project as a clone has it (tracked and new files) with the dist/ `npm test` built, node_modules linked. */
function builtCopy(dest: string): void {
  const listed = spawnSync('git', ['-C', ROOT, 'ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    encoding: 'utf8',
  });
  assert.equal(listed.status, 0, listed.stderr);
  for (const rel of listed.stdout.split('\0').filter(Boolean)) {
    if (rel === 'node_modules' || rel.startsWith('dist/') || !existsSync(join(ROOT, rel))) continue;
    cpSync(join(ROOT, rel), join(dest, rel), { recursive: true });
  }
  cpSync(join(ROOT, 'dist'), join(dest, 'dist'), { recursive: true });
  symlinkSync(realpathSync(join(ROOT, 'node_modules')), join(dest, 'node_modules'), 'dir');
}

/**
 * A prefix whose lockfile pins every dependency as the project's package-lock.json does (resolved URL
 * and integrity): `npm ci` put exactly those tarballs in the cache. Without it npm asks the registry
 * for each package's full metadata to resolve the ranges, which the cache does not hold.
 */
function prefixWithLock(prefix: string, tarball: string): void {
  mkdirSync(prefix);
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    version: string;
    dependencies: Record<string, string>;
    engines: unknown;
  };
  const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { dev?: boolean }>;
  };
  const root = { name: 'memfold-user', dependencies: { memfold: `file:${tarball}` } };
  const packages: Record<string, unknown> = { '': root };
  packages['node_modules/memfold'] = {
    version: pkg.version,
    resolved: `file:${tarball}`,
    dependencies: pkg.dependencies,
    engines: pkg.engines,
    bin: { mem: 'bin/mem.cjs' },
  };
  for (const [key, entry] of Object.entries(lock.packages)) if (key && !entry.dev) packages[key] = entry;
  writeFileSync(join(prefix, 'package.json'), JSON.stringify(root, null, 2) + '\n');
  writeFileSync(
    join(prefix, 'package-lock.json'),
    JSON.stringify({ name: root.name, lockfileVersion: 3, requires: true, packages }, null, 2) + '\n',
  );
}

test(
  'npm pack installs offline into a fresh prefix and runs the first day',
  { skip: (!npmFound && 'npm not found') || (!gitFound && 'not a git checkout (the copy is made from git ls-files)') },
  async (t) => {
    const started = Date.now();
    const root = tempDir(t, 'memfold-pack-');
    const copy = join(root, 'project');
    builtCopy(copy);
    const env = npmEnv();

    const phase = (what: string, since: number) =>
      t.diagnostic(`${what}: ${((Date.now() - since) / 1000).toFixed(1)} s`);
    phase('copy', started);
    let at = Date.now();
    const scripts = (
      JSON.parse(readFileSync(join(copy, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
    ).scripts;
    assert.match(scripts.prepack ?? '', /rmSync\('dist'.*&& npm run build$/, 'packing empties dist/ and builds it');
    const packed = await run('npm', ['pack', '--ignore-scripts', '--pack-destination', root], { cwd: copy, env });
    assert.equal(packed.code, 0, `npm pack: ${packed.stderr.slice(-2000)}`);
    phase('npm pack', at);
    const name = packed.stdout.trim().split('\n').at(-1)!;
    const tarball = join(root, name);
    const listing = spawnSync('tar', ['-tzf', tarball], { encoding: 'utf8' });
    assert.equal(listing.status, 0, listing.stderr);
    const files = new Set(
      listing.stdout
        .split('\n')
        .filter(Boolean)
        .map((f) => f.replace(/^package\//, '')),
    );
    for (const f of [
      'LICENSE',
      'README.md',
      'package.json',
      'bin/mem.cjs',
      'dist/cli/entry.js',
      'dist/cli/cli.cjs',
      'dist/cli/help.txt',
      'MEMORY.md.example',
    ])
      assert.ok(files.has(f), `${f} is in the tarball`);
    assert.match(
      readFileSync(join(copy, 'LICENSE'), 'utf8'),
      /^MIT License\n\nCopyright \(c\) 2026 memfold contributors\n/,
    );
    const linked = [...readFileSync(join(copy, 'README.md'), 'utf8').matchAll(/\]\((docs\/[^)#\s]+)/g)].map(
      (m) => m[1]!,
    );
    assert.ok(linked.length >= 3, 'the README links its docs/ pages');
    for (const doc of linked) assert.ok(files.has(doc), `${doc}, linked from the README, is in the tarball`);
    const maps = [...files].filter((f) => f.endsWith('.map'));
    assert.deepEqual(maps, [], 'no source maps pointing at the unshipped src/');
    assert.deepEqual(
      [...files].filter((f) => f.startsWith('src/') || f.startsWith('test/')),
      [],
    );
    const meta = JSON.parse(readFileSync(join(copy, 'package.json'), 'utf8')) as {
      repository?: unknown;
      license?: string;
    };
    assert.equal(meta.license, 'MIT');
    assert.ok(meta.repository, 'package.json names a repository');

    const prefix = join(root, 'prefix');
    prefixWithLock(prefix, tarball);
    at = Date.now();
    const installed = await run(
      'npm',
      ['install', '--offline', '--no-audit', '--no-fund', '--prefix', prefix, tarball],
      { cwd: root, env },
    );
    if (installed.code !== 0 && /ENOTCACHED/.test(installed.stderr)) {
      t.skip(
        `the npm cache lacks a dependency (npm ci fills it): ${/request to (\S+)/.exec(installed.stderr)?.[1] ?? installed.stderr.slice(-300)}`,
      );
      return;
    }
    assert.equal(installed.code, 0, `npm install --offline: ${installed.stderr.slice(-2000)}`);
    phase('npm install --offline', at);
    at = Date.now();
    const bin = join(prefix, 'node_modules', '.bin', 'mem');
    assert.ok(!existsSync(join(prefix, 'node_modules', 'memfold', 'src')));

    // The README's first day, from the installed `mem`, in a fresh HOME holding Claude Code transcripts.
    const home = join(root, 'home');
    cpSync(join(ROOT, 'fixtures', 'transcripts', 'claude-code'), join(home, '.claude', 'projects'), {
      recursive: true,
    });
    const project = join(home, 'ledgerline');
    mkdirSync(project);
    const userEnv = childEnv({ HOME: home, XDG_CONFIG_HOME: undefined });
    const mem = (args: string[], cwd = root) => run(bin, args, { cwd, env: userEnv }, 60_000);
    const help = await mem(['--help']);
    assert.equal(help.code, 0, help.stderr);
    assert.match(help.stdout, /^Usage: mem /);
    const init = await mem(['init', join(home, 'memory'), '--detect', '--write']);
    assert.equal(init.code, 0, init.stderr);
    assert.match(init.stdout, /^next: mem microsync --since all /m);
    const sync = await mem(['--json', 'microsync', '--since', 'all'], project);
    assert.equal(sync.code, 0, sync.stderr);
    const added = (JSON.parse(sync.stdout) as { added: { id: string }[] }).added.map((a) => a.id);
    assert.ok(added.includes('RULE-20261120-every-migration-needs-a-rollback-script'), added.join(', '));
    const search = await mem(['search', 'rollback script'], project);
    assert.equal(search.code, 0, search.stderr);
    assert.match(search.stdout, /RULE-20261120-every-migration-needs-a-rollback-script/);
    const context = await mem(['context'], project);
    assert.equal(context.code, 0, context.stderr);
    assert.match(context.stdout, /^## Memories for project:ledgerline$/m);
    phase('first day (5 commands)', at);
    t.diagnostic(`pack, offline install and first day took ${((Date.now() - started) / 1000).toFixed(1)} s`);
  },
);
