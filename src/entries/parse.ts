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

export function parseEntryFields(lines: string[]): Field[] {
  const fields: Field[] = [];
  let parentIndent = -1;
  let fence: string | null = null;
  for (const rawLine of lines) {
    const line = rawLine.replace(/\r?\n$/, '');
    // A fenced example of an entry is text: its "- id:" lines are not this entry's fields.
    const f = FENCE.exec(line);
    if (fence || f) {
      if (!fence) fence = f![1]!;
      else if (f && f[1]!.startsWith(fence)) fence = null;
      continue;
    }
    const m = FIELD.exec(line);
    if (m) {
      const indent = m[1]!.replace(/\t/g, '  ').length;
      const field: Field = { key: m[2]!, value: m[3] ?? '' };
      const parent = fields[fields.length - 1];
      if (parent && indent > parentIndent && parentIndent >= 0 && parent.value === '') {
        (parent.children ??= []).push(field);
      } else {
        fields.push(field);
        parentIndent = indent;
      }
      continue;
    }
    const last = fields[fields.length - 1];
    // An indented plain line continues the previous field's value (a wrapped hand edit).
    if (last && /^[ \t]+\S/.test(line) && !line.trim().startsWith('-')) {
      const target = last.children?.length ? last.children[last.children.length - 1]! : last;
      target.value = target.value ? `${target.value}\n${line.trim()}` : line.trim();
    }
  }
  return fields;
}

export function parseBlocks(text: string): Block[] {
  const lines = splitLines(text);
  const blocks: Block[] = [];
  let cur: { start: number; head?: { kind: string; title: string }; lines: string[] } = { start: 1, lines: [] };
  let fence: string | null = null;
  const flush = () => {
    if (!cur.lines.length) return;
    const raw = cur.lines.join('');
    if (!cur.head) {
      blocks.push({ type: 'text', raw, startLine: cur.start });
      return;
    }
    let last = cur.lines.length - 1;
    while (last > 0 && cur.lines[last]!.trim() === '') last--;
    const entry: Entry = { kind: cur.head.kind, title: cur.head.title, fields: parseEntryFields(cur.lines.slice(1)) };
    blocks.push({ type: 'entry', entry, raw, startLine: cur.start, endLine: cur.start + last });
  };
  lines.forEach((line, i) => {
    const f = FENCE.exec(line);
    if (fence) {
      if (f && f[1]!.startsWith(fence)) fence = null;
    } else if (f) {
      fence = f[1]!;
    } else if (BLOCK_END.test(line)) {
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
