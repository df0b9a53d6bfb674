#!/usr/bin/env node
'use strict';
// A plain `mem search` is answered by dist/cli/first.cjs (one CommonJS bundle, see src/cli/first.ts);
// everything else runs the CLI as ES modules (dist/cli/entry.js).
const cli = () => import('../dist/cli/entry.js');
Promise.resolve()
  .then(() => require('../dist/cli/first.cjs').first(process.argv.slice(2), process.env))
  .then((done) => done || cli(), cli);
