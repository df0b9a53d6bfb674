/**
 * A zod-free check of the merged configuration for the lean CLI path (src/cli/fast-*.ts).
 *
 * Invariant: quickConfig(raw) returns a Config only when configSchema.safeParse(raw) succeeds, and
 * then it returns the same value (defaults filled in, unknown keys of nested objects dropped, unknown
 * top-level keys kept). Whenever it is not sure (anything unusual: a URL with spaces, a `__proto__`
 * key) it returns undefined and the caller asks zod, so every error message stays zod's. A property
 * test (test/search-units.test.ts) compares the two on generated configurations; schema.ts is the
 * definition, this file follows it.
 */
import { SOURCE_KINDS } from './source-kinds.js';
import { isPlainObject, type Json } from './files.js';
import { isTimedJob } from './jobs.js';
import { MAX_TIMER_MS } from './timer.js';
import type { Config } from './schema.js';

/** Thrown inside the check, caught at the top: "not sure, ask zod". */
const UNSURE = Symbol('unsure');

function fail(): never {
  throw UNSURE;
}

function obj(v: unknown): Json {
  if (!isPlainObject(v) || Object.hasOwn(v, '__proto__')) fail();
  return v;
}

function str(v: unknown, min = 0): string {
  if (typeof v !== 'string' || v.length < min) fail();
  return v;
}

function int(v: unknown, min = -Infinity, max = Infinity): number {
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < min || v > max) fail();
  return v;
}

/** A time in milliseconds that ends up in a timer (schema.ts's timerMs). */
function ms(v: unknown, min: number): number {
  return int(v, min, MAX_TIMER_MS);
}

function bool(v: unknown): boolean {
  if (typeof v !== 'boolean') fail();
  return v;
}

function strings(v: unknown): string[] {
  if (!Array.isArray(v)) fail();
  return v.map((x) => str(x));
}

/** An http(s) URL that zod's z.url({ protocol: /^https?$/ }) accepts unchanged. */
function url(v: unknown): string {
  const s = str(v, 1);
  // No whitespace or control characters: zod trims and strips them, which would change the value.
  if (!/^https?:\/\/[\x21-\x7e]+$/i.test(s) || !URL.canParse(s)) fail();
  const u = new URL(s);
  if (u.protocol !== 'http:' && u.protocol !== 'https:') fail();
  return s;
}

/** Optional key: absent → default (or absent); present → checked. `null` is never accepted. */
function opt<T>(o: Json, key: string, check: (v: unknown) => T, def?: T): T | undefined {
  if (!Object.hasOwn(o, key) || o[key] === undefined) return def;
  return check(o[key]);
}

function record<T>(v: unknown, check: (x: unknown) => T): Record<string, T> {
  const o = obj(v);
  const out: Record<string, T> = {};
  for (const [k, x] of Object.entries(o)) out[k] = check(x);
  return out;
}

/** Keys whose value is undefined are left out, as zod leaves out absent optional keys. */
function clean<T extends object>(o: T): T {
  for (const k of Object.keys(o) as (keyof T)[]) if (o[k] === undefined) delete o[k];
  return o;
}

function source(v: unknown) {
  const o = obj(v);
  const name = str(o.name, 1);
  if (!/^[A-Za-z0-9._-]+$/.test(name)) fail();
  const kind = str(o.kind);
  if (!(SOURCE_KINDS as readonly string[]).includes(kind)) fail();
  return clean({ name, kind: kind as (typeof SOURCE_KINDS)[number], path: str(o.path, 1), exclude: opt(o, 'exclude', strings) });
}

function llm(v: unknown) {
  const o = obj(v);
  return clean({
    baseURL: url(o.baseURL),
    model: str(o.model, 1),
    apiKeyEnv: opt(o, 'apiKeyEnv', (x) => str(x, 1)),
    maxCallsPerRun: opt(o, 'maxCallsPerRun', (x) => int(x, 1), 50)!,
    maxTokensPerRun: opt(o, 'maxTokensPerRun', (x) => int(x, 1), 200_000)!,
    timeoutMs: opt(o, 'timeoutMs', (x) => ms(x, 1), 60_000)!,
    maxRetries: opt(o, 'maxRetries', (x) => int(x, 0, 10), 2)!,
    turnsPerCall: opt(o, 'turnsPerCall', (x) => int(x, 1), 40)!,
  });
}

