/**
 * Where a wrap-up lands. The day's file is rewritten only while memfold's own last version is still
 * untouched (its body matches the hash in its front matter); a summary a person edited is never
 * overwritten: the new one goes beside it as `-v2` (then `-v3`, ...) with a warning.
 */
import fs from 'node:fs';
import path from 'node:path';
import { MemError } from '../../core/errors.js';
import { toLf } from '../../write/line-endings.js';
import { inputKeyOf, isUntouched, renderWrapup, volumeName, type RenderedFile, type WrapupDoc } from './render.js';

export const SUMMARIES_DIR = 'second-brain/summaries';
const MAX_VARIANTS = 50;

export interface Placement {
  variant: number;
  files: RenderedFile[];
  /** Files that already hold exactly these bytes. */
  unchanged: string[];
  /** Hand-edited files kept as they are (workspace-relative). */
  keptEdited: string[];
  /** What each of `files` held when placed (line endings as LF; undefined: absent): written only over that. */
  seen: Array<string | undefined>;
}

function read(abs: string): string | undefined {
  try {
    return fs.readFileSync(abs, 'utf8');
  } catch {
    return undefined;
  }
}

/**
 * WRITE_FAILED when `second-brain` or `second-brain/summaries` is a file: the atomic writer's
 * mkdir would otherwise end the run with a raw EEXIST instead of the one line README promises.
 */
export function assertSummariesFolder(workspace: string, file: string): void {
  for (const rel of ['second-brain', SUMMARIES_DIR]) {
    const stat = fs.statSync(path.join(workspace, rel), { throwIfNoEntry: false });
    if (stat && !stat.isDirectory()) {
      throw new MemError(
        'WRITE_FAILED',
        `cannot write ${SUMMARIES_DIR}/${file}: ${rel} is a file, not a folder; nothing was written`,
      );
    }
  }
}

export function placeWrapup(workspace: string, doc: WrapupDoc, maxLines: number): Placement {
  const keptEdited: string[] = [];
  for (let variant = 1; variant <= MAX_VARIANTS; variant++) {
    const files = renderWrapup(doc, variant, maxLines);
    // Compared with line endings normalised: a CRLF checkout of the same bytes is neither edited nor rewritten.
    const current = files
      .map((f) => read(path.join(workspace, SUMMARIES_DIR, f.name)))
      .map((t) => (t === undefined ? t : toLf(t)));
    const edited = files.filter(
      (f, i) => current[i] !== undefined && current[i] !== f.text && !isUntouched(current[i]!),
    );
    if (edited.length) {
      keptEdited.push(...edited.map((f) => `${SUMMARIES_DIR}/${f.name}`));
      continue;
    }
    const unchanged = files.filter((f, i) => current[i] === f.text).map((f) => `${SUMMARIES_DIR}/${f.name}`);
    return { variant, files, unchanged, keptEdited, seen: current };
  }
  throw new Error(`${doc.day}: ${MAX_VARIANTS} hand-edited wrap-up variants already exist in ${SUMMARIES_DIR}`);
}

/**
 * The files of an untouched wrap-up of `day` made from the same input, if one exists. An LLM answer
 * is not reproducible, so wrapup keeps that file instead of asking again (DESIGN §9.2).
 */
export function sameInputWrapup(workspace: string, day: string, key: string): string[] | undefined {
  for (let variant = 1; variant <= MAX_VARIANTS; variant++) {
    const first = read(path.join(workspace, SUMMARIES_DIR, volumeName(day, variant, 1)));
    if (first === undefined) return undefined;
    if (inputKeyOf(first) !== key || !isUntouched(first)) continue;
    const volumes = Number(/^volumes: (\d+)$/m.exec(first)?.[1] ?? 1);
    return Array.from({ length: volumes }, (_, i) => `${SUMMARIES_DIR}/${volumeName(day, variant, i + 1)}`);
  }
  return undefined;
}
