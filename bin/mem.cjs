#!/usr/bin/env node
'use strict';
// `mem`: a plain search or `mem index` is answered by the resident server (dist/cli/first.cjs), else
// by the lean search bundle (dist/cli/search.cjs) or the index bundle (dist/cli/index.cjs); a plain
// status by dist/cli/status.cjs; get, trace or context by the read bundle (dist/cli/read.cjs); everything
// else by the full CLI's bundle (dist/cli/cli.cjs). A lean bundle is loaded only when an argument names
// its command. See src/cli/first.ts, lean-read.ts and scripts/bundle.mjs.
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
const cli = () => require('../dist/cli/cli.cjs');
// `mem --help` not on a terminal: the text commander printed at build time (scripts/bundle.mjs).
const builtHelp = () => {
  if (
    args.length !== 1 ||
    (args[0] !== '--help' && args[0] !== '-h') ||
    env.MEM_LEAN_CLI === '0' ||
    require('node:tty').isatty(1)
  )
    return false;
  let text;
  try {
    text = require('node:fs').readFileSync(
      require('node:path').join(__dirname, '..', 'dist', 'cli', 'help.txt'),
      'utf8',
    );
  } catch {
    return false;
  }
  guardStdout();
  process.stdout.write(text);
  return true;
};
const bundle = (name) => require(require('node:path').join(__dirname, '..', 'dist', 'cli', name));
const lean = async () => {
  if (!args.includes('search') && !args.includes('index')) return false;
  const next = await require('../dist/cli/first.cjs').first(args, env, guardStdout);
  guardStdout();
  if (next === 'index') {
    return !!(await bundle('index.cjs').leanIndex(args, env));
  }
  if (next === 'search' || next === 'search-declined') {
    return !!(await bundle('search.cjs').leanSearch(args, env, next === 'search-declined'));
  }
  return next === 'done';
};
// `mem status`: its own bundle (src/cli/lean-status.ts); `mem get`, `mem trace`, `mem context`: the read
// bundle (src/cli/lean-read.ts); each false when the command line is not one of them after all.
const READS = new Set(['get', 'trace', 'context', 'status']);
const status = async () =>
  args.includes('status') && (guardStdout(), await require('../dist/cli/status.cjs').leanStatus(args, env));
const read = async () =>
  (await status()) ||
  (args.some((a) => READS.has(a)) && (guardStdout(), require('../dist/cli/read.cjs').leanRead(args, env)));
const rest = () => {
  guardStdout();
  return cli();
};
if (!builtHelp())
  lean()
    .then((done) => done || read())
    .then((done) => done || rest(), rest);
