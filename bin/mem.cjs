#!/usr/bin/env node
'use strict';
// A plain `mem search` that the resident search server answers is printed by dist/cli/served.cjs
// (CommonJS, one file) before the CLI loads; everything else runs the CLI (dist/cli/entry.js).
const path = require('node:path');
const cli = () => import('../dist/cli/entry.js');
Promise.resolve()
  .then(() => require('../dist/cli/served.cjs').served(process.argv.slice(2), process.env, path.join(__dirname, '..')))
  .then((done) => done || cli(), cli);
