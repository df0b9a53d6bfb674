/**
 * The configuration's shape, derived from the zod schema (schema.ts) for the zod-free check
 * (quick.ts). `npm run build` writes it into config-shape.ts (scripts/config-shape.mjs), and a test
 * fails when that file is not what this derives now, so the quick check never follows a hand copy.
 *
 * Derived through zod's public JSON Schema conversion (`z.toJSONSchema`, input side: defaults, optional
 * keys, loose objects), with what JSON Schema leaves out read in its `override` hook: a regular
 * expression's flags, a URL's protocol. Whatever the quick check cannot reproduce — a refinement or
 * transform (zod runs code there), a keyword or format this file does not know — becomes `unsure`:
 * the quick check then leaves any value there to zod. Runs at build and test time only (zod loaded).
 */
import { z } from 'zod';
import type { Shape } from './shape.js';

type Schema = Record<string, unknown>;
interface Def {
  checks?: { _zod: { def: { check: string; format?: string; pattern?: RegExp } } }[];
  format?: string;
  protocol?: RegExp;
  hostname?: RegExp;
  normalize?: boolean;
  type?: string;
}

/** Marks in the JSON Schema what zod does beyond it. */
function annotate(ctx: { zodSchema: unknown; jsonSchema: Schema }): void {
  const def = (ctx.zodSchema as { _zod: { def: Def } })._zod.def;
  const checks = (def.checks ?? []).map((c) => c._zod.def);
  if (checks.some((c) => c.check === 'custom') || def.type === 'pipe' || def.type === 'transform')
    ctx.jsonSchema['x-unsure'] = true;
  const regexes = checks.filter((c) => c.check === 'string_format' && c.format === 'regex' && c.pattern);
  if (regexes.length > 1) ctx.jsonSchema['x-unsure'] = true;
  if (regexes[0]) ctx.jsonSchema['x-flags'] = regexes[0].pattern!.flags;
  if (def.format === 'url') {
    if (def.hostname || def.normalize || !def.protocol) ctx.jsonSchema['x-unsure'] = true;
    else ctx.jsonSchema['x-protocol'] = [def.protocol.source, def.protocol.flags];
  }
}

const KNOWN = new Set([
  'type',
  'properties',
  'required',
  'additionalProperties',
  'propertyNames',
  'items',
  'enum',
  'minLength',
  'pattern',
  'format',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'default',
  'x-flags',
  'x-protocol',
]);

function shapeOf(s: Schema): Shape {
  const base = s.default === undefined ? {} : { default: s.default };
  if (s['x-unsure'] || Object.keys(s).some((k) => !KNOWN.has(k))) return { t: 'unsure', ...base };
  switch (s.type) {
    case 'object': {
      const rest = s.additionalProperties;
      const props = s.properties as Record<string, Schema> | undefined;
      return {
        t: 'object',
        ...(props ? { props: Object.fromEntries(Object.entries(props).map(([k, v]) => [k, shapeOf(v)])) } : {}),
        ...(s.required ? { required: s.required as string[] } : {}),
        // {} (a loose object): unknown keys kept as they are; a schema (a record): each value checked; none: dropped.
        rest: rest === undefined ? 'drop' : Object.keys(rest as Schema).length ? shapeOf(rest as Schema) : 'keep',
        ...(s.propertyNames ? { keys: shapeOf(s.propertyNames as Schema) } : {}),
        ...base,
      };
    }
    case 'array':
      return s.items ? { t: 'array', items: shapeOf(s.items as Schema), ...base } : { t: 'unsure', ...base };
    case 'string': {
      if (s.format !== undefined && (s.format !== 'uri' || !s['x-protocol'])) return { t: 'unsure', ...base };
      return {
        t: 'string',
        ...(s.minLength !== undefined ? { min: s.minLength as number } : {}),
        ...(s.pattern !== undefined
          ? { pattern: [s.pattern as string, (s['x-flags'] as string | undefined) ?? ''] as [string, string] }
          : {}),
        ...(s.enum ? { enum: s.enum as string[] } : {}),
        ...(s['x-protocol'] ? { url: s['x-protocol'] as [string, string] } : {}),
        ...base,
      };
    }
    case 'integer':
    case 'number':
      return {
        t: s.type,
        ...(s.minimum !== undefined ? { min: s.minimum as number } : {}),
        ...(s.exclusiveMinimum !== undefined ? { above: s.exclusiveMinimum as number } : {}),
        ...(s.maximum !== undefined ? { max: s.maximum as number } : {}),
        ...base,
      };
    case 'boolean':
      return { t: 'boolean', ...base };
    default:
      return { t: 'unsure', ...base };
  }
}

/** The shape of `schema` as the quick check reads it. */
export function deriveShape(schema: z.ZodType): Shape {
  const json = z.toJSONSchema(schema, {
    io: 'input',
    unrepresentable: 'any',
    override: (ctx) => annotate(ctx as never),
  }) as Schema;
  delete json.$schema;
  return shapeOf(json);
}
