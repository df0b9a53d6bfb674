#!/usr/bin/env node
// Part of `npm run build`, after tsc: bundles what bin/mem.cjs loads into
// CommonJS files (Node loads one CommonJS file far faster than the same code as ES modules):
//   dist/cli/first.cjs   src/cli/first.ts        is it a plain search; the resident server's answer
//   dist/cli/search.cjs  src/cli/lean-search.ts  a plain search answered cold
//   dist/cli/index.cjs   src/cli/lean-index.ts   a plain `mem index`
//   dist/cli/read.cjs    src/cli/lean-read.ts    a plain `mem get`, `mem trace` or `mem context`: which of
//                        read-get.cjs, read-context.cjs, read-all.cjs runs it (each its own bundle)
//   dist/cli/status.cjs  src/cli/lean-status.ts  a plain `mem status`
//   dist/cli/cli.cjs     src/cli/entry.ts        everything else (packages bundled too)
// Packages stay external (required from node_modules at run time), except in the index bundle
// proper-lockfile and its dependencies: every `mem index` takes the lock, and finding and reading
// their nine files from node_modules cost about 4 ms more than the same code bundled; and in the
// search bundle minisearch (the version package.json pins), which every cold search loads: 2-3 ms
// bundled, 4-5 ms from node_modules.
// In every bundle `import.meta.url` is the URL of dist/cli/entry.js, a real file two folders below the
// package root: createRequire resolves packages from it, and templates.ts and cli-bin.ts find the
// package's files two folders up. Files of dist/ run or read by path (the server's entry, the worker
// threads, the build stamp) are found from the package root (src/core/package-root.ts), whichever
// module of whichever bundle asks.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { build } from 'esbuild';

