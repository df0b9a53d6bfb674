/**
 * Markdown → chunks (DESIGN §6), pure: one chunk per entry, per heading section of other Markdown and
 * per MEMORY.md list item (which records the entry id it links to); long sections and heading-less
 * files become overlapping line windows.
 * Headings come from remark's AST (so a `#` inside a code fence is not a heading) and keep their line
 * positions. Plain files (ATX headings and fences only, which is what memfold writes) take a line
 * scan that gives the same sections at a fraction of the cost (a test holds both paths equal); files
 * with setext headings or HTML blocks, and MEMORY.md (list items), always go through remark; entry fields come from the contract parser (entries/parse.ts), so search and `mem get`
 * never disagree about what an entry says. Front matter (gray-matter) gives title, date and tags.
 */
import { createRequire } from 'node:module';
import type { Root, RootContent } from 'mdast';
import { getField, getSource } from '../../entries/model.js';
import { linkedIds } from '../../entries/id.js';
import { entryBlocks, parseBlocks, splitLines, type EntryBlock } from '../../entries/parse.js';
import type { Chunk, ChunkOptions } from './types.js';
import { lineWindows } from './windows.js';

export const MAX_TEXT = 2000;

// gray-matter and remark take about 130 ms to import: they are loaded only for a file that needs
// them (front matter; MEMORY.md, setext headings, HTML blocks), so most `mem index` runs never do.
type Matter = (text: string) => { data: unknown; content: string; matter: string };
let grayMatter: Matter | undefined;
function matter(text: string): ReturnType<Matter> {
  grayMatter ??= createRequire(import.meta.url)('gray-matter') as Matter;
  return grayMatter(text);
}

// remark's packages are ES modules, required all the same (Node 20.19+ and 22.12+ load ES modules
// with require): the bundles bin/mem.cjs compiles from a code cache may not use import()
// (src/cli/compile-cache.ts).
let remarkParser: ((text: string) => Root) | undefined;
function remark(text: string): Root {
  if (!remarkParser) {
    const require = createRequire(import.meta.url);
    const { unified } = require('unified') as typeof import('unified');
    const remarkParse = (require('remark-parse') as typeof import('remark-parse')).default;
    remarkParser = (md) => unified().use(remarkParse).parse(md);
  }
  return remarkParser(text);
}

/** Above this size remark is skipped: sections come from the line parser alone. */
const REMARK_MAX_BYTES = 2 * 1024 * 1024;

interface Section {
  heading: string | null;
  /** 1-based, inclusive. */
  start: number;
  end: number;
  entry?: EntryBlock;
  item?: boolean;
}

interface FrontMatter {
  title: string | null;
  date: string | null;
  tags: string | null;
  /** Lines taken by the front matter block. */
  lines: number;
}

function frontMatter(text: string): FrontMatter {
  const none = { title: null, date: null, tags: null, lines: 0 };
  if (!text.startsWith('---')) return none;
  try {
    const fm = matter(text);
    const d = fm.data as Record<string, unknown>;
    const str = (v: unknown) => (v instanceof Date ? v.toISOString().slice(0, 10) : v == null ? null : String(v));
    const lines = splitLines(text).length - splitLines(fm.content).length;
    const tags = Array.isArray(d.tags) ? d.tags.join(' ') : str(d.tags);
    // A timestamp's day as written (`2026-11-21T08:00:00+09:00`): its Date in UTC may be the day before.
    const date =
      d.date instanceof Date ? (/^date:[ \t]*(\d{4}-\d{2}-\d{2})/m.exec(fm.matter)?.[1] ?? str(d.date)) : str(d.date);
    return { title: str(d.title), date, tags, lines };
  } catch {
    return none;
  }
}

