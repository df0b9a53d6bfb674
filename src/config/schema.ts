/**
 * mem.config.json, validated at the boundary (DESIGN §3). Unknown keys are kept (and warned about by
 * the loader) so a newer memfold's settings survive an older one reading the file.
 *
 * The lean path's zod-free check (quick.ts) reads a shape derived from this schema at build time
 * (shape-derive.ts → config-shape.ts): types, bounds, patterns, enums, defaults. A refinement or
 * transform cannot be derived, and sends any value there to zod (slower): prefer a check zod can
 * state in JSON Schema (a bound, a pattern) where one says the same.
 */
import { z } from 'zod';
import { SOURCE_KINDS } from './source-kinds.js';
import { TIMED_JOBS } from './jobs.js';
import { MAX_TIMER_MS, MAX_TIMER_TEXT } from './timer.js';

/**
 * The workspace format this memfold writes. 2: the kinds Preference, Goal, Task, Lesson and the
 * fields `state`, `retracts`; every extracted entry has a `scope`. Older formats are read as they are;
 * a newer one is refused with a line saying to upgrade, before anything is read or written.
 */
export const FORMAT_VERSION = 2;

export const formatVersionMessage = (n: unknown) =>
  `format_version ${JSON.stringify(n)} is newer than this mem understands (1 to ${FORMAT_VERSION}): the workspace was written by a newer memfold; upgrade mem (npm install -g memfold@latest) on this machine`;

/** `scopes`: path glob → scope (`project:<name>`, `global`, `lang:<name>`, or a bare project name). */
const scopesSchema = z.record(
  z.string().min(1),
  z
    .string()
    .min(1)
    .regex(
      /^[^\s\\/\p{Cc}]+$/u,
      'a scope such as project:shop or global, or a bare project name (no spaces or slashes)',
    ),
);

/** A time in milliseconds that ends up in a timer (timer.ts): from `min` to MAX_TIMER_MS. */
const timerMs = (min: number) => z.number().int().min(min).max(MAX_TIMER_MS, MAX_TIMER_TEXT);

const sourceSchema = z.object({
  name: z
    .string()
    .min(1)
    .regex(/^[A-Za-z0-9._-]+$/, 'letters, digits, ".", "_" or "-"'),
  kind: z.enum(SOURCE_KINDS),
  path: z.string().min(1),
  exclude: z.array(z.string()).optional(),
});

const llmSchema = z.object({
  baseURL: z.url({ protocol: /^https?$/, error: 'expected an http(s) URL such as http://127.0.0.1:11434/v1' }),
  model: z.string().min(1),
  apiKeyEnv: z.string().min(1).optional(),
  maxCallsPerRun: z.number().int().positive().default(50),
  maxTokensPerRun: z.number().int().positive().default(200_000),
  timeoutMs: timerMs(1).default(60_000),
  maxRetries: z.number().int().min(0).max(10).default(2),
  /** Turns sent in one extraction call. */
  turnsPerCall: z.number().int().positive().default(40),
});

const embeddingSchema = z.object({
  baseURL: z.url({ protocol: /^https?$/, error: 'expected an http(s) URL such as http://127.0.0.1:11434/v1' }),
  model: z.string().min(1),
  dimensions: z.number().int().positive().optional(),
  apiKeyEnv: z.string().min(1).optional(),
  batchSize: z.number().int().positive().default(64),
  /** How long a command someone waits on waits for embeddings: the query of `mem search`, and the
   * index update after a write (remember, forget, microsync, ...). `mem index` allows 30 s a batch. */
  interactiveTimeoutMs: timerMs(1).default(3_000),
});

const searchSchema = z.object({
  k: z.number().int().min(1).max(50).default(6),
  chunkTokens: z.number().int().min(50).default(400),
  overlapTokens: z.number().int().min(0).default(80),
});

/**
 * Per-job time limits: `{"bogus": 5}` was accepted and limited nothing (jobs.ts). The keys are checked
 * by a pattern, not a refinement, so the zod-free check (quick.ts) can read it from the schema.
 */
