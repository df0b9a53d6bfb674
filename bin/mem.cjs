#!/usr/bin/env node
'use strict';
// `mem`: a plain search or `mem index` is answered by the resident server (dist/cli/first.cjs), else
// by the lean search bundle (dist/cli/search.cjs) or the index bundle (dist/cli/index.cjs);
// everything else runs the CLI as ES modules (dist/cli/entry.js). A bundle is loaded only when an
// argument names its command. See src/cli/first.ts.
// Node 22+ keeps compiled code of every module it loads in a cache of its own; Node 20 has no such
// call and compiles each time.
require('node:module').enableCompileCache?.();
const args = process.argv.slice(2);
const env = process.env;
// A reader that stops early (`mem --help | head -1`) ends the output quietly, not with a stack trace.
// Creating the stdout stream costs 1-2 ms, so a search or index first sends its request to the
// resident server, if one runs, and sets up stdout while the server answers.
let guarded = false;
const guardStdout = () => {
  if (guarded) return;
  guarded = true;
  process.stdout.on('error', (err) => {
    if (err.code !== 'EPIPE') throw err;
    process.exit(0);
  });
};
const cli = () => import('../dist/cli/entry.js');
// The two large bundles are compiled from a V8 code cache kept in the user's cache folder
// (src/cli/compile-cache.ts); the small first.cjs compiles faster than the cache is checked.
// A run that did a bundle's main work (a search answered, an index updated file by file) completes
// a cache written by a run that did less.
const loader = () => require('../dist/cli/load.cjs');
const bundle = (name) => loader().loadBundle(require('node:path').join(__dirname, '..', 'dist', 'cli', name));
const lean = async () => {
  if (!args.includes('search') && !args.includes('index')) return false;
  const next = await require('../dist/cli/first.cjs').first(args, env, guardStdout);
  guardStdout();
  if (next === 'index') {
    const done = await bundle('index.cjs').leanIndex(args, env);
    if (done === 'updated' && !process.exitCode) loader().mainWorkDone();
    return !!done;
  }
  if (next === 'search' || next === 'search-declined') {
    const done = await bundle('search.cjs').leanSearch(args, env, next === 'search-declined');
    if (done === 'answered' && !process.exitCode) loader().mainWorkDone();
    return !!done;
  }
  return next === 'done';
};
// `mem get`, `mem trace`, `mem context`: the read bundle (src/cli/lean-read.ts), false when it is not one of them after all.
const READS = new Set(['get', 'trace', 'context']);
const read = () => args.some((a) => READS.has(a)) && (guardStdout(), require('../dist/cli/read.cjs').leanRead(args, env));
const rest = () => {
  guardStdout();
  return cli();
};
lean().then((done) => done || read()).then((done) => done || rest(), rest);
