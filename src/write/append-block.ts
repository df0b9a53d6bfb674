/**
 * Adding a block at the end of a file without rewriting it: one write with O_APPEND, after checking
 * the file is still what the block was planned on. A read-modify-rename append lost every line a
 * person appended with `>>` between the read and the rename; an O_APPEND write lands after them.
 * When an editor's in-place save overlapped the block, part of it can be left at the end of the
 * file (a torn tail): withoutTornTail() finds that rest so the writer cuts it and appends again.
 */
import fs from 'node:fs';
import { writeRefused } from '../core/errors.js';
import { testHook } from '../core/test-hooks.js';
import type { Replaced } from './checked-replace.js';
import { sameFile, snapshot, type Snapshot } from './settled-read.js';

/** The shortest rest of a block that counts as torn (shorter ends are too likely to be a person's own text). */
const MIN_TORN = 16;

export async function appendIfUnchanged(abs: string, rel: string, base: Snapshot, block: string): Promise<Replaced> {
  if (!sameFile(base, await snapshot(abs, rel))) return 'changed';
  let handle: fs.promises.FileHandle | undefined;
  try {
    handle = await fs.promises.open(abs, 'a');
    if (testHook('MEM_FAULT') === 'pause-mid-write') await pauseMidAppend(handle, rel, block);
    await handle.writeFile(block);
    await handle.sync();
  } catch (err) {
    // A short write (disk full) is taken back, so the file is as it was, not torn.
    await handle?.truncate(base.size).catch(() => {});
    throw writeRefused(err, rel, 'the file is unchanged');
  } finally {
    await handle?.close().catch(() => {});
  }
  return 'done';
}

/** Crash-test hook (core/test-hooks.ts): half the block is appended, then the process waits to be killed. */
async function pauseMidAppend(handle: fs.promises.FileHandle, rel: string, block: string): Promise<never> {
  await handle.writeFile(block.slice(0, Math.floor(block.length / 2)));
  await handle.sync();
  process.stderr.write(`mem-fault: paused mid-write of ${rel} (an append)\n`);
  return new Promise<never>(() => setInterval(() => {}, 60_000));
}

/** `text` without the end part of `block` it ends with (an editor's save covered the block's start), if it does. */
export function withoutTornTail(text: string, block: string): string | undefined {
  for (let from = 1; from <= block.length - MIN_TORN; from++) {
    const rest = block.slice(from);
    if (text.endsWith(rest)) return text.slice(0, text.length - rest.length).replace(/\n*$/, '\n');
  }
  return undefined;
}

export interface AppendPlan {
  /** The whole new text. */
  text: string;
  /** What to append, when the new text is the current one and more; undefined: rewrite whole. */
  added?: string;
}

/**
 * What `change` makes of `current`, as bytes to append. A file ending mid-line in an entry heading's
 * block is the torn rest of an append that was killed: when the planned block holds that rest whole,
 * the rest is replaced by the block (a checked rewrite) instead of kept as a broken entry above it.
 */
export function planAppend(
  current: string | undefined,
  change: (current: string | undefined) => string | undefined,
  fit: (before: string | undefined, next: string) => string,
): AppendPlan | undefined {
  const torn = current === undefined || current.endsWith('\n') ? -1 : current.lastIndexOf('\n## ');
  if (current !== undefined && torn >= 0) {
    const kept = current.slice(0, torn + 1);
    const next = change(kept);
    if (next !== undefined && next.startsWith(kept) && next.slice(kept.length).includes(current.slice(torn + 1)))
      return { text: fit(current, next) };
  }
  const next = change(current);
  if (next === undefined || next === current) return undefined;
  const text = fit(current, next);
  return { text, ...(current !== undefined && text.startsWith(current) ? { added: text.slice(current.length) } : {}) };
}
