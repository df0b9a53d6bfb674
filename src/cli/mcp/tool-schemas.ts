/**
 * What each MCP tool accepts and says it does: one strict zod schema per tool (an unknown field is
 * refused, not ignored) and the description an agent reads in tools/list. Every string argument is
 * bounded (MAX_ARG), so an oversized request is refused before anything runs or echoes it.
 */
import { MAX_CHARS_RANGE } from '../../search/query/fit-chars.js';
import { z } from 'zod';
import { KIND_NAMES } from '../../entries/kind-names.js';
import { TASK_STATES } from '../../entries/task-state.js';

/** The longest string argument, as memory_remember's text: a 2 MB query is refused, never run or echoed. */
export const MAX_ARG = 20_000;
const arg = () => z.string().max(MAX_ARG);

const filters = z
  .object({
    since: arg().optional().describe('30m, 3h, 2d, 1w, an ISO date, or all'),
    until: arg().optional(),
    kind: z.enum(KIND_NAMES).optional(),
    status: z.enum(['active', 'superseded', 'archived', 'retracted']).optional(),
    scope: arg().optional().describe('e.g. project:shop'),
    path: arg().optional().describe('glob, e.g. memory/2026-11-*.md'),
  })
  .strict();

export const SCHEMAS = {
  memory_search: z
    .object({
      query: arg().trim().min(1, 'query must not be empty'),
      k: z.number().int().min(1).max(50).optional().describe('number of results, 1-50 (default search.k, 6)'),
      deep: z.boolean().optional().describe('search the cold tier (archive, summaries) too'),
      filters: filters.optional(),
      maxChars: z
        .number()
        .int()
        .min(MAX_CHARS_RANGE[0])
        .max(MAX_CHARS_RANGE[1])
        .optional()
        .describe(
          'at most this many characters of hit text in all, 200-100000: hits past it are cut to their matching lines (lines narrowed, cut: true) or left out',
        ),
    })
    .strict(),
  memory_get: z
    .object({
      id: arg().min(1).optional().describe('entry id, or a prefix only one id has (any case)'),
      path: arg().min(1).optional().describe('workspace-relative Markdown path, e.g. memory/2026-11-21.md'),
      lines: arg().optional().describe('with path: "12-30" (1-based, inclusive)'),
    })
    .strict()
    .refine((a) => (a.id === undefined) !== (a.path === undefined), {
      message: 'give either id or path (with optional lines), not both and not neither',
    }),
  memory_list: z
    .object({
      group: z.enum(['file', 'day']).optional().describe('one row per file (default) or per day'),
      under: arg().optional().describe('only files under this workspace folder, e.g. memory/archive'),
      cursor: arg().optional().describe('nextCursor of the previous page'),
      limit: z.number().int().min(1).max(200).optional().describe('rows per page, 1-200 (default 50)'),
    })
    .strict(),
  memory_context: z
    .object({
      scope: arg().optional().describe('layer-1 scope, e.g. project:shop (default: project:<server folder name>)'),
      query: arg().optional().describe('layer-2 search query'),
      budget: z.number().int().min(50).max(200_000).optional().describe('token budget (o200k_base), default 2000'),
    })
    .strict(),
  memory_remember: z
    .object({
      text: z.string().trim().min(1, 'text must not be empty').max(20_000),
      kind: z.enum(KIND_NAMES).optional(),
      state: z
        .enum(TASK_STATES)
        .optional()
        .describe('kind task only: todo, doing, done or blocked (a later entry with the same key moves it)'),
      key: arg().optional().describe('stable typed key, e.g. decision:shop:package-manager'),
      scope: arg().optional().describe('global, project:<name> or lang:<name>'),
      title: arg().optional(),
    })
    .strict(),
  memory_trace: z.object({ id: arg().min(1) }).strict(),
  memory_evidence: z
    .object({
      id: arg().min(1).optional().describe('entry id: its cited transcript turns'),
      query: arg()
        .min(1)
        .optional()
        .describe('or words to find in the raw transcripts (the archive tier, built by `mem archive`)'),
      context: z
        .number()
        .int()
        .min(0)
        .max(50)
        .optional()
        .describe('with id: turns to show around the cited ones (default 0)'),
      k: z.number().int().min(1).max(50).optional().describe('with query: number of windows (default 6)'),
      source: arg().optional().describe('with query: only this configured source'),
      session: arg().optional().describe('with query: only this session id'),
    })
    .strict()
    .refine((a) => a.id !== undefined || a.query !== undefined, {
      message: 'give id (an entry id, for its cited turns) or query (words to find in the raw transcripts)',
    })
    .refine((a) => a.id === undefined || a.query === undefined, { message: 'give either id or query, not both' }),
} as const;

export type ToolName = keyof typeof SCHEMAS;

export const DESCRIPTIONS: Record<ToolName, string> = {
  memory_search:
    'Search long-term memory (BM25, plus embeddings when configured). Returns hits with path, lines, entry id, status and snippet, and for each hit the tool call that opens it (open: memory_get) and, for an entry made from transcripts, the one that shows them (evidence: memory_evidence); retracted entries are left out unless filters.status is "retracted".',
  memory_get: 'Read one memory entry by id, or lines of a memory Markdown file by path.',
  memory_list:
    'Browse the memory files (MEMORY.md, memory/**, second-brain/**) newest first, one row per file or per day, with line counts and entries counted by kind, each with the memory_get call that opens it; paged: pass nextCursor back as cursor.',
  memory_context:
    'The layered memory pack for this session (core rules, scope memories, query memories) within a token budget, wrapped in <memfold-context>.',
  memory_remember:
    'Record one settled fact: a decision, rule, architecture change, note, preference, goal, task (with its state) or lesson (origin agent). The same text twice adds nothing; a shared key supersedes the older entry.',
  memory_trace:
    "An entry's supersedes chain, oldest to newest, with statuses and the weekly-log lines that changed them.",
  memory_evidence:
    'The original transcript turns an entry was made from (speaker, time, position), secrets redacted; says when the transcript changed. Same JSON as `mem source <id> --json`. With query instead of id: hits from the raw transcripts, same JSON as `mem search --archive <query> --json`.',
};

export function isToolName(name: string): name is ToolName {
  return Object.hasOwn(SCHEMAS, name);
}

/** Zod issues as one line an agent can act on: `k: Too big: expected number to be <=50; query: …`. */
export function describeIssues(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.length ? i.path.join('.') : 'arguments'}: ${i.message}`).join('; ');
}
