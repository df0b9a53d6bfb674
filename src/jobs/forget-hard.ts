/**
 * `mem forget --hard`: the named entries leave every Markdown file that holds them, and `.mem/`.
 *
 * The run records the entries' salted one-way marks first, in the committed `memory/.forgotten`
 * (forgotten.ts: no catch-up or back-fill on any machine learns them again), checks that every file
 * to change can be rewritten (a non-UTF-8 file stops the run before anything is written), then writes the other files, `.mem/`, and the files holding the
 * entries last, then the log line and the index. A run stopped part-way (killed, disk full, lock
 * lost) thus leaves the entry in place, and running it again does the whole job; one stopped after
 * the entry was gone finds the id only in what still names it (a line, `.mem/`, the index, a missing
 * log line) and finishes that. The log names each id only by the start of its salted mark
 * (forgotten.ts logMark), so it holds no trace a table of hashed ids could look up; a line an older
 * version wrote with an unsalted hash still counts as the run's log line.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { DateTime } from 'luxon';
import { MemError } from '../core/errors.js';
import { ID_PATTERN } from '../entries/id.js';
import { getField } from '../entries/model.js';
import { loadEntries } from '../entries/store.js';
import { appendRun, weeklyLogOf } from '../governance/weekly-log.js';
import { defaultLockOptions } from '../write/defaults.js';
import type { WorkspaceWriter } from '../write/writer.js';
import { markdownFilesUnder } from '../workspace/markdown-files.js';
import { afterForget } from './wrapup/after-forget.js';
import { SUMMARIES_DIR } from './wrapup/place.js';
import { derivedNaming, purgeArchiveOf, purgeDerived } from './forget-derived.js';
import { mentionMatcher, removeFrom, type Removal } from './forget-plan.js';
import {
  entryMarks,
  idMark,
  legacyLogMark,
  loadForgotten,
  migrateForgotten,
  recordForgotten,
  type ForgottenMarks,
} from './forgotten.js';
import type { ForgetOptions, ForgetResult } from './forget-types.js';
import { count } from '../core/count.js';

export const readText = (ws: string, rel: string) =>
  fs.promises.readFile(path.join(ws, rel), 'utf8').catch(() => undefined);

export const runStamp = (now: DateTime) => now.toISO({ suppressMilliseconds: true }) ?? '';

const logLine = (mark: string) => `removed: entry mark:${mark}`;

/** Whether a log line says `id` was removed: by any salt's mark, or an older version's unsalted hash. */
const logsRemoval = (text: string, id: string, forgotten: ForgottenMarks) =>
  forgotten.logMarks(id).some((m) => text.includes(logLine(m))) ||
  text.includes(`removed: entry sha256:${legacyLogMark(id)}`);

/** Every workspace Markdown file hard forget looks in: MEMORY.md, memory/**, second-brain/**. */
function markdownFiles(workspace: string): string[] {
  const out: string[] = [];
  if (fs.existsSync(path.join(workspace, 'MEMORY.md'))) out.push('MEMORY.md');
  for (const dir of ['memory', 'second-brain'])
    out.push(...markdownFilesUnder(path.join(workspace, dir)).map((n) => `${dir}/${n}`));
  return out;
}

