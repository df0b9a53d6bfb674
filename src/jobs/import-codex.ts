/**
 * `mem import codex [dir]`: Codex's own memory, `~/.codex/memories/` — `memory_summary.md` (what Codex
 * injects), `MEMORY.md` (its handbook) and `rollout_summaries/*.md` (one per session). Every list item
 * and paragraph is an item, sorted by its wording as OpenClaw's notes are (decided → Decision, always/
 * never → Rule, else Note; a stated taste → Preference), of `global` scope: Codex's memory is the
 * user's, across projects. Each file dates its items (a day in its name or front matter, else its
 * modification time). Only read.
 */
import path from 'node:path';
import { MemError } from '../core/errors.js';
import { expandHome } from '../workspace/locate.js';
import { notRegularFile } from '../core/regular-file.js';
import { fileDay, PREFERENCE, TASTE, type HostImport } from './import-adopt.js';
import { isFolder, markdownUnder, readImportFiles, skipped } from './import-files.js';
import { frontMatter } from './import-front-matter.js';
import { importItems, kindFor } from './import-parse.js';

export const CODEX_MEMORIES = '~/.codex/memories';

export function codexItems(given: string | undefined, zone: string, scope?: string): HostImport {
  const abs = path.resolve(expandHome(given ?? CODEX_MEMORIES));
  if (!isFolder(abs))
    throw new MemError(
      'NOT_FOUND',
      `${given ?? CODEX_MEMORIES}: no such folder (give Codex's memories folder, ${CODEX_MEMORIES})`,
    );
  const warnings: string[] = [];
  const paths: string[] = [];
  for (const name of ['memory_summary.md', 'MEMORY.md']) {
    const f = path.join(abs, name);
    const why = notRegularFile(f);
    if (!why) paths.push(f);
    else if (why !== 'gone') warnings.push(skipped(f, why));
  }
  const rollouts = path.join(abs, 'rollout_summaries');
  if (isFolder(rollouts)) paths.push(...markdownUnder(rollouts, warnings).sort());
  if (!paths.length)
    throw new MemError(
      'NOT_FOUND',
      `${given ?? CODEX_MEMORIES}: no memory_summary.md, MEMORY.md or rollout_summaries/*.md to import`,
    );
  const items = readImportFiles(paths, true, warnings).flatMap((f) => {
    const day = fileDay(f.path, frontMatter(f.text).fields, zone);
    return importItems(f.text).map((i) => ({
      file: f.path,
      text: i.text,
      kind: TASTE.test(i.text) ? PREFERENCE : kindFor('openclaw', i.text),
      scope: scope ?? 'global',
      day,
      startLine: i.startLine,
      endLine: i.endLine,
      heading: i.heading,
    }));
  });
  return { files: paths, items, warnings };
}
