/**
 * Tolerant parser for daily files (DESIGN §5). A file is a list of blocks: text, or an entry that
 * starts at `## <Kind>: <title>` and runs to the next heading of level 1-2. Every block keeps its
 * raw text, so serialising an unchanged file gives the same bytes whatever a person typed in it.
 */
import { isKind, type Entry, type Field } from './model.js';

export interface EntryBlock {
  type: 'entry';
  entry: Entry;
  raw: string;
  /** 1-based line numbers of the heading and of the block's last non-blank line. */
  startLine: number;
  endLine: number;
}

export interface TextBlock {
  type: 'text';
  raw: string;
  startLine: number;
}

export type Block = EntryBlock | TextBlock;

// A closing run of #s needs a space before it (CommonMark), so "## Note: Use C#" keeps its "#".
const ENTRY_HEADING = /^##[ \t]+([A-Za-z]+)[ \t]*:[ \t]*(.*?)(?:[ \t]+#+)?[ \t]*$/;
const BLOCK_END = /^#{1,2}(?:[ \t]|$)/;
const FENCE = /^[ \t]{0,3}(`{3,}|~{3,})/;
const FIELD = /^([ \t]*)[-*+][ \t]+([A-Za-z_][\w.-]*)[ \t]*:(?:[ \t]+(.*?))?[ \t]*$/;

/** Code fences, line by line: a fence closes at a run of its character at least as long (CommonMark). */
class Fences {
  /** The fence open after the lines seen so far: its marker and the 0-based index of its line. */
  open: { marker: string; line: number } | null = null;

  /** Whether line `i` opens, closes or is inside a fenced block. */
  covers(line: string, i: number): boolean {
    const f = FENCE.exec(line);
    if (this.open) {
      if (f && f[1]!.startsWith(this.open.marker)) this.open = null;
      return true;
    }
    if (f) this.open = { marker: f[1]!, line: i };
    return !!f;
  }
}

/**
 * The code fence left open at the end of `text`: its 1-based line and marker. CommonMark reads
 * everything after it as code, so entries there are invisible to every reader.
 */
export function unclosedFence(text: string): { line: number; marker: string } | undefined {
  const fences = new Fences();
  splitLines(text.replace(/^\uFEFF/, '')).forEach((line, i) => fences.covers(line, i));
  return fences.open ? { line: fences.open.line + 1, marker: fences.open.marker } : undefined;
}

/** Splits text into lines that keep their line endings, so joining them restores the text. */
export function splitLines(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

function entryKind(line: string): { kind: string; title: string } | undefined {
  const m = ENTRY_HEADING.exec(line.replace(/\r?\n$/, ''));
  if (!m) return undefined;
  const kind = m[1]!.charAt(0).toUpperCase() + m[1]!.slice(1).toLowerCase();
  return isKind(kind) || kind === 'Arch' ? { kind: kind === 'Arch' ? 'Architecture' : kind, title: m[2]! } : undefined;
}

/** An entry body's fields; `lineOf[i]` is the index in `lines` of top-level field `fields[i]`. */
function readEntryFields(lines: string[]): { fields: Field[]; lineOf: number[] } {
  const fields: Field[] = [];
  const lineOf: number[] = [];
  let parentIndent = -1;
  const fences = new Fences();
  lines.forEach((rawLine, i) => {
    const line = rawLine.replace(/\r?\n$/, '');
    // A fenced example of an entry is text: its "- id:" lines are not this entry's fields.
    if (fences.covers(line, i)) return;
    const m = FIELD.exec(line);
    if (m) {
      const indent = m[1]!.replace(/\t/g, '  ').length;
      const field: Field = { key: m[2]!, value: m[3] ?? '' };
      const parent = fields[fields.length - 1];
      if (parent && indent > parentIndent && parentIndent >= 0 && parent.value === '') {
        (parent.children ??= []).push(field);
      } else {
        fields.push(field);
        lineOf.push(i);
        parentIndent = indent;
      }
      return;
    }
    const last = fields[fields.length - 1];
    // An indented plain line continues the previous field's value (a wrapped hand edit).
    if (last && /^[ \t]+\S/.test(line) && !line.trim().startsWith('-')) {
      const target = last.children?.length ? last.children[last.children.length - 1]! : last;
      target.value = target.value ? `${target.value}\n${line.trim()}` : line.trim();
    }
  });
  return { fields, lineOf };
}

/**
 * The lines of an entry block holding top-level field `key` (0-based in `block.raw`, the heading
 * being 0), in order: the first is the one getField reads, whatever its indentation, so a status
 * flip edits that line and lint can name a second one.
 */
export function fieldLines(block: EntryBlock, key: string): number[] {
  const { fields, lineOf } = readEntryFields(splitLines(block.raw).slice(1));
  return fields.flatMap((f, i) => (f.key === key ? [lineOf[i]! + 1] : []));
}

const BOM = '\uFEFF';

export function parseBlocks(text: string): Block[] {
  // A byte order mark (Windows editors write one) is a block of its own: the heading after it is an
  // entry, and a job moving or removing that entry leaves the mark at the top of the file.
  if (text.startsWith(BOM)) return [{ type: 'text', raw: BOM, startLine: 1 }, ...parseBlocks(text.slice(1))];
  const lines = splitLines(text);
  const blocks: Block[] = [];
  let cur: { start: number; head?: { kind: string; title: string }; lines: string[] } = { start: 1, lines: [] };
  const fences = new Fences();
  const flush = () => {
    if (!cur.lines.length) return;
    const raw = cur.lines.join('');
    if (!cur.head) {
      blocks.push({ type: 'text', raw, startLine: cur.start });
      return;
    }
    let last = cur.lines.length - 1;
    while (last > 0 && cur.lines[last]!.trim() === '') last--;
    const entry: Entry = {
      kind: cur.head.kind,
      title: cur.head.title,
      fields: readEntryFields(cur.lines.slice(1)).fields,
    };
    blocks.push({ type: 'entry', entry, raw, startLine: cur.start, endLine: cur.start + last });
  };
  lines.forEach((line, i) => {
    if (!fences.covers(line, i) && BLOCK_END.test(line)) {
      flush();
      cur = { start: i + 1, head: entryKind(line), lines: [] };
    }
    cur.lines.push(line);
  });
  flush();
  return blocks;
}

export function entryBlocks(blocks: Block[]): EntryBlock[] {
  return blocks.filter((b): b is EntryBlock => b.type === 'entry');
}

export function serializeBlocks(blocks: Block[]): string {
  return blocks.map((b) => b.raw).join('');
}
