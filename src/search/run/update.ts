/**
 * `mem index` (DESIGN §6): both tiers brought up to date under the `index` lock (indexer.ts updates
 * one), then the embeddings when configured. The jobs that write Markdown (microsync, remember,
 * wrapup, compound) call updateIndexAfterWrite after their append: it never fails the job, its
 * embedding step is bounded by `embedding.interactiveTimeoutMs`, any problem comes back as a
 * one-line warning, and the next `mem index`, `mem watch` or search overlay catches up.
 */
import type { LoadedConfig } from '../../config/load.js';
import type { EmbeddingConfig } from '../../config/schema.js';
import { describeError } from '../../core/errors.js';
import { defaultLockOptions } from '../../write/defaults.js';
import { withLock } from '../../write/locks.js';
import { WorkspaceWriter } from '../../write/writer.js';
import { refreshEntryTable } from '../../entries/table-refresh.js';
import { TABLE_DIR } from '../../entries/table-store.js';
import { refreshReadyPacks } from '../../pack/pack-cache.js';
import { entryScopes, mappingKey } from '../../scope/session-scope.js';
import type { EmbeddingRun } from '../embed/embed-index.js';
import { updateTier, type IndexOptions, type TierCounters, type TierUpdate } from '../index/indexer.js';
import { ParallelBuildError } from '../index/parallel-build.js';
import type { EmbeddingCounters } from '../embed/embed-index.js';
import { scanWorkspace, type ScannedFile } from '../index/scan.js';
import type { TierState } from '../index/tier-state.js';
import { TIERS, type Tier } from '../text/types.js';

export interface IndexResult {
  tiers: Record<Tier, TierCounters>;
  warnings: string[];
}

/** An incremental update that meets a damaged index (unreadable segment) rebuilds the tier instead. */
async function updateTierSafely(
  workspace: string,
  loaded: LoadedConfig,
  writer: WorkspaceWriter,
  tier: Tier,
  files: ScannedFile[],
  opts: IndexOptions,
  progress: () => void,
): Promise<TierUpdate> {
  try {
    return await updateTier(workspace, loaded, writer, tier, files, opts, progress);
  } catch (err) {
    if (err instanceof ParallelBuildError) {
      const r = await updateTier(workspace, loaded, writer, tier, files, { ...opts, oneThread: true }, () => {});
      r.warnings.unshift(`index worker threads failed (${err.message}): built the ${tier} index in one thread`);
      return r;
    }
    // A limited update (the search server's) never mends: its caller indexes the usual way instead.
    if (
      opts.rebuild ||
      opts.limit !== undefined ||
      (err as NodeJS.ErrnoException).code === 'ELOCKED' ||
      (err as { name?: string }).name === 'MemError'
    )
      throw err;
    const r = await updateTier(workspace, loaded, writer, tier, files, { ...opts, rebuild: true }, () => {});
    r.warnings.unshift(`the ${tier} index was damaged (${(err as Error).message}): rebuilt it`);
    r.counters.rebuilt = 'corrupt';
    return r;
  }
}

/** Updates both tiers under the `index` lock. */
export async function updateIndex(
  workspace: string,
  loaded: LoadedConfig,
  opts: IndexOptions & { governance?: boolean } = {},
): Promise<IndexResult> {
  const lockOptions = opts.lock ?? defaultLockOptions(loaded.config);
  return withLock(workspace, 'index', lockOptions, async (lock) => {
    const writer = new WorkspaceWriter(workspace, 'index', lockOptions, lock);
    const files = opts.files ?? scanWorkspace(workspace, loaded.config.extraPaths);
    let done = 0;
    const progress = () => opts.onProgress?.(++done, files.length);
    const tiers = {} as Record<Tier, TierCounters>;
    const states = {} as Record<Tier, TierState>;
    const warnings: string[] = [];
    for (const tier of TIERS) {
      const r = await updateTierSafely(
        workspace,
        loaded,
        writer,
        tier,
        files.filter((f) => f.tier === tier),
        opts,
        progress,
      );
      tiers[tier] = r.counters;
      if (r.state) states[tier] = r.state; // always there when `after` is given
      warnings.push(...r.warnings);
    }
    // The entry table the reads answer from (entries/table-store.ts) follows the same files; never fails the update.
    const heads = await refreshEntryTable(workspace, files, {
      scopeOf: entryScopes(loaded.config.scopes),
      mappingKey: mappingKey(loaded.config.scopes),
    }).catch((err) => void warnings.push(`entry table not updated (${describeError(err)})`));
    // The packs `mem context` takes ready (pack/pack-cache.ts), from those heads.
    await refreshReadyPacks(workspace, TABLE_DIR, heads ?? undefined).catch((err) =>
      warnings.push(`ready context packs not updated (${describeError(err)})`),
    );
    // What `mem status` shows of the entries, only for a caller that has lint's modules loaded anyway
    // (entries/governance-refresh.ts): the lean `mem index` loads no luxon and summarizes nothing.
    if (opts.governance) {
      await import('../../entries/governance-refresh.js')
        .then((g) => g.refreshGovernance(workspace, loaded.config.limits.entriesPerDailyFile))
        .catch((err) => warnings.push(`status summary not updated (${describeError(err)})`));
    }
    await opts.after?.(writer, states);
    return { tiers, warnings };
  });
}

