#!/usr/bin/env node
// Bundles src/cli/first.ts (a plain `mem search`: served or cold) into one CommonJS file,
// dist/cli/first.cjs, which bin/mem.cjs loads first: Node loads one CommonJS file far faster than
// the same code as ES modules. Part of `npm run build`, after tsc. Packages stay external (required
// from node_modules at run time); `import.meta.url` becomes the URL of dist/search/server/protocol.js,
// so the build stamp, the server's main.js and createRequire resolve as in the ES modules (first.ts).
import { build } from 'esbuild';

await build({
  entryPoints: ['src/cli/first.ts'],
  outfile: 'dist/cli/first.cjs',
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  packages: 'external',
  define: { 'import.meta.url': '__protocolUrl' },
  banner: { js: "const __protocolUrl = require('node:url').pathToFileURL(require('node:path').join(__dirname, '..', 'search', 'server', 'protocol.js')).href;" },
  logLevel: 'warning',
});