const TIMED_JOB_NAME = new RegExp(`^(?:${TIMED_JOBS.join('|')})$`);
const jobTimeoutsSchema = z.record(z.string().regex(TIMED_JOB_NAME), timerMs(1), {
  error: (issue) =>
    issue.code === 'invalid_key' ? `not a job with a time limit (allowed: ${TIMED_JOBS.join(', ')})` : undefined,
});

const limitsSchema = z.object({
  memoryLines: z.number().int().positive().default(200),
  entriesPerDailyFile: z.number().int().positive().default(300),
  summaryLines: z.number().int().positive().default(1500),
  /** How long a job waits for a busy lock before giving up (exit 3). */
  lockWaitMs: timerMs(0).default(10_000),
  /** A lock not refreshed for this long belongs to a dead process and is reclaimed. */
  lockStaleMs: timerMs(2_000).default(60_000),
  lockUpdateMs: timerMs(500).optional(),
  /** Transcript lines longer than this are skipped with a warning. */
  maxLineBytes: z
    .number()
    .int()
    .positive()
    .default(4 * 1024 * 1024),
  jobTimeoutMs: jobTimeoutsSchema.default({}),
  /** `.mem/logs/jobs.jsonl` is rotated (to jobs.1.jsonl, jobs.2.jsonl) past this size. */
  jobLogBytes: z
    .number()
    .int()
    .min(1024)
    .default(1024 * 1024),
});

/** `mem daemon` settings (docs/operations.md). */
const daemonSchema = z.object({
  /** Quiet time after the last Markdown change before the index is refreshed. */
  debounceMs: timerMs(0).default(15_000),
  /** Periodic index refresh, a safety net for missed file events; 0 turns it off. */
  refreshMs: timerMs(0).default(300_000),
  /** Keep the index fresh at all (runs `mem index` as a child). */
  index: z.boolean().default(true),
  /** After a job's time limit: SIGTERM, then SIGKILL after this grace. */
  killGraceMs: timerMs(100).default(5_000),
});

/** The archive tier of raw transcripts (docs/archive.md). */
const archiveSchema = z.object({
  /** Embed transcript windows too (needs `embedding`); off by default: raw turns are many, and private. */
  embed: z.boolean().default(false),
});

const gitSchema = z.object({
  /** Commit the Markdown files a job changed (never pushes). */
  autoCommit: z.boolean().default(false),
});

export const configSchema = z
  .object({
    format_version: z
      .number()
      .int()
      .min(1)
      .max(FORMAT_VERSION, { error: (i) => formatVersionMessage(i.input) })
      .default(FORMAT_VERSION),
    timezone: z.string().min(1).optional(),
    sources: z.array(sourceSchema).default([]),
    exclude: z.array(z.string()).default([]),
    extraPaths: z.array(z.string()).default([]),
    llm: llmSchema.optional(),
    embedding: embeddingSchema.optional(),
    search: searchSchema.default(searchSchema.parse({})),
    schedule: z.record(z.string(), z.string()).default({}),
    limits: limitsSchema.default(limitsSchema.parse({})),
    /** Shell command run when a job fails, with the job name and message as arguments. */
    onFailure: z.string().min(1).optional(),
    daemon: daemonSchema.default(daemonSchema.parse({})),
    git: gitSchema.default(gitSchema.parse({})),
    archive: archiveSchema.default(archiveSchema.parse({})),
    /** Which scope a folder's sessions and commands get (scope/scope-of.ts), tried before the git repository's name. */
    scopes: scopesSchema.optional(),
  })
  .loose();

export type Config = z.infer<typeof configSchema>;
export type SourceConfig = z.infer<typeof sourceSchema>;
export type LlmConfig = z.infer<typeof llmSchema>;
export type EmbeddingConfig = z.infer<typeof embeddingSchema>;

export const KNOWN_KEYS = Object.keys(configSchema.shape);
