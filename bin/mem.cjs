#!/usr/bin/env node
'use strict';
// `mem`: a plain search is answered by the resident server (dist/cli/first.cjs) or by the lean
// search bundle (dist/cli/search.cjs); everything else runs the CLI as ES modules (dist/cli/entry.js),
// without loading either bundle when no argument is `search`. See src/cli/first.ts.
const args = process.argv.slice(2);
const cli = () => import('../dist/cli/entry.js');
Promise.resolve()
  .then(() => (args.includes('search') ? require('../dist/cli/first.cjs').first(args, process.env) : 'cli'))
  .then((next) => (next === 'search' ? require('../dist/cli/search.cjs').leanSearch(args, process.env) : next === 'done'))
  .then((done) => done || cli(), cli);
