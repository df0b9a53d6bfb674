/**
 * Decide, don't do: another memory's Markdown (an OpenClaw `MEMORY.md` and `memory/*.md`, or a
 * CLAUDE.md) as items to adopt, pure. An item is a top-level list item (with its wrapped and nested
 * lines) or a paragraph, under the nearest heading. Code fences, HTML comments, front matter and
 * memory memfold itself injected (each `<memfold-context>` pack, from its opening marker to its
 * closing line: ../extract/trust.ts) are not items; a marker mentioned in a sentence is text.
 */
import { stripControl } from '../extract/clean.js';
import { normalise } from '../extract/sentences.js';
import { replaceInjectedPacks } from '../extract/trust.js';
import type { Kind } from '../entries/model.js';

export interface ImportItem {
  text: string;
  heading: string | null;
  startLine: number;
  endLine: number;
}

const MIN_CHARS = 8;

export function importItems(markdown: string): ImportItem[] {
  const lines = replaceInjectedPacks(markdown, (pack) => pack.replace(/[^\r\n]/g, '')).split(/\r?\n/);
  const items: ImportItem[] = [];
  let heading: string | null = null;
  let cur: { lines: string[]; start: number; end: number } | null = null;
  let skip: RegExp | null = null;
  const flush = () => {
    if (!cur) return;
    // Control characters go first (a NUL in a daily file hides the whole day from the index), then
    // what is left is judged: long enough, and more than punctuation (a `----------` rule).
    const text = cur.lines
      .map((l) =>
        stripControl(l)
          .trim()
          .replace(/^(?:[-*+]|\d+[.)])\s+(?:\[[ xX]\]\s+)?/, ''),
      )
      .filter(Boolean)
      .join(' ')
      .trim();
    if (Array.from(text).length >= MIN_CHARS && normalise(text))
      items.push({ text, heading, startLine: cur.start, endLine: cur.end });
    cur = null;
  };
  lines.forEach((line, i) => {
    const n = i + 1;
    if (skip) {
      if (skip.test(line)) skip = null;
      return;
    }
    if (i === 0 && line.trim() === '---') return void (skip = /^---\s*$/);
    if (/^\s*(```|~~~)/.test(line)) return void (flush(), (skip = new RegExp(`^\\s*${line.trim().slice(0, 3)}`)));
    if (/^\s*<!--/.test(line)) return void (flush(), (skip = line.includes('-->') ? null : /-->/));
    const h = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (h) {
      flush();
      heading = stripControl(h[1]!).trim() || null;
      return;
    }
    if (!line.trim()) return void flush();
    const listItem = /^(?:[-*+]|\d+[.)])\s+/.test(line);
    if (listItem || !cur) {
      flush();
      cur = { lines: [line], start: n, end: n };
    } else {
      cur.lines.push(line);
      cur.end = n;
    }
  });
  flush();
  return items;
}

/** CLAUDE.md holds instructions (rules); OpenClaw notes are sorted by their wording. */
export function kindFor(source: 'openclaw' | 'claude-md', text: string): Kind {
  if (source === 'claude-md') return 'Rule';
  if (/\b(?:we decided|decided to|decision|we chose|going with|switched to)\b|决定|決定/i.test(text)) return 'Decision';
  if (/\bi\s+(?:prefer|like\s+to)\b|我?(?:比较|比較|更)?(?:喜欢|喜歡|偏好)/i.test(text)) return 'Preference';
  if (/\b(?:always|never|must|do not|don't|rule)\b|必须|必須|不要|规定|規定/i.test(text)) return 'Rule';
  return 'Note';
}
