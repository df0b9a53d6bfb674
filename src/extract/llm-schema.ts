/**
 * The one shape the extraction model may answer with (DESIGN §5, §7), as a zod schema that validates
 * the reply and as the JSON Schema sent in `response_format`. Both come from one definition, so the
 * endpoint is never asked for a shape the validator then rejects.
 *
 * OpenAI strict Structured Outputs accept an object only when every property is listed in `required`
 * and `additionalProperties` is false; "optional" is spelled as a nullable type. The validator is more
 * lenient than the wire schema on purpose: an optional field may be null or missing, because local
 * endpoints without strict decoding (Ollama, llama.cpp) often leave empty fields out.
 */
import { z } from 'zod';
import { KINDS } from '../entries/model.js';
import { TASK_STATES } from '../entries/task-state.js';

/** More entries than this in one reply is a runaway answer: the whole reply is invalid. */
export const MAX_ENTRIES_PER_CALL = 50;
export const MAX_TITLE_CHARS = 120;
export const RESPONSE_FORMAT_NAME = 'memfold_entries';

const optionalText = (description: string) => z.string().nullish().describe(description);

export const llmEntrySchema = z.object({
  kind: z
    .enum(KINDS)
    .describe(
      'Decision | Rule | Architecture | Note ("remember this") | Preference | Goal | Task | Lesson (problem → cause → fix)',
    ),
  title: z.string().min(1).max(MAX_TITLE_CHARS).describe(`short title, at most ${MAX_TITLE_CHARS} characters`),
  conclusion: z.string().min(1).describe("the settled statement, in the speaker's words and language"),
  why: optionalText('the reason given, or null'),
  finding: optionalText('evidence or observation behind it, or null'),
  impact: optionalText('what it changes, or null'),
  confidence: z.number().min(0).max(1).describe('0..1: how explicit and confirmed the statement is'),
  origin: z
    .enum(['user', 'agent'])
    .describe('user: the user stated or decided it; agent: the assistant stated it and the user confirmed'),
  key: optionalText('stable typed key such as decision:<project>:<topic> or pref:<area>:<topic>, or null'),
  scope: optionalText('global | project:<name> | lang:<name>, or null'),
  refs: z.array(z.string()).nullish().describe('files, URLs or ids the statement is about, or null'),
  revises: z.boolean().describe('true when it replaces an earlier statement ("instead of", "改为")'),
  retracts: z
    .boolean()
    .nullish()
    .describe('true when the user denies an earlier fact ("that\'s wrong", "forget the X decision", "不对"), or null'),
  state: z.enum(TASK_STATES).nullish().describe('kind Task only: todo | doing | done | blocked, else null'),
  supersedes_hint: optionalText(
    'id of the replaced entry if named in the conversation, else a short description, or null',
  ),
  first_turn: z.int().min(1).describe('index of the first turn the statement was made in'),
  last_turn: z.int().min(1).describe('index of the last turn the statement was made or confirmed in'),
});

export const llmOutputSchema = z.object({
  entries: z.array(llmEntrySchema).max(MAX_ENTRIES_PER_CALL),
});

export type LlmEntry = z.infer<typeof llmEntrySchema>;
export type LlmOutput = z.infer<typeof llmOutputSchema>;

type JsonObject = { [key: string]: unknown };

const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** True when the schema admits null (`type` contains "null", or an `anyOf` branch does). */
function admitsNull(schema: unknown): boolean {
  if (!isObject(schema)) return false;
  const t = schema['type'];
  if (t === 'null' || (Array.isArray(t) && t.includes('null'))) return true;
  const anyOf = schema['anyOf'];
  return Array.isArray(anyOf) && anyOf.some(admitsNull);
}

/**
 * Rewrites a JSON Schema in place into the strict subset: every object closed and fully required.
 * A property that was optional must already admit null, otherwise strict decoding would force the
 * model to invent a value; that is a bug in the zod schema above, so it throws at load time.
 */
function makeStrict(node: unknown, path: string): void {
  if (Array.isArray(node)) return node.forEach((n, i) => makeStrict(n, `${path}/${i}`));
  if (!isObject(node)) return;
  // Integer bounds zod adds on its own (±2^53-1) say nothing and only lengthen the prompt.
  if (node['maximum'] === Number.MAX_SAFE_INTEGER) delete node['maximum'];
  if (node['minimum'] === Number.MIN_SAFE_INTEGER) delete node['minimum'];
  const props = node['properties'];
  if (isObject(props)) {
    const required = new Set(Array.isArray(node['required']) ? (node['required'] as string[]) : []);
    for (const [name, prop] of Object.entries(props)) {
      if (!required.has(name) && !admitsNull(prop)) {
        throw new Error(`llm-schema: optional property ${path}/properties/${name} must be nullable for strict mode`);
      }
    }
    node['required'] = Object.keys(props);
    node['additionalProperties'] = false;
  }
  for (const [k, v] of Object.entries(node)) if (k !== 'required' && k !== 'enum') makeStrict(v, `${path}/${k}`);
}

function buildJsonSchema(): JsonObject {
  const schema = z.toJSONSchema(llmOutputSchema, { target: 'draft-7' }) as JsonObject;
  delete schema['$schema'];
  makeStrict(schema, '#');
  return schema;
}

/** The JSON Schema of the reply, strict-mode ready (all properties required, optional ones nullable). */
export const llmOutputJsonSchema: Readonly<JsonObject> = buildJsonSchema();

/** The `response_format` of a chat completion request. */
export function responseFormat() {
  return {
    type: 'json_schema' as const,
    json_schema: {
      name: RESPONSE_FORMAT_NAME,
      strict: true,
      schema: structuredClone(llmOutputJsonSchema) as JsonObject,
    },
  };
}