export interface IndexRun {
  result: IndexResult;
  embeddings: EmbeddingCounters | null;
  seconds: number;
}

async function checkEmbeddingModel(
  workspace: string,
  loaded: LoadedConfig,
  emb: EmbeddingConfig,
  counters: EmbeddingCounters,
  warnings: string[],
): Promise<void> {
  const { checkModel } = await import('./embed-check.js');
  const { ranksWorse, weakModelWarning } = await import('../embed/model-check.js');
  try {
    const check = await checkModel(workspace, loaded, emb);
    if (!check) return;
    counters.check = check;
    if (ranksWorse(check)) warnings.push(weakModelWarning(check));
  } catch (err) {
    warnings.push(`embedding model check: ${(err as Error).message}; tried again at the next "mem index"`);
  }
}

/** `mem index` and the watcher: lexical update, then embeddings when configured, under the index lock. */
/** `embedBudgetMs` bounds the embedding step (embedTiers); the lexical update is never cut short. */
/** `governance`: also store what `mem status` shows of the entries (the jobs that write Markdown, `mem watch`). */
export async function runIndex(
  workspace: string,
  loaded: LoadedConfig,
  opts: {
    rebuild?: boolean;
    onProgress?: (done: number, total: number) => void;
    embedBudgetMs?: number;
    governance?: boolean;
  } = {},
): Promise<IndexRun> {
  const started = performance.now();
  let run: EmbeddingRun | undefined;
  const { embedBudgetMs, ...indexOpts } = opts;
  const emb = loaded.config.embedding;
  const result = await updateIndex(workspace, loaded, {
    ...indexOpts,
    // Loaded only when embeddings are configured: setting up the embedding code and the secret
    // patterns it redacts with is ~2 ms of a one-edit lexical `mem index`.
    after: emb
      ? async (writer, states) =>
          void (run = await (
            await import('../embed/embed-index.js')
          ).embedTiers(workspace, writer, emb, states, embedBudgetMs))
      : undefined,
  });
  const embedded = run as EmbeddingRun | undefined;
  if (embedded) result.warnings.push(...embedded.warnings);
  if (embedded?.counters.failed)
    result.warnings.push(
      `embeddings: ${embedded.counters.failed}; search uses lexical ranking for chunks without vectors`,
    );
  // A new model is checked once, by a `mem index` someone ran (not after a write, where time is short).
  else if (emb && embedded && embedBudgetMs === undefined)
    await checkEmbeddingModel(workspace, loaded, emb, embedded.counters, result.warnings);
  return { result, embeddings: embedded?.counters ?? null, seconds: (performance.now() - started) / 1000 };
}

export async function updateIndexAfterWrite(
  workspace: string,
  loaded: LoadedConfig,
): Promise<{ warning?: string; run?: IndexRun }> {
  try {
    // Someone waits on the write: embeddings get interactiveTimeoutMs; the next `mem index` catches up.
    const run = await runIndex(workspace, loaded, {
      embedBudgetMs: loaded.config.embedding?.interactiveTimeoutMs,
      governance: true,
    });
    return run.result.warnings.length ? { run, warning: `index: ${run.result.warnings.join('; ')}` } : { run };
  } catch (err) {
    return { warning: `index not updated (${describeError(err)}); run "mem index"` };
  }
}
