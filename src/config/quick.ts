/**
 * A zod-free check of the merged configuration for the lean CLI path (src/cli/fast-*.ts), which
 * interprets the schema's shape (config-shape.ts, derived from schema.ts at build time by
 * shape-derive.ts) instead of mirroring schema.ts by hand.
 *
 * Invariant: quickConfig(raw) returns a Config only when configSchema.safeParse(raw) succeeds, and
 * then it returns the same value (defaults filled in, unknown keys of nested objects dropped, unknown
 * top-level keys kept). Whenever it is not sure (a part of the schema the shape marks `unsure`: a
 * refinement, a transform; anything unusual: a URL with spaces, a `__proto__` key, `null`) it returns
 * undefined and the caller asks zod, so every error message stays zod's. A property test
 * (test/search-lean.test.ts) compares the two on generated configurations.
 */
import { isPlainObject, type Json } from './files.js';
import { CONFIG_SHAPE } from './config-shape.js';
import type { Config } from './schema.js';
import type { Shape } from './shape.js';

/** Thrown inside the check, caught at the top: "not sure, ask zod". */
const UNSURE = Symbol('unsure');

function fail(): never {
  throw UNSURE;
}

const regexes = new Map<string, RegExp>();
function regex([source, flags]: [string, string]): RegExp {
  const key = `${flags}/${source}`;
  let re = regexes.get(key);
  if (!re) regexes.set(key, (re = new RegExp(source, flags)));
  re.lastIndex = 0;
  return re;
}

/** An http(s) URL that zod's z.url({ protocol }) accepts unchanged. */
function url(s: string, protocol: [string, string]): void {
  // No whitespace or control characters: zod trims and strips them, which would change the value.
  if (!/^[a-z][a-z0-9+.-]*:\/\/[\x21-\x7e]+$/i.test(s) || !URL.canParse(s)) fail();
  const u = new URL(s);
  if (!u.hostname || !regex(protocol).test(u.protocol.slice(0, -1))) fail();
}

function number(shape: { t: 'integer' | 'number'; min?: number; above?: number; max?: number }, v: unknown): number {
  if (typeof v !== 'number' || !Number.isFinite(v) || (shape.t === 'integer' && !Number.isSafeInteger(v))) fail();
  if (
    (shape.min !== undefined && v < shape.min) ||
    (shape.above !== undefined && v <= shape.above) ||
    (shape.max !== undefined && v > shape.max)
  )
    fail();
  return v;
}

function string(shape: Extract<Shape, { t: 'string' }>, v: unknown): string {
  if (typeof v !== 'string' || (shape.min !== undefined && v.length < shape.min)) fail();
  if (shape.enum && !shape.enum.includes(v)) fail();
  if (shape.pattern && !regex(shape.pattern).test(v)) fail();
  if (shape.url) url(v, shape.url);
  return v;
}

/** A default, as zod gives it (a fresh copy: the shape is shared). */
function defaultOf(shape: Shape): unknown {
  const d = 'default' in shape ? shape.default : undefined;
  return typeof d === 'object' && d !== null ? structuredClone(d) : d;
}

function object(shape: Extract<Shape, { t: 'object' }>, v: unknown): Json {
  if (!isPlainObject(v) || Object.hasOwn(v, '__proto__')) fail();
  const props = shape.props ?? {};
  const out: Json = {};
  for (const [k, x] of Object.entries(v)) {
    if (Object.hasOwn(props, k)) continue;
    if (shape.keys) check(shape.keys, k);
    if (shape.rest === 'keep') out[k] = x;
    else if (shape.rest !== 'drop') out[k] = check(shape.rest, x);
  }
  for (const [k, sub] of Object.entries(props)) {
    if (Object.hasOwn(v, k) && v[k] !== undefined) out[k] = check(sub, v[k]);
    else if ('default' in sub && sub.default !== undefined) out[k] = defaultOf(sub);
    else if (shape.required?.includes(k)) fail();
  }
  return out;
}

function check(shape: Shape, v: unknown): unknown {
  switch (shape.t) {
    case 'object':
      return object(shape, v);
    case 'array':
      if (!Array.isArray(v)) fail();
      return v.map((x) => check(shape.items, x));
    case 'string':
      return string(shape, v);
    case 'integer':
    case 'number':
      return number(shape, v);
    case 'boolean':
      if (typeof v !== 'boolean') fail();
      return v;
    default:
      return fail();
  }
}

export function quickConfig(raw: Json): Config | undefined {
  return quickCheck(CONFIG_SHAPE, raw) as Config | undefined;
}

/** The value zod would give for `raw` under `shape`, or undefined: not sure, ask zod. */
export function quickCheck(shape: Shape, raw: unknown): unknown {
  try {
    return check(shape, raw);
  } catch (err) {
    if (err === UNSURE) return undefined;
    throw err;
  }
}
