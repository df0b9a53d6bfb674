/**
 * `memory_get`: one entry by id (the same object as `mem get --json`), or lines of a workspace
 * Markdown file by path. A path is read only inside the workspace's Markdown (MEMORY.md, memory/,
 * second-brain/): an agent's argument never reads a file elsewhere. What it returns is redacted
 * (redact.ts); a file is redacted whole before its lines are cut.
 */
import fs from 'node:fs';
import path from 'node:path';
import { MemError } from '../../core/errors.js';
import { notRegularFile } from '../../core/regular-file.js';
import { resolveIdOrThrow } from '../../entries/id-resolve.js';
import { entryJson } from '../../entries/json.js';
import { readIdLookup } from '../../entries/table-store.js';
import { findSecrets, redactionMarker } from '../../secrets/secrets.js';

/** `typed`: the exact id, the id in another case, or a prefix only one id has (entries/id-resolve.ts). */
export async function getById(workspace: string, typed: string) {
  const table = await readIdLookup(workspace);
  const id = table.withId(typed).length
    ? typed
    : resolveIdOrThrow(typed, table.ids(), 'ids come from memory_search and memory_context results');
  return entryJson(await table.whole(table.withId(id)[0]!));
}

const READABLE = /^(MEMORY\.md|memory\/(?!\.locks\/)[^\0]+\.md|second-brain\/[^\0]+\.md)$/;

export function parseLines(lines: string | undefined): [number, number] | undefined {
  if (lines === undefined) return undefined;
  const m = /^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$/.exec(lines);
  const a = m ? Number(m[1]) : NaN;
  const b = m?.[2] ? Number(m[2]) : a;
  if (!m || a < 1 || b < a)
    throw new MemError('USAGE', `lines "${lines}" is not a line range such as "12-30" or "12" (1-based, inclusive)`);
  return [a, b];
}

/**
 * The file's text with its secrets redacted before `lines` cuts it (the middle lines of a private key
 * alone do not look like one), each marker followed by the line breaks its secret spanned, so line
 * numbers stay the file's.
 */
function redactKeepingLines(text: string): string {
  let out = '';
  let at = 0;
  for (const f of findSecrets(text)) {
    out +=
      text.slice(at, f.start) +
      redactionMarker(f.kind) +
      '\n'.repeat(text.slice(f.start, f.end).split('\n').length - 1);
    at = f.end;
  }
  return out + text.slice(at);
}

export async function getByPath(workspace: string, rel: string, lines: string | undefined) {
  const posix = rel.split(path.sep).join('/').replace(/^\.\//, '');
  if (path.isAbsolute(rel) || posix.split('/').includes('..') || !READABLE.test(posix)) {
    throw new MemError(
      'USAGE',
      `path "${rel}" is not a Markdown file of the workspace (MEMORY.md, memory/**, second-brain/**), relative to it`,
    );
  }
  const root = fs.realpathSync(workspace);
  const abs = path.join(root, posix);
  let real: string;
  try {
    real = fs.realpathSync(abs);
  } catch {
    throw new MemError('NOT_FOUND', `no file ${posix} in the workspace`);
  }
  if (!real.startsWith(root + path.sep)) throw new MemError('USAGE', `path "${rel}" leads outside the workspace`);
  // Before opening: reading a FIFO named `*.md` never returns, and the server could not exit after it.
  const what = notRegularFile(real);
  if (what) throw new MemError('NOT_FOUND', `${posix} is ${what}, not a Markdown file`);
  const all = redactKeepingLines(await fs.promises.readFile(real, 'utf8')).split('\n');
  if (all[all.length - 1] === '') all.pop();
  const [a, b] = parseLines(lines) ?? [1, all.length];
  if (lines !== undefined && a > all.length)
    throw new MemError('USAGE', `lines "${lines}" start past the end of ${posix} (${all.length} lines)`);
  const end = Math.min(b, all.length);
  return { path: posix, startLine: a, endLine: end, totalLines: all.length, text: all.slice(a - 1, end).join('\n') };
}
