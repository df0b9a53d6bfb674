/**
 * `mem archive`: brings the archive index up to date from its own per-file cursors (DESIGN §4, §6).
 * Only bytes after a file's cursor are read; a file whose bytes before the cursor changed (or that
 * shrank) is re-read from the start under a new file number, and its old docs are retired. Each
 * update writes at most a few new segments and then the state, atomically, under the `index`
 * allowance: a killed update leaves the previous state, and its cursors, in force. A file that is not
 * text (a gzip renamed `.jsonl`) adds nothing and is warned about once, as microsync warns: its cursor
 * goes to its end, so it is not warned about again until it changes.
 */
import fs from 'node:fs';
import type { LoadedConfig } from '../config/load.js';
import { checkCursor, fingerprint } from '../transcripts/cursors.js';
import { skipIfNotText } from '../transcripts/binary.js';
import { stillWriting } from '../transcripts/growing.js';
import { listTranscriptFiles, openTranscript, type ReadStats } from '../transcripts/index.js';
import { StatsRecorder } from '../transcripts/stats.js';
import { defaultLockOptions } from '../write/defaults.js';
import { removeOwnTempFiles } from '../write/atomic.js';
import { withLock } from '../write/locks.js';
import { WorkspaceWriter } from '../write/writer.js';
import { compactSegments } from './compact.js';
import type { ArchiveDoc } from './format.js';
import type { ArchiveSegmentWriter } from './segment-writer.js';
import { openSegmentWriter, placeSegment, removeUnlisted, writeSegment } from './segment-files.js';
import {
  ARCHIVE_DIR,
  emptyState,
  isOutdated,
  loadState,
  segmentDamage,
  serialiseState,
  STATE_FILE,
  type ArchiveState,
} from './store.js';
import { emptyUpdate, type ArchiveUpdate, type ArchiveUpdateOptions } from './update-options.js';
import { fitsWorker, runInWorker, workerAvailable, workerHeapMb } from './update-thread.js';
import { windowBuilder } from './windows.js';
import { legacyVectors } from './legacy.js';
import { embedDocs, type Vectors } from './vectors.js';

/**
 * Window characters per segment: a segment is built in memory (segment-writer.ts), so this bounds
 * the build's memory whatever the volume of transcripts. Peak RSS of a rebuild, 20 → 200 MB of
 * transcripts (2026-11-27): 158 → 181 MB at 8 MB, 155 → 165 MB at 4 MB (5 segments at 200 MB).
 */
const SEGMENT_CHARS = 4 * 1024 * 1024;
/** Closed windows held before they go to the open segment: a long transcript is not held whole either. */
const DOCS_AT_ONCE = 64;

export async function updateArchive(
  workspace: string,
  loaded: LoadedConfig,
  opts: ArchiveUpdateOptions = {},
): Promise<ArchiveUpdate> {
  const locks = defaultLockOptions(loaded.config);
  return withLock(workspace, 'archive', locks, async (lock) => {
    const writer = new WorkspaceWriter(workspace, 'index', locks, lock);
    // A rebuild or a first build reads every transcript: in a worker whose heap is capped (update-thread.ts).
    const full = !!opts.rebuild || !fs.existsSync(writer.resolve(STATE_FILE));
    if (!full || !workerAvailable() || !(await fitsWorker(workspace, loaded)))
      return runUpdate(workspace, loaded, writer, opts);
    const input = {
      workspace,
      loaded,
      rebuild: !!opts.rebuild,
      warnNotText: opts.warnNotText !== false,
      progress: !!opts.progress,
    };
    // A failed worker (a lost lock, a full disk) leaves its temp files here: they go, the archive stays as it was.
    const done = await runInWorker<ArchiveUpdate>(input, lock, opts.progress).catch(async (err: unknown) => {
      await removeOwnTempFiles(writer.resolve(ARCHIVE_DIR));
      throw err;
    });
    if (done) return done;
    // Out of its heap: its temp files go, and the build runs again here, uncapped.
    await removeOwnTempFiles(writer.resolve(ARCHIVE_DIR));
    const again = await runUpdate(workspace, loaded, writer, opts);
    again.warnings.unshift(
      `the archive build needed more than the ${workerHeapMb()} MB heap of its worker thread (a very long transcript line or turn); it ran again without that limit`,
    );
    return again;
  });
}