const common = {
  define: { 'import.meta.url': '__metaUrl' },
  banner: {
    js: "const __metaUrl = require('node:url').pathToFileURL(require('node:path').join(__dirname, 'entry.js')).href;",
  },
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  packages: 'external',
  logLevel: 'warning',
  // A dynamic import() in a CommonJS file sets up the ES-module loader (about 2 ms): esbuild makes each
  // a require (ES-module packages are required where they are used; Node ^20.19 and 22.12 can).
  supported: { 'dynamic-import': false },
};
// Packages are external except those named: bundled with their dependencies.
const externalExcept = (bundled) => ({
  name: 'external-except',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) =>
      bundled.includes(args.path.split('/')[0]) ? undefined : { external: true },
    );
  },
});
const lockfile = ['proper-lockfile', 'graceful-fs', 'retry', 'signal-exit'];
await build({ ...common, entryPoints: ['src/cli/first.ts'], outfile: 'dist/cli/first.cjs' });
await build({
  ...common,
  packages: undefined,
  plugins: [externalExcept(['minisearch'])],
  entryPoints: ['src/cli/lean-search.ts'],
  outfile: 'dist/cli/search.cjs',
});
// `import fs from 'node:fs'` becomes `__toESM(require("node:fs"), 1)` in every module that has it, each a
// copy of the builtin's properties (forty copies of node:fs cost 3-8 ms in a read): in the read and status
// bundles every import of a builtin goes through one module of the bundle's own that re-exports it, so
// each builtin is copied once.
const builtinOnce = {
  name: 'builtin-once',
  setup(b) {
    b.onResolve({ filter: /^node:/ }, (args) => {
      if (args.namespace === 'builtin') return { path: args.path, external: true };
      return args.kind === 'import-statement' ? { path: args.path, namespace: 'builtin' } : undefined;
    });
    b.onLoad({ filter: /.*/, namespace: 'builtin' }, (args) => ({
      contents: `export * from ${JSON.stringify(args.path)};\nexport { default } from ${JSON.stringify(args.path)};\n`,
      loader: 'js',
    }));
  },
};
// The context bundle without the search, the evidence and the hook (src/cli/lean-read-context.ts):
// lean-read.ts sends a command line needing them to read-all.cjs, so a stub stands where they are imported.
const withoutQuery = {
  name: 'context-without-query',
  setup(b) {
    b.onResolve({ filter: /^(\.\.\/search\/index|\.\/evidence|\.\/context-hook)\.js$/ }, (args) =>
      /(context[\\/]run|cli[\\/]read-commands)\.ts$/.test(args.importer)
        ? { path: args.path, namespace: 'stub' }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'stub' }, () => ({
      contents:
        "const no = () => { throw new Error('a context with --query, --hook or --evidence runs in read-all.cjs'); };\nexport { no as runSearch, no as evidenceFor, no as runContextHook };",
      loader: 'js',
    }));
  },
};
// node-cron is loaded when first used (a schedule to check or a next run to show), not with the bundle:
// a status of a workspace with nothing scheduled never needs it (5-10 ms).
const lazyCron = {
  name: 'lazy-node-cron',
  setup(b) {
    b.onResolve({ filter: /^node-cron$/ }, (args) =>
      args.namespace === 'lazy' ? { path: 'node-cron', external: true } : { path: 'node-cron', namespace: 'lazy' },
    );
    b.onLoad({ filter: /.*/, namespace: 'lazy' }, () => ({
      contents: "let m;\nexport default new Proxy({}, { get: (_, k) => (m ??= require('node-cron'))[k] });",
      loader: 'js',
    }));
  },
};
// What a plain `mem status` never runs, in bundles of their own loaded when needed: `--fix` (the wrap-up
// renderer, the extraction rules and the secret engine come with it) and the summary of a workspace
// whose stored one is stale (lint). Compiling them with every status was 200 of its 300 KB.
const statusParts = [
  ['src/status/fix.ts', 'dist/cli/status-fix.cjs', /^\.\.\/status\/fix\.js$/],
  ['src/entries/governance-refresh.ts', 'dist/cli/status-stale.cjs', /^\.\.\/entries\/governance-refresh\.js$/],
];
const statusApart = {
  name: 'status-apart',
  setup(b) {
    for (const [, outfile, filter] of statusParts)
      b.onResolve({ filter }, (args) =>
        args.kind === 'dynamic-import' ? { path: `./${outfile.split('/').pop()}`, external: true } : undefined,
      );
  },
};
const reads = [
  ['src/cli/lean-read.ts', 'dist/cli/read.cjs'],
  ['src/cli/lean-read-get.ts', 'dist/cli/read-get.cjs'],
  ['src/cli/lean-read-context.ts', 'dist/cli/read-context.cjs', [withoutQuery]],
  ['src/cli/lean-read-all.ts', 'dist/cli/read-all.cjs'],
  ['src/cli/lean-status.ts', 'dist/cli/status.cjs', [statusApart]],
  ...statusParts.map(([entry, outfile]) => [entry, outfile]),
];
for (const [entry, outfile, plugins] of reads) {
  await build({
    ...common,
    plugins: [lazyCron, builtinOnce, ...(plugins ?? [])],
    entryPoints: [entry],
    outfile,
  });
}
await build({
  ...common,
  packages: undefined,
  plugins: [externalExcept(lockfile)],
  entryPoints: ['src/cli/lean-index.ts'],
  outfile: 'dist/cli/index.cjs',
});
// The full CLI (src/cli/entry.ts, every other command line) with its packages: one CommonJS file
// instead of about 300 ES modules and the packages' own (remark's and zod's graphs are ES modules
// too). CPU per command, interleaved on a two-core machine: a small `mem microsync` 0.60 -> 0.41 s,
// `mem remember --help` 0.24 -> 0.19 s. The MCP SDK stays in node_modules (only `mem mcp`, a
// long-lived process, loads it); node-cron is loaded when first used.
await build({
  ...common,
  packages: undefined,
  external: ['@modelcontextprotocol/sdk'],
  plugins: [lazyCron],
  entryPoints: ['src/cli/entry.ts'],
  outfile: 'dist/cli/cli.cjs',
});
// `mem --help` as commander prints it when stdout is not a terminal (80 columns, no colour), written
// at build time from the CLI itself, so bin/mem.cjs prints it without loading commander or the
// commands (a hook's `mem --help | …`, a script); on a terminal commander prints it to its width.
const help = spawnSync(process.execPath, ['dist/cli/entry.js', '--help'], {
  encoding: 'utf8',
  env: { ...process.env, MEM_LEAN_CLI: '0', NO_COLOR: '1', COLUMNS: '' },
});
if (help.status !== 0 || !help.stdout.startsWith('Usage: mem'))
  throw new Error(`mem --help failed at build time: ${help.stderr}`);
writeFileSync('dist/cli/help.txt', help.stdout);