function embedding(v: unknown) {
  const o = obj(v);
  return clean({
    baseURL: url(o.baseURL),
    model: str(o.model, 1),
    dimensions: opt(o, 'dimensions', (x) => int(x, 1)),
    apiKeyEnv: opt(o, 'apiKeyEnv', (x) => str(x, 1)),
    batchSize: opt(o, 'batchSize', (x) => int(x, 1), 64)!,
    interactiveTimeoutMs: opt(o, 'interactiveTimeoutMs', (x) => ms(x, 1), 3_000)!,
  });
}

function search(v: unknown) {
  const o = obj(v);
  return {
    k: opt(o, 'k', (x) => int(x, 1, 50), 6)!,
    chunkTokens: opt(o, 'chunkTokens', (x) => int(x, 50), 400)!,
    overlapTokens: opt(o, 'overlapTokens', (x) => int(x, 0), 80)!,
  };
}

function limits(v: unknown) {
  const o = obj(v);
  return clean({
    memoryLines: opt(o, 'memoryLines', (x) => int(x, 1), 200)!,
    entriesPerDailyFile: opt(o, 'entriesPerDailyFile', (x) => int(x, 1), 300)!,
    summaryLines: opt(o, 'summaryLines', (x) => int(x, 1), 1500)!,
    lockWaitMs: opt(o, 'lockWaitMs', (x) => ms(x, 0), 10_000)!,
    lockStaleMs: opt(o, 'lockStaleMs', (x) => ms(x, 2_000), 60_000)!,
    lockUpdateMs: opt(o, 'lockUpdateMs', (x) => ms(x, 500)),
    maxLineBytes: opt(o, 'maxLineBytes', (x) => int(x, 1), 4 * 1024 * 1024)!,
    jobTimeoutMs: opt(o, 'jobTimeoutMs', jobTimeouts, {})!,
    jobLogBytes: opt(o, 'jobLogBytes', (x) => int(x, 1024), 1024 * 1024)!,
  });
}

/** A key that is no job with a time limit is an error: zod's to word. */
function jobTimeouts(v: unknown): Record<string, number> {
  const r = record(v, (y) => ms(y, 1));
  if (!Object.keys(r).every(isTimedJob)) fail();
  return r;
}

/** schema.ts's scopesSchema: non-empty patterns, each to a scope without spaces or slashes. */
function scopes(v: unknown): Record<string, string> {
  const r = record(v, (y) => str(y, 1));
  if (Object.entries(r).some(([k, s]) => !k || !/^[^\s\\/\p{Cc}]+$/u.test(s))) fail();
  return r;
}

function daemon(v: unknown) {
  const o = obj(v);
  return {
    debounceMs: opt(o, 'debounceMs', (x) => ms(x, 0), 15_000)!,
    refreshMs: opt(o, 'refreshMs', (x) => ms(x, 0), 300_000)!,
    index: opt(o, 'index', bool, true)!,
    killGraceMs: opt(o, 'killGraceMs', (x) => ms(x, 100), 5_000)!,
  };
}

export function quickConfig(raw: Json): Config | undefined {
  try {
    const o = obj(raw);
    const known = {
      format_version: opt(o, 'format_version', (x) => (x === 1 || x === 2 ? x : fail()), 2)!,
      timezone: opt(o, 'timezone', (x) => str(x, 1)),
      sources: opt(o, 'sources', (x) => (Array.isArray(x) ? x.map(source) : fail()), [])!,
      exclude: opt(o, 'exclude', strings, [])!,
      extraPaths: opt(o, 'extraPaths', strings, [])!,
      llm: opt(o, 'llm', llm),
      embedding: opt(o, 'embedding', embedding),
      search: opt(o, 'search', search, search({}))!,
      schedule: opt(o, 'schedule', (x) => record(x, (y) => str(y)), {})!,
      limits: opt(o, 'limits', limits, limits({}))!,
      onFailure: opt(o, 'onFailure', (x) => str(x, 1)),
      daemon: opt(o, 'daemon', daemon, daemon({}))!,
      git: opt(o, 'git', (x) => ({ autoCommit: opt(obj(x), 'autoCommit', bool, false)! }), { autoCommit: false })!,
      archive: opt(o, 'archive', (x) => ({ embed: opt(obj(x), 'embed', bool, false)! }), { embed: false })!,
      scopes: opt(o, 'scopes', scopes),
    };
    // The top level is loose: unknown keys are kept as they are.
    return clean({ ...o, ...known }) as Config;
  } catch (err) {
    if (err === UNSURE) return undefined;
    throw err;
  }
}