function headingText(line: string): string {
  return line
    .replace(/^\s{0,3}#{1,6}\s*/, '')
    .replace(/\s+#+\s*$/, '')
    .trim();
}

function sectionsFromAst(tree: Root, lines: string[], listItems: boolean, entries: Map<number, EntryBlock>): Section[] {
  const out: Section[] = [];
  let cur: Section = { heading: null, start: 1, end: 0 };
  const close = (end: number) => {
    cur.end = end;
    if (cur.end >= cur.start) out.push(cur);
  };
  const nodes: RootContent[] = tree.children;
  for (const node of nodes) {
    const start = node.position?.start.line ?? 1;
    const end = node.position?.end.line ?? start;
    // Inside an entry only a level 1-2 heading ends it (as in entries/parse.ts); elsewhere 1-3.
    if (node.type === 'heading' && node.depth <= (cur.entry ? 2 : 3)) {
      close(start - 1);
      cur = { heading: headingText(lines[start - 1] ?? ''), start, end: start, entry: entries.get(start) };
      continue;
    }
    if (listItems && node.type === 'list' && !cur.entry) {
      close(start - 1);
      const heading = cur.heading;
      for (const item of node.children) {
        const s = item.position?.start.line ?? start;
        out.push({ heading, start: s, end: item.position?.end.line ?? s, item: true });
      }
      cur = { heading, start: end + 1, end };
    }
  }
  close(lines.length);
  return out;
}

const ATX = /^ {0,3}(#{1,6})(?:[ \t]|$)/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;
/** Constructs where a line scan could disagree with CommonMark: setext underlines, HTML blocks. */
const RISKY = /^ {0,3}(?:=+|-{2,})[ \t]*$|^ {0,3}<[A-Za-z!?/]/m;

/** The line scan remark's AST would give for plain files (ATX headings, fences): the fast path. */
function sectionsFromHeadings(lines: string[], entries: Map<number, EntryBlock>): Section[] {
  const out: Section[] = [];
  let cur: Section = { heading: null, start: 1, end: 0 };
  let fence: string | null = null;
  lines.forEach((line, i) => {
    const f = FENCE.exec(line);
    if (fence) {
      if (f && f[1]!.startsWith(fence)) fence = null;
      return;
    }
    if (f) {
      fence = f[1]!;
      return;
    }
    const h = ATX.exec(line);
    if (!h || h[1]!.length > (cur.entry ? 2 : 3)) return;
    cur.end = i;
    if (cur.end >= cur.start) out.push(cur);
    cur = { heading: headingText(line), start: i + 1, end: i + 1, entry: entries.get(i + 1) };
  });
  cur.end = lines.length;
  if (cur.end >= cur.start) out.push(cur);
  return out;
}

function sectionsFromLines(body: string, lines: string[]): Section[] {
  const out: Section[] = [];
  for (const b of parseBlocks(body)) {
    const start = b.startLine;
    const n = splitLines(b.raw).length;
    if (b.type === 'entry')
      out.push({ heading: headingText(lines[start - 1] ?? ''), start, end: start + n - 1, entry: b });
    else
      out.push({
        heading: /^#/.test(lines[start - 1] ?? '') ? headingText(lines[start - 1]!) : null,
        start,
        end: start + n - 1,
      });
  }
  return out;
}

/** splitLines(text) without the line endings (`\n`, or `\r\n`; a last line without one keeps a lone `\r`). */
export function textLines(text: string): string[] {
  const lines = text.split('\n');
  const last = lines.pop()!;
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    if (l.charCodeAt(l.length - 1) === 13) lines[i] = l.slice(0, -1);
  }
  if (last !== '') lines.push(last);
  return lines;
}

export function chunkMarkdown(path: string, file: string, opts: ChunkOptions): Chunk[] {
  // Without its byte order mark, so a first heading (or front matter) after one is seen.
  const text = file.replace(/^\uFEFF/, '');
  const fm = frontMatter(text);
  const lines = textLines(text);
  // Blank out the front matter instead of cutting it, so AST line numbers are file line numbers.
  for (let i = 0; i < fm.lines && i < lines.length; i++) lines[i] = '';
  const body = lines.join('\n');
  const entries = new Map(entryBlocks(parseBlocks(body)).map((b) => [b.startLine, b] as const));
  const parser =
    opts.parser ??
    (text.length > REMARK_MAX_BYTES ? 'blocks' : opts.listItems || RISKY.test(body) ? 'remark' : 'headings');
  const sections =
    parser === 'blocks'
      ? sectionsFromLines(body, lines)
      : parser === 'headings'
        ? sectionsFromHeadings(lines, entries)
        : sectionsFromAst(remark(body), lines, opts.listItems, entries);
  const chunks: Chunk[] = [];
  for (const s of sections) {
    const seg = lines.slice(s.start - 1, s.end);
    while (seg.length && !seg[seg.length - 1]!.trim()) seg.pop();
    let start = s.start;
    while (seg.length && !seg[0]!.trim()) {
      seg.shift();
      start++;
    }
    // Blank lines are trimmed at both ends: a section left with a line has text.
    if (!seg.length) continue;
    const e = s.entry?.entry;
    const field = (k: string) => (e ? (getField(e, k) ?? null) : null);
    const group = `${path}#${s.start}`;
    // compound ends an item's first line with the link to its entry (then the ids merged into it, unlinked).
    const cites = s.item ? (linkedIds(lines[s.start - 1] ?? '').at(-1) ?? null) : null;
    for (const w of lineWindows(seg, opts.chunkTokens, opts.overlapTokens)) {
      const slice = seg.slice(w.from, w.to + 1).join('\n');
      chunks.push({
        path,
        startLine: start + w.from,
        endLine: start + w.to,
        heading: s.heading,
        text: slice,
        title: fm.title,
        tags: fm.tags ?? field('tags'),
        entryId: field('id'),
        kind: e?.kind ?? null,
        status: e ? (field('status') ?? 'active') : null,
        date: field('date') ?? fm.date ?? dateFromPath(path),
        scope: field('scope'),
        key: field('key'),
        supersedes: field('supersedes'),
        source: (e && getSource(e)) ?? null,
        cites,
        group,
      });
    }
  }
  return chunks;
}

function dateFromPath(p: string): string | null {
  return /(\d{4}-\d{2}-\d{2})[^/]*$/.exec(p)?.[1] ?? null;
}
