/**
 * A file named like a transcript that is not text (a gzip renamed `.jsonl`, random bytes) is skipped
 * whole with one warning: read line by line it gave a "malformed line" warning for every line and a
 * malformed count in the thousands. Judged on the file's first block whatever the cursor, since a
 * real transcript begins as text: NUL bytes (core/binary.ts, the index's test for Markdown), or a
 * block that is mostly not UTF-8 (a small binary file may hold no NUL). A text transcript with a few
 * bad bytes is read as before, each bad line counted and reported as malformed.
 */
import { open } from 'node:fs/promises';
import { BINARY_PROBE_BYTES, looksBinary, mostlyNotUtf8 } from '../core/binary.js';
import type { StatsRecorder } from './stats.js';

/** Why a file's first block is not text, or undefined when it is. */
export function notTextReason(block: Uint8Array): string | undefined {
  if (looksBinary(block)) return 'NUL bytes';
  return mostlyNotUtf8(block) ? 'mostly not UTF-8' : undefined;
}

/**
 * True when the file is not text: then it is warned about once and the read ends at the file's end,
 * so a cursor set there does not read it again until it changes.
 */
export async function skipIfNotText(path: string, rec: StatsRecorder): Promise<boolean> {
  const fd = await open(path, 'r');
  try {
    const block = Buffer.alloc(BINARY_PROBE_BYTES);
    const { bytesRead } = await fd.read(block, 0, block.length, 0);
    const why = notTextReason(block.subarray(0, bytesRead));
    if (!why) return false;
    rec.stats.bytesRead += bytesRead;
    rec.stats.endOffset = (await fd.stat()).size;
    rec.warn(`${rec.shown}: looks binary (${why}), not a transcript; skipped`);
    return true;
  } finally {
    await fd.close();
  }
}
