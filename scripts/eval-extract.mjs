#!/usr/bin/env node
/**
 * `npm run eval:extract`: scores microsync's extraction on the labelled set in fixtures/extraction/
 * (README "Extraction quality"). Black-box: the built CLI runs in a fresh temp workspace per split and
 * what lands in memory/ is compared with the gold; nothing under src/ is imported.
 *
 *   node scripts/eval-extract.mjs [--split dev|heldout|all] [--limit N] [--json] [--llm]
 *                                 [--workspace DIR [--rescore]] [--show N] [--from N]
 *
 * Default: dev and held-out, each in its own table. --split all: both, scored as one set.
 * --llm: microsync's LLM path against MEM_EVAL_LLM_BASE_URL / MEM_EVAL_LLM_MODEL (key from the
 * variable MEM_EVAL_LLM_API_KEY_ENV names); without them, a 127.0.0.1 stub answering empty
 * extractions: a wiring check only, said so in the output.
 * --workspace DIR keeps the workspaces (DIR/<split>/ws); --rescore scores them again without running
 * microsync (to inspect, or to test the scoring). --show N lists up to N misses, extras and landed decoys.
 * --from N: only the exchanges numbered N and up (--from 1147: the fresh batch of spec/fresh.mjs).
 * --gate: exit 1 unless every report meets issue 27's bar (gate.mjs).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startStub } from './eval/llm-stub.mjs';
import { attribute, loadGold, microsync, prepare } from './eval/run.mjs';
import { score } from './eval/score.mjs';
import { failures } from './eval/gate.mjs';
import { mergeResults, printTable, summary } from './eval/table.mjs';

function parseArgs(argv) {
  const opts = {
    split: null,
    limit: 0,
    json: false,
    llm: false,
    workspace: null,
    rescore: false,
    show: 0,
    gate: false,
    from: 0,
  };
  for (let i = 0; i < argv.length; i += 1) {
    const a = argv[i];
    const value = () => {
      const v = argv[(i += 1)];
      if (v === undefined) fail(`${a} needs a value`);
      return v;
    };
    if (a === '--split') opts.split = value();
    else if (a === '--limit') opts.limit = Number(value());
    else if (a === '--json') opts.json = true;
    else if (a === '--llm') opts.llm = true;
    else if (a === '--workspace') opts.workspace = value();
    else if (a === '--rescore') opts.rescore = true;
    else if (a === '--show') opts.show = Number(value());
    else if (a === '--gate') opts.gate = true;
    else if (a === '--from') opts.from = Number(value());
    else if (a === '-h' || a === '--help') {
      console.log(
        'usage: node scripts/eval-extract.mjs [--split dev|heldout|all] [--limit N] [--json] [--llm] [--workspace DIR [--rescore]] [--show N] [--gate] [--from N]',
      );
      process.exit(0);
    } else fail(`unknown option ${a}`);
  }
  if (opts.split && !['dev', 'heldout', 'all'].includes(opts.split))
    fail(`--split must be dev, heldout or all, not "${opts.split}"`);
  if (!Number.isInteger(opts.limit) || opts.limit < 0) fail('--limit must be a whole number');
  if (!Number.isInteger(opts.show) || opts.show < 0) fail('--show must be a whole number');
  if (!Number.isInteger(opts.from) || opts.from < 0) fail('--from must be a whole number');
  if (opts.rescore && !opts.workspace) fail('--rescore needs --workspace DIR');
  return opts;
}

function fail(message) {
  console.error(`eval-extract: ${message}`);
  process.exit(2);
}

/** The llm config for microsync and how to describe the run; a stub server when no endpoint is set. */
async function llmSetup(enabled, secrets) {
  if (!enabled) return { mode: 'offline (rule-based extractor)' };
  const baseURL = process.env.MEM_EVAL_LLM_BASE_URL;
  const model = process.env.MEM_EVAL_LLM_MODEL;
  if (baseURL) {
    if (!model) fail('MEM_EVAL_LLM_BASE_URL is set but MEM_EVAL_LLM_MODEL is not');
    const apiKeyEnv = process.env.MEM_EVAL_LLM_API_KEY_ENV;
    return {
      mode: `LLM path: model ${model} at ${baseURL}`,
      config: { baseURL, model, ...(apiKeyEnv && { apiKeyEnv }) },
    };
  }
  const stub = await startStub(secrets);
  return {
    mode: 'LLM path against a 127.0.0.1 stub that answers every call with no entries: a WIRING CHECK ONLY; these figures say nothing about extraction quality (set MEM_EVAL_LLM_BASE_URL and MEM_EVAL_LLM_MODEL for a real model)',
    config: { baseURL: stub.url, model: 'eval-stub', timeoutMs: 10_000, maxRetries: 0 },
    stub,
  };
}

async function evaluate(split, opts, llm, root) {
  const exchanges = loadGold(split, opts.limit, opts.from);
  const dir = join(root, split);
  const started = Date.now();
  let run = null;
  if (!opts.rescore) {
    const { ws } = await prepare(dir, split, exchanges, llm.config);
    run = await microsync(ws);
  }
  const { byExchange, unattributed, text } = attribute(join(dir, 'ws'), exchanges);
  const result = score(exchanges, byExchange, unattributed, text);
  return {
    split,
    exchanges: exchanges.length,
    seconds: (Date.now() - started) / 1000,
    microsync: run?.summary ?? null,
    result,
  };
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const splits = opts.split === 'dev' || opts.split === 'heldout' ? [opts.split] : ['dev', 'heldout'];
  const secrets = splits.flatMap((s) =>
    loadGold(s, opts.limit, opts.from).flatMap((x) => x.secrets.map((f) => f.text)),
  );
  const llm = await llmSetup(opts.llm, secrets);
  const root = opts.workspace ?? mkdtempSync(join(tmpdir(), 'memfold-eval-'));
  try {
    const runs = [];
    for (const split of splits) runs.push(await evaluate(split, opts, llm, root));
    const reports = opts.split === 'all' ? [mergeResults('all', runs)] : runs;
    const wiring = llm.stub
      ? {
          requests: llm.stub.seen.requests,
          malformedRequests: llm.stub.seen.bad,
          secretsSent: llm.stub.seen.secretsSent,
        }
      : undefined;
    if (opts.json) {
      console.log(
        JSON.stringify(
          { mode: llm.mode, ...(wiring && { wiring }), reports: reports.map((r) => summary(r, opts.show)) },
          null,
          2,
        ),
      );
    } else {
      console.log(`Extraction quality: ${llm.mode}`);
      if (wiring)
        console.log(
          `wiring: ${wiring.requests} chat requests reached the stub, ${wiring.malformedRequests} malformed, ${wiring.secretsSent} carried a secret of the set`,
        );
      for (const r of reports) printTable(r, opts.show);
    }
    if (opts.gate) {
      const failed = reports.flatMap((r) => failures(r.result).map((f) => `${r.split}: ${f}`));
      for (const f of failed) console.error(`eval-extract: below the bar: ${f}`);
      if (failed.length) process.exitCode = 1;
    }
    if (wiring && (wiring.requests === 0 || wiring.malformedRequests > 0 || wiring.secretsSent > 0)) {
      console.error(
        `eval-extract: LLM wiring check failed: ${wiring.requests} requests, ${wiring.malformedRequests} malformed, ${wiring.secretsSent} carrying a secret`,
      );
      process.exitCode = 1;
    }
  } finally {
    await llm.stub?.close();
    if (!opts.workspace) rmSync(root, { recursive: true, force: true });
  }
}

main().catch((err) => fail(err instanceof Error ? err.message : String(err)));
