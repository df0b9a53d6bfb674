#!/usr/bin/env node
// Part of `npm run build`, after tsc: bundles what bin/mem.cjs loads before the ES-module CLI into
// CommonJS files (Node loads one CommonJS file far faster than the same code as ES modules):
//   dist/cli/first.cjs   src/cli/first.ts        is it a plain search; the resident server's answer
//   dist/cli/search.cjs  src/cli/lean-search.ts  a plain search answered cold
// Packages stay external (required from node_modules at run time); `import.meta.url` becomes the URL
// of dist/search/server/protocol.js, so the build stamp, the server's main.js and createRequire
// resolve as they do in the ES modules (see src/cli/lean-search.ts).
import { build } from 'esbuild';

const common = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  packages: 'external',
  define: { 'import.meta.url': '__protocolUrl' },
  banner: { js: "const __protocolUrl = require('node:url').pathToFileURL(require('node:path').join(__dirname, '..', 'search', 'server', 'protocol.js')).href;" },
  logLevel: 'warning',
};
await build({ ...common, entryPoints: ['src/cli/first.ts'], outfile: 'dist/cli/first.cjs' });
await build({ ...common, entryPoints: ['src/cli/lean-search.ts'], outfile: 'dist/cli/search.cjs' });
