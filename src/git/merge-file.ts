/**
 * Which merge a memory file gets (`mem merge-driver`), by its path in the repository, pure: daily
 * and hand-kept files under `memory/` by entry id (./merge-entries.ts); the weekly logs under
 * `memory/archive/` and the wrap-ups under `second-brain/summaries/` section by section
 * (./merge-sections.ts, ./merge-summary.ts); MEMORY.md by cited item (./merge-memory-md.ts). The
 * weekly logs used to go through the entry merge, and MEMORY.md and the wrap-ups through none: both
 * conflicted whenever two machines ran compound or wrapped up the same day. In a file that cites
 * entries, the side whose entry lost an id both sides created (./merge-ids.ts) has its citations
 * renamed before the merge, so they keep naming that entry.
 */
import { mergeMemoryFile, type MergedFile } from './merge-entries.js';
import { renameCitations, type IdRenames } from './merge-ids.js';
import { mergeMemoryMd } from './merge-memory-md.js';
import { mergeSections } from './merge-sections.js';
import { mergeSummary } from './merge-summary.js';
import { lineEndingOf, toLf } from '../write/line-endings.js';

export type MergeKind = 'entries' | 'memory-md' | 'summary' | 'weekly-log';

export function mergeKindOf(file: string): MergeKind {
  const p = file.replaceAll('\\', '/');
  if (/(?:^|\/)MEMORY\.md$/.test(p) && !/(?:^|\/)memory\//.test(p)) return 'memory-md';
  if (/(?:^|\/)second-brain\/summaries\/[^/]+\.md$/.test(p)) return 'summary';
  if (/(?:^|\/)memory\/archive\/weekly-[^/]+\.md$/.test(p)) return 'weekly-log';
  return 'entries';
}

/** Whether a file of this kind cites entries whose ids a merge may rename. */
export const citesEntries = (kind: MergeKind) => kind !== 'entries';

export function mergeByKind(
  kind: MergeKind,
  baseText: string,
  oursText: string,
  theirsText: string,
  renames?: IdRenames,
): MergedFile {
  if (kind === 'entries') return mergeMemoryFile(baseText, oursText, theirsText);
  const eol = lineEndingOf(oursText, theirsText, baseText);
  const [base, ours, theirs] = [
    toLf(baseText),
    renameCitations(toLf(oursText), renames?.ours ?? new Map()),
    renameCitations(toLf(theirsText), renames?.theirs ?? new Map()),
  ];
  const merged =
    ours === theirs || theirs === base
      ? ours
      : ours === base
        ? theirs
        : kind === 'memory-md'
          ? (mergeMemoryMd(base, ours, theirs) ?? mergeSections(base, ours, theirs))
          : kind === 'summary'
            ? mergeSummary(base, ours, theirs)
            : mergeSections(base, ours, theirs);
  return { text: eol === '\n' ? merged : merged.replace(/\n/g, eol) };
}
