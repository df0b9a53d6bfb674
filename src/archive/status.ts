/**
 * The archive tier for `mem status` (read-only): whether the workspace keeps one, how big it is and
 * how many transcripts changed since it was last brought up to date. It reads `state.json` only (and
 * stats the transcripts it names), so status never loads the archive's search code.
 */
import fs from 'node:fs';
import path from 'node:path';
import { STATE_FILE } from './paths.js';

export interface ArchiveStatus {
  kept: boolean;
  transcripts: number;
  windows: number;
  segments: number;
  /** Transcripts whose size or mtime differ from the archive's cursor (or that are gone). */
  behind: number;
  lastUpdate: string | null;
  /** Written by an older memfold (another segment format): not searched until the next update rebuilds it. */
  outdated: boolean;
}

interface StateShape {
  version?: unknown;
  segments?: Array<{ docs?: number }>;
  files?: Record<string, { cursor?: { size?: number; mtimeMs?: number } }>;
}

/** Transcripts whose size or mtime differ from the archive's cursor, or that are gone. */
export function transcriptsBehind(files: Record<string, { cursor?: { size?: number; mtimeMs?: number } }>): number {
  let behind = 0;
  for (const [f, v] of Object.entries(files)) {
    const st = fs.statSync(f, { throwIfNoEntry: false });
    if (!st || st.size !== v.cursor?.size || st.mtimeMs !== v.cursor?.mtimeMs) behind++;
  }
  return behind;
}

export function archiveStatus(workspace: string): ArchiveStatus {
  const file = path.join(workspace, STATE_FILE);
  const none: ArchiveStatus = {
    kept: false,
    transcripts: 0,
    windows: 0,
    segments: 0,
    behind: 0,
    lastUpdate: null,
    outdated: false,
  };
  let state: StateShape;
  let mtime: number;
  try {
    mtime = fs.statSync(file).mtimeMs;
    state = JSON.parse(fs.readFileSync(file, 'utf8')) as StateShape;
  } catch {
    return none;
  }
  const files = Object.entries(state.files ?? {});
  const behind = transcriptsBehind(state.files ?? {});
  const segments = state.segments ?? [];
  return {
    kept: true,
    transcripts: files.length,
    windows: segments.reduce((n, s) => n + (s.docs ?? 0), 0),
    segments: segments.length,
    behind,
    lastUpdate: new Date(mtime).toISOString(),
    outdated: state.version !== 2,
  };
}