export async function hardForget(
  opts: ForgetOptions,
  res: ForgetResult,
  writer: WorkspaceWriter,
): Promise<ForgetResult> {
  const { workspace } = opts;
  const records = await loadEntries(workspace);
  const removed = records.filter((r) => opts.ids.includes(r.id));
  const quotes = removed.map((r) => getField(r.entry, 'conclusion') ?? '');
  const keptTexts = records
    .filter((r) => !opts.ids.includes(r.id))
    .flatMap((r) => [r.entry.title, getField(r.entry, 'conclusion') ?? '']);
  const keptIds = new Set(records.filter((r) => r.id && !opts.ids.includes(r.id)).map((r) => r.id));
  const names = mentionMatcher(opts.ids, quotes, keptTexts);
  // A wrap-up names what a session settled by title alone; a title a kept entry shares stays.
  const keptTitles = new Set(records.filter((r) => !opts.ids.includes(r.id)).map((r) => r.entry.title.trim()));
  const titles = removed.map((r) => r.entry.title.trim()).filter((t) => !keptTitles.has(t));
  const titlesIn = (file: string) => (file.startsWith(SUMMARIES_DIR + '/') ? titles : []);
  const texts = new Map<string, string>();
  const plans: Array<{ file: string; plan: Removal }> = [];
  for (const file of markdownFiles(workspace)) {
    const text = await readText(workspace, file);
    if (text === undefined) continue;
    texts.set(file, text);
    const plan = removeFrom(text, opts.ids, quotes, keptTexts, keptIds, titlesIn(file));
    if (!plan) continue;
    res.kept.push(...plan.kept.map(({ after, ...k }) => ({ file, ...k, line: opts.dryRun ? k.line : after })));
    if (!plan.entries && !plan.lines) continue;
    res.files.push({ file, entries: plan.entries, lines: plan.lines });
    plans.push({ file, plan });
  }
  const forgotten = loadForgotten(workspace);
  res.resumed = opts.ids.filter((id) => !removed.some((r) => r.id === id));
  const gone: string[] = [];
  // Only a well-formed id is looked for in lines: `forget --hard the` must not take every "the".
  for (const id of res.resumed)
    if (!ID_PATTERN.test(id) || !(await stillNamed(workspace, id, texts, forgotten))) gone.push(id);
  const done = gone.filter((id) => forgotten.has(idMark(id)));
  // An id a past run removed, given with others still here: said, and the others are removed.
  if (gone.length && done.length === gone.length && gone.length < opts.ids.length) {
    res.warnings.push(
      `${gone.join(', ')}: already removed by "mem forget --hard"; nothing names ${gone.length === 1 ? 'it' : 'them'} any more`,
    );
    opts = { ...opts, ids: opts.ids.filter((id) => !gone.includes(id)) };
    res.resumed = res.resumed.filter((id) => !gone.includes(id));
  } else if (gone.length) {
    // The job log gets no id: a failed run's message there was a new trace of what was forgotten,
    // and made the next run "finish" by purging it (exit 0) instead of saying so again (exit 1).
    const logged = `${count(gone.length, 'id')} ${done.length === gone.length ? 'already removed' : 'not found'} (not named in this log)`;
    throw new MemError(
      'NOT_FOUND',
      done.length === gone.length
        ? `${gone.join(', ')}: already removed by "mem forget --hard"; nothing names ${gone.length === 1 ? 'it' : 'them'} any more`
        : `no entry with id ${gone.join(', ')}, and nothing names ${gone.length === 1 ? 'it' : 'them'} (ids are listed by "mem search" and "mem export")`,
      { logged },
    );
  }
  res.derived = await derivedNaming(workspace, names);
  const locks = defaultLockOptions(opts.loaded.config);
  if (opts.dryRun) return withArchive(res, await purgeArchiveOf(workspace, writer, removed, true, locks));

  for (const { file } of plans) await writer.checkRewritable(file);
  await migrateForgotten(writer);
  await recordForgotten(writer, [...removed.flatMap((r) => entryMarks(r.id, r.entry)), ...res.resumed.map(idMark)]);
  const holding = new Set(removed.map((r) => r.file));
  const update = (file: string) =>
    writer.update(file, (cur) => {
      const text =
        cur === undefined ? undefined : removeFrom(cur, opts.ids, quotes, keptTexts, keptIds, titlesIn(file))?.text;
      return text !== undefined && file.startsWith(SUMMARIES_DIR + '/') ? afterForget(cur!, text) : text;
    });
  for (const { file } of plans) if (!holding.has(file)) await update(file);
  await purgeDerived(writer, res.derived, opts.ids, names);
  withArchive(res, await purgeArchiveOf(workspace, writer, removed, false, locks));
  for (const { file } of plans) if (holding.has(file)) await update(file);

  const log = weeklyLogOf(opts.now);
  const recorded = loadForgotten(workspace); // its marks were recorded above, so it has a salt
  const lines = opts.ids.map(
    (id) =>
      `${logLine(recorded.logMarks(id)[0]!)} from ${res.files.length} file(s) by \`mem forget --hard\`${res.resumed.includes(id) ? ' (finishing a run that stopped part-way)' : ''}`,
  );
  await writer.update(log.file, (cur) =>
    appendRun(cur, log.header, `${runStamp(opts.now)} (mem forget --hard)`, lines),
  );
  res.log = log.file;
  if (fs.existsSync(path.join(workspace, '.mem', 'index'))) {
    // A rebuild writes fresh segments and drops the old ones, which still held the removed text.
    const { runIndex } = await import('../search/index.js');
    const run = await runIndex(workspace, opts.loaded, { rebuild: true, governance: true });
    res.warnings.push(...run.result.warnings);
    if (opts.loaded.config.embedding)
      res.warnings.push(
        'the embedding cache may keep vectors (never text) of the removed chunks until it is deleted: rm -r .mem/embeddings && mem index',
      );
  }
  return res;
}

/**
 * What an earlier run that stopped after removing the entry left naming `id`: a Markdown line, a
 * derived file, the index, or (its marks recorded) the log line it never wrote.
 */
async function stillNamed(
  workspace: string,
  id: string,
  texts: Map<string, string>,
  forgotten: ForgottenMarks,
): Promise<boolean> {
  const names = mentionMatcher([id], []);
  const all = [...texts.values()];
  if (all.some((t) => t.split('\n').some((l) => names(l)))) return true;
  if (forgotten.has(idMark(id)) && !all.some((t) => logsRemoval(t, id, forgotten))) return true;
  if ((await derivedNaming(workspace, names)).length) return true;
  const index = path.join(workspace, '.mem', 'index');
  const files = await fs.promises.readdir(index, { recursive: true }).catch(() => [] as string[]);
  for (const n of files) {
    const bytes = await fs.promises.readFile(path.join(index, n)).catch(() => undefined);
    if (bytes?.includes(id)) return true;
  }
  return false;
}

function withArchive(res: ForgetResult, archive: { docs: number; segments: number } | null): ForgetResult {
  res.archive = archive;
  if (archive)
    res.derived.push(
      `.mem/archive/ (${count(archive.docs, 'transcript window')} citing or quoting the entries; the transcripts themselves are the agent's and are not touched)`,
    );
  return res;
}
