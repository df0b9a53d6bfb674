/**
 * The configured transcript sources as `mem status` shows them: how many transcripts each holds, or
 * that its path is not found (a warning: microsync reads the others, as when an agent is not
 * installed yet) or cannot be read (a problem: microsync fails on it). Read-only, like the rest of status.
 */
import type { Config } from '../config/schema.js';
import { count } from '../core/count.js';
import { isMemError } from '../core/errors.js';
// Finding the files only: the readers behind transcripts/index.ts load gray-matter and js-yaml (about 30 ms of `mem status`).
import { listTranscriptFiles } from '../transcripts/discover.js';

export interface SourceStatus {
  name: string;
  kind: string;
  path: string;
  state: 'ok' | 'missing' | 'unreadable';
  /** Transcript files found (0 unless ok). */
  files: number;
  /** Why it is missing or unreadable. */
  message: string | null;
}

export async function sourceStatuses(workspace: string, config: Config): Promise<SourceStatus[]> {
  return Promise.all(
    config.sources.map(async (s): Promise<SourceStatus> => {
      const base = { name: s.name, kind: s.kind, path: s.path };
      try {
        return {
          ...base,
          state: 'ok',
          files: (await listTranscriptFiles(s.kind, s.path, workspace)).length,
          message: null,
        };
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err);
        return {
          ...base,
          state: isMemError(err) && err.code === 'SOURCE_MISSING' ? 'missing' : 'unreadable',
          files: 0,
          message,
        };
      }
    }),
  );
}

/** The one status line: each source's count, a missing one named with what it means. */
export function renderSources(sources: SourceStatus[]): string {
  if (!sources.length) return 'none configured (add one: see "mem init --detect")';
  return sources
    .map((s) =>
      s.state === 'ok'
        ? `${s.name} ${count(s.files, 'transcript')}`
        : s.state === 'missing'
          ? `${s.name} not found (${s.path}; skipped with a warning)`
          : `${s.name} unreadable`,
    )
    .join(', ');
}
