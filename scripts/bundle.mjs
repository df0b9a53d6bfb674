#!/usr/bin/env node
// Part of `npm run build`, after tsc: bundles what bin/mem.cjs loads before the ES-module CLI into
// CommonJS files (Node loads one CommonJS file far faster than the same code as ES modules):
//   dist/cli/first.cjs   src/cli/first.ts        is it a plain search; the resident server's answer
//   dist/cli/search.cjs  src/cli/lean-search.ts  a plain search answered cold
//   dist/cli/index.cjs   src/cli/lean-index.ts   a plain `mem index`
//   dist/cli/read.cjs    src/cli/lean-read.ts    a plain `mem get`, `mem trace` or `mem context`
//   dist/cli/status.cjs  src/cli/lean-status.ts  a plain `mem status`
// Packages stay external (required from node_modules at run time), except in the index bundle
// proper-lockfile and its dependencies: every `mem index` takes the lock, and finding and reading
// their nine files from node_modules cost about 4 ms more than the same code bundled; and in the
// search bundle minisearch (the version package.json pins), which every cold search loads: 2-3 ms
// bundled, 4-5 ms from node_modules.
// `import.meta.url` becomes the URL of one real file of dist/, so the code that finds files beside
// itself finds what the ES module would: the search bundles use dist/search/server/protocol.js (the build stamp, the server's
// main.js), the index bundle dist/search/parallel-build.js (its worker), and createRequire resolves
// packages from either (see src/cli/lean-search.ts and lean-index.ts).
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { build } from 'esbuild';

const metaUrl = (rel) => ({
  define: { 'import.meta.url': '__metaUrl' },
  banner: { js: `const __metaUrl = require('node:url').pathToFileURL(require('node:path').join(__dirname, '..', ${JSON.stringify(rel)})).href;` },
});
const common = {
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
    b.onResolve({ filter: /^[^./]/ }, (args) => (bundled.includes(args.path.split('/')[0]) ? undefined : { external: true }));
  },
});
const lockfile = ['proper-lockfile', 'graceful-fs', 'retry', 'signal-exit'];
const server = metaUrl('search/server/protocol.js');
await build({ ...common, ...server, entryPoints: ['src/cli/first.ts'], outfile: 'dist/cli/first.cjs' });
await build({ ...common, ...server, packages: undefined, plugins: [externalExcept(['minisearch'])], entryPoints: ['src/cli/lean-search.ts'], outfile: 'dist/cli/search.cjs' });
// The read bundle's import.meta.url: a file two folders below the package root, as workspace/templates.ts
// (where MEMORY.md.example is) expects; nothing it reaches needs protocol.ts's own file.
await build({ ...common, ...metaUrl('workspace/templates.js'), entryPoints: ['src/cli/lean-read.ts'], outfile: 'dist/cli/read.cjs' });
await build({ ...common, ...metaUrl('workspace/templates.js'), entryPoints: ['src/cli/lean-status.ts'], outfile: 'dist/cli/status.cjs' });
await build({
  ...common,
  ...metaUrl('search/parallel-build.js'),
  packages: undefined,
  plugins: [externalExcept(lockfile)],
  entryPoints: ['src/cli/lean-index.ts'],
  outfile: 'dist/cli/index.cjs',
});
// `mem --help` as commander prints it when stdout is not a terminal (80 columns, no colour), written
// at build time from the CLI itself, so bin/mem.cjs prints it without loading commander or the
// commands (a hook's `mem --help | …`, a script); on a terminal commander prints it to its width.
const help = spawnSync(process.execPath, ['dist/cli/entry.js', '--help'], { encoding: 'utf8', env: { ...process.env, MEM_LEAN_CLI: '0', NO_COLOR: '1', COLUMNS: '' } });
if (help.status !== 0 || !help.stdout.startsWith('Usage: mem')) throw new Error(`mem --help failed at build time: ${help.stderr}`);
writeFileSync('dist/cli/help.txt', help.stdout);
