/**
 * Keeps a kept archive fresh: once a person has built the archive tier (`mem archive`), every
 * microsync brings it up to date too, so the cron job that reads the transcripts also makes their
 * new lines searchable with `--archive`. A workspace without an archive never gets one this way
 * (it is opt-in: raw transcripts take room), and a failure is a warning, never a failed microsync.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { LoadedConfig } from '../config/load.js';
import { describeError } from '../core/errors.js';
import { STATE_FILE } from './paths.js';
import { count } from '../core/count.js';

/** A one-line summary, a warning, or nothing when the workspace keeps no archive. */
export async function refreshArchive(
  workspace: string,
  loaded: LoadedConfig,
): Promise<{ line?: string; warning?: string }> {
  if (!fs.existsSync(path.join(workspace, STATE_FILE))) return {};
  try {
    const { updateArchive } = await import('./update.js');
    const r = await updateArchive(workspace, loaded, { warnNotText: false });
    const warnings = [...(r.rebuilt ? [r.rebuilt] : []), ...r.warnings];
    return {
      line: `archive: ${count(r.filesRead, 'transcript')} read, ${count(r.docs, 'new window')}`,
      ...(warnings.length ? { warning: `archive: ${warnings.join('; ')}` } : {}),
    };
  } catch (err) {
    return { warning: `archive not updated (${describeError(err)}); run "mem archive"` };
  }
}