/** The update itself, under the archive lock the caller holds (`writer` carries it). */
export async function runUpdate(
  workspace: string,
  loaded: LoadedConfig,
  writer: WorkspaceWriter,
  opts: ArchiveUpdateOptions,
): Promise<ArchiveUpdate> {
  const started = Date.now();
  const stored = loadState(workspace);
  const prev = isOutdated(stored) ? undefined : stored;
  const res = emptyUpdate();

  // A damaged segment's windows cannot be told apart from the rest: read every transcript again.
  const damage = !opts.rebuild && prev ? prev.segments.map((s) => segmentDamage(workspace, s)).find((d) => d) : null;
  if (damage) res.rebuilt = `the archive index was damaged (${damage}); it was rebuilt from the transcripts`;
  // An older memfold's archive (another segment format): rebuilt, its purges kept (store.ts).
  if (isOutdated(stored) && !opts.rebuild)
    res.rebuilt = 'the archive index was written by an older memfold; it was rebuilt from the transcripts';
  const rebuild = !!opts.rebuild || !!damage || isOutdated(stored);
  const purged = stored?.purged ?? [];
  const state: ArchiveState = rebuild || !prev ? { ...emptyState(), purged } : prev;
  const seen = new Set<string>();
  // The open segment (built in memory up to SEGMENT_CHARS); the windows' texts are kept only when they are to be embedded.
  let open: ArchiveSegmentWriter | null = null;
  let toEmbed: ArchiveDoc[] = [];
  let pendingChars = 0;
  const embedCfg = loaded.config.archive.embed ? loaded.config.embedding : undefined;
  const known =
    embedCfg && isOutdated(stored) ? legacyVectors(workspace, stored.legacy, embedCfg.dimensions) : undefined;
  if (loaded.config.archive.embed && !embedCfg)
    res.warnings.push('archive.embed is set but no "embedding" provider is configured: the archive stays lexical');
  const add = async (docs: ArchiveDoc[]) => {
    if (!docs.length) return;
    open ??= openSegmentWriter(state);
    for (const d of docs) open.add(d);
    if (embedCfg) toEmbed.push(...docs);
    pendingChars += docs.reduce((n, d) => n + d.x.length, 0);
    res.docs += docs.length;
  };
  const flush = async () => {
    if (!open) return;
    let vectors: Vectors | null = null;
    if (embedCfg) {
      const e = await embedDocs(embedCfg, toEmbed, known);
      vectors = e.vectors;
      res.embedded += e.embedded;
      if (e.failed)
        res.warnings.push(
          `archive embeddings: ${e.failed}; ${toEmbed.length - e.embedded} window(s) rank lexically only ("mem archive --rebuild" tries again)`,
        );
    }
    state.segments.push(await placeSegment(writer, state, open, vectors));
    res.segments++;
    open = null;
    toEmbed = [];
    pendingChars = 0;
  };

  for (const source of loaded.config.sources) {
    const files = await listTranscriptFiles(source.kind, source.path, workspace).catch((err: Error) => {
      res.warnings.push(`source "${source.name}": ${err.message}; its archive is left as it was`);
      return undefined;
    });
    if (!files) {
      for (const [f, v] of Object.entries(state.files)) if (v.source === source.name) seen.add(f);
      continue;
    }
    for (const file of files) {
      seen.add(file);
      res.files++;
      opts.progress?.(`archive: ${res.files} ${file}`);
      const st = await fs.promises.stat(file).catch(() => undefined);
      if (!st) continue;
      const known = state.files[file];
      const check = await checkCursor(file, known?.cursor, st);
      if (check.state === 'unchanged') continue;
      const resume = check.state === 'grown' && known;
      if (check.state === 'rewritten' && known) {
        res.rewritten.push({ file, why: check.why });
        state.retired.push(known.no);
      }
      const no = resume ? known.no : state.nextFile++;
      let last = resume ? known.cursor.turns : 0;
      let stats = await notText(file);
      if (stats) {
        if (opts.warnNotText !== false) res.warnings.push(...stats.warnings);
      } else {
        const purged = state.purged.filter((p) => p.file === file);
        const builder = windowBuilder(no, resume ? known.cursor.offset : 0, (i) =>
          purged.some((p) => i >= p.a && i <= p.b),
        );
        const stream = openTranscript(file, source.kind, {
          fromOffset: resume ? known.cursor.offset : 0,
          fromIndex: resume ? known.cursor.turns : 0,
          maxLineBytes: loaded.config.limits.maxLineBytes,
          fallbackTimestamp: new Date(st.mtimeMs).toISOString(),
          zone: loaded.zone,
          growing: stillWriting(st.mtimeMs, Date.now()),
          ...(resume && known.cursor.pendingTools ? { toolNames: known.cursor.pendingTools } : {}),
        });
        for await (const turn of stream.turns) {
          builder.add(turn);
          last = turn.index;
          res.turns++;
          if (builder.closed() >= DOCS_AT_ONCE) await add(builder.takeClosed());
        }
        await add(builder.take());
        stats = stream.stats;
      }
      res.bytesRead += stats.bytesRead;
      res.filesRead++;
      const fp = await fingerprint(file, stats.endOffset);
      const cursor = {
        offset: stats.endOffset,
        turns: last,
        size: st.size,
        mtimeMs: st.mtimeMs,
        ...fp,
        ...(stats.pendingTools ? { pendingTools: stats.pendingTools } : {}),
      };
      state.files[file] = { no, source: source.name, kind: source.kind, sessionId: stats.sessionId, cursor };
      if (pendingChars >= SEGMENT_CHARS) await flush();
    }
  }
  for (const [file, v] of Object.entries(state.files)) {
    if (seen.has(file)) continue;
    state.retired.push(v.no);
    delete state.files[file];
    res.retiredFiles++;
  }
  await flush();
  res.compacted = await compactSegments(workspace, state, (docs, vectors) =>
    writeSegment(writer, state, docs, vectors),
  );
  if (res.filesRead || res.retiredFiles || res.compacted || !prev || rebuild) {
    await writer.write(STATE_FILE, serialiseState(state));
    // Segments no longer listed: a rebuild's or compaction's old ones, or a killed run's leftovers.
    await removeUnlisted(workspace, writer, state);
  }
  res.totalDocs = state.segments.reduce((n, s) => n + s.docs, 0);
  res.ms = Date.now() - started;
  return res;
}

/**
 * The read of a file that is not text, judged on its first block as every transcript read judges it
 * (transcripts/binary.ts): its one warning and a cursor at its end; undefined for a text file. The
 * stream skips such a file too, but the archive passes on none of a stream's warnings (malformed
 * lines are microsync's to report), so without this the file was skipped in silence. A file that
 * cannot be opened is left to the stream, which fails with SOURCE_UNREADABLE.
 */
async function notText(file: string): Promise<ReadStats | undefined> {
  const rec = new StatsRecorder(file, '', 0);
  return (await skipIfNotText(file, rec).catch(() => false)) ? rec.stats : undefined;
}
