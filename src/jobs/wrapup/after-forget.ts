/**
 * A wrap-up `mem forget --hard` took lines out of still reads as wrapup writes one: a section left
 * without a bullet gets `- (none)`, and a summary that was memfold's own (untouched) gets its
 * `content_sha256` updated, so the next wrapup of that day does not take the removal for a person's
 * edit and write a `-v2` beside it. A summary a person had edited keeps the hash it had. Pure.
 */
import { toLf } from '../../write/line-endings.js';
import { isUntouched, sha256, splitFrontMatter } from './render.js';
import { SECTION_TITLES } from './sections.js';

const SECTION = new Set(SECTION_TITLES.map((t) => `## ${t}`));

export function afterForget(before: string, after: string): string {
  const lines = after.split('\n');
  const out: string[] = [];
  lines.forEach((line, i) => {
    out.push(line);
    if (!SECTION.has(line.replace(/\r$/, ''))) return;
    const next = lines.slice(i + 1).find((l) => l.trim() !== '');
    if (next === undefined || /^#{1,2}\s/.test(next)) out.push(line.endsWith('\r') ? '- (none)\r' : '- (none)');
  });
  const filled = out.join('\n');
  if (!isUntouched(before)) return filled;
  const { claimed, body } = splitFrontMatter(filled);
  return claimed ? filled.replace(`content_sha256: ${claimed}`, `content_sha256: ${sha256(toLf(body))}`) : filled;
}
