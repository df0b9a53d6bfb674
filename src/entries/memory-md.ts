/**
 * MEMORY.md as compound reads it (memory-md-render.ts writes it). Hand-written text between
 * `<!-- mem:pinned:start -->` and `<!-- mem:pinned:end -->` is copied byte for byte into every
 * rewrite. A MEMORY.md without memfold's generator marker (hand-written, or an OpenClaw one) is
 * never lost: the first rewrite keeps its whole text as one pinned section — except memfold's own
 * untouched template, whose empty pinned block is all there is to keep. memfold's own output whose
 * marker line was deleted by hand is recognised by its cited items and regenerated, not adopted (that
 * would pin every old item and push MEMORY.md past its line limit). Its items are read back as
 * written, so one whose entry cannot be read (not UTF-8) is kept as it was, not rebuilt or dropped.
 */
import fs from 'node:fs';
import { ID_PREFIXES, linkedIds } from './id.js';
import { MEMORY_EXAMPLE } from '../workspace/templates.js';

export const PINNED_START = '<!-- mem:pinned:start -->';
export const PINNED_END = '<!-- mem:pinned:end -->';
export const GENERATED = '<!-- mem:generated';

export interface CurrentMemory {
  exists: boolean;
  generated: boolean;
  /** Pinned blocks, markers included, exactly as found. */
  pinned: string[];
  /** A hand-written file adopted whole as a pinned block (its line count), or null. */
  adoptedLines: number | null;
  /** Entry ids the current file cites (for promotion/demotion in the weekly log). */
  citedIds: string[];
  /** memfold's items in it, as written (none in a file adopted whole). */
  items: WrittenItem[];
  /** memfold's own output whose generator marker line was deleted by hand, recognised by its items. */
  markerLost?: boolean;
  /** The input key the generator marker records (see plan.ts inputKey), when there is one. */
  inputKey?: string;
}

/**
 * What a person pinned between the markers, markers left out (for the session-start pack). Only the
 * marked blocks: a hand-written MEMORY.md that compound will adopt whole on its first run is not pinned
 * yet, and may name entries forgotten since.
 */
export function pinnedText(text: string | undefined): string {
  if (text === undefined) return '';
  return pinnedBlocks(text)
    .blocks.map((b) =>
      b
        .split('\n')
        .filter((l) => l.trim() !== PINNED_START && l.trim() !== PINNED_END)
        .join('\n')
        .trim(),
    )
    .filter(Boolean)
    .join('\n\n');
}

function pinnedBlocks(text: string): { blocks: string[]; rest: string } {
  const lines = text.split(/(?<=\n)/);
  const blocks: string[] = [];
  let rest = '';
  let cur: string[] | null = null;
  for (const line of lines) {
    if (cur === null && line.trim() === PINNED_START) cur = [line];
    else if (cur !== null) {
      cur.push(line);
      if (line.trim() === PINNED_END) {
        blocks.push(cur.join(''));
        cur = null;
      }
    } else rest += line;
  }
  // An unclosed marker pins everything after it: better to keep too much than to lose a hand edit.
  if (cur) blocks.push(cur.join('').replace(/\n?$/, '\n') + PINNED_END + '\n');
  return { blocks: blocks.map((b) => (b.endsWith('\n') ? b : b + '\n')), rest };
}

const squash = (s: string) => s.replace(/\s+/g, ' ').trim();

function isTemplate(rest: string): boolean {
  let example = '';
  try {
    example = pinnedBlocks(fs.readFileSync(MEMORY_EXAMPLE, 'utf8')).rest;
  } catch {
    return false;
  }
  return squash(rest) === squash(example);
}

export function readCurrentMemory(text: string | undefined): CurrentMemory {
  if (text === undefined)
    return { exists: false, generated: false, pinned: [], adoptedLines: null, citedIds: [], items: [] };
  const { blocks, rest } = pinnedBlocks(text);
  const citedIds = [...new Set(linkedIds(rest))];
  const inputKey = /^<!-- mem:generated .*· input ([0-9a-f]{16}) -->$/m.exec(rest)?.[1];
  const items = writtenItems(rest);
  if (rest.includes(GENERATED) || isTemplate(rest) || !text.trim())
    return {
      exists: true,
      generated: rest.includes(GENERATED),
      pinned: blocks,
      adoptedLines: null,
      citedIds,
      items,
      ...(inputKey ? { inputKey } : {}),
    };
  const own = withoutOwnLines(rest);
  if (own.items > 0) {
    // Our own output with its marker line deleted by hand: regenerate it; only lines a person added outside the pinned markers are adopted.
    const hand = own.rest.replace(/^\n+/, '').replace(/\n*$/, '\n');
    if (!hand.trim())
      return { exists: true, generated: false, pinned: blocks, adoptedLines: null, citedIds, items, markerLost: true };
    return {
      exists: true,
      generated: false,
      pinned: [...blocks, `${PINNED_START}\n${hand}${PINNED_END}\n`],
      adoptedLines: hand.split('\n').length - 1,
      citedIds,
      items,
      markerLost: true,
    };
  }
  // Not ours: the whole text, minus marker lines that would nest, becomes one pinned block.
  const body = text
    .split('\n')
    .filter((l) => l.trim() !== PINNED_START && l.trim() !== PINNED_END)
    .join('\n')
    .replace(/\n*$/, '\n');
  return {
    exists: true,
    generated: false,
    pinned: [`${PINNED_START}\n${body}${PINNED_END}\n`],
    adoptedLines: body.split('\n').length - 1,
    citedIds,
    items: [],
  };
}

const ITEM = new RegExp(
  String.raw`^- .* \(\[(?:${ID_PREFIXES})-\d{8}-[^\]\s]+\]\(memory\/[^)\s]*\)(?:, (?:${ID_PREFIXES})-\d{8}-\S+?)*\)$`,
  'u',
);
/** An item line's citation: the linked id, then the ids of entries alike enough to share the item. */
const CITES = /\(\[([^\]\s]+)\]\([^)\s]*\)((?:, \S+?)*)\)$/u;
const WHERE = /^- (This week's entries: `memory\/|Daily wrap-ups: `|What changed and why: `memory\/archive\/weekly-)/;

/** A line of MEMORY.md outside pinned blocks: one renderMemory writes (an item's first line, a continuation of it, any other), or one a person added. */
interface ClassifiedLine {
  line: string;
  kind: 'item' | 'more' | 'own' | 'hand';
  section?: SectionName;
  /** The `### ` scope heading of Active decisions the line is under. */
  scope?: string;
}

function classify(text: string): ClassifiedLine[] {
  const out: ClassifiedLine[] = [];
  let section: 'where' | SectionName | null = null;
  let scope: string | undefined;
  let inItem = false;
  for (const line of text.split('\n')) {
    const t = line.trimEnd();
    const ours = section !== null && section !== 'where' ? section : undefined;
    let kind: ClassifiedLine['kind'] = 'hand';
    if (t === '# MEMORY' || t.startsWith('Hot memory for agent sessions, rebuilt by `mem compound`')) kind = 'own';
    else if (/^## /.test(t)) {
      const name = t.slice(3);
      section = (SECTION_ORDER as string[]).includes(name)
        ? (name as SectionName)
        : name === 'Where to look'
          ? 'where'
          : null;
      scope = undefined;
      if (section) kind = 'own';
    } else if (ours && /^### \S/.test(t)) {
      scope = t.slice(4);
      kind = 'own';
    } else if (ours && inItem && /^ {2}\S/.test(line)) kind = 'more';
    else if (ours && ITEM.test(t)) kind = 'item';
    else if (section === 'where' && WHERE.test(t)) kind = 'own';
    else if (!t && section) kind = 'own';
    inItem = kind === 'item' || kind === 'more';
    out.push({ line, kind, ...(ours ? { section: ours } : {}), ...(scope ? { scope } : {}) });
  }
  return out;
}

/**
 * `text` (outside pinned blocks) minus the lines renderMemory writes — title, description, section
 * headings, cited items and their continuation lines, "Where to look" — and how many items it held.
 */
function withoutOwnLines(text: string): { rest: string; items: number } {
  const lines = classify(text);
  return {
    rest: lines
      .filter((l) => l.kind === 'hand')
      .map((l) => l.line)
      .join('\n'),
    items: lines.filter((l) => l.kind === 'item').length,
  };
}

/** An item of the current MEMORY.md as written: kept as it is when its entry cannot be read (plan.ts heldBack). */
export interface WrittenItem {
  /** The ids it cites, the linked one first. */
  ids: string[];
  section: SectionName;
  /** Its `### ` heading in Active decisions; `general` under none (the section then held one scope). */
  scope: string;
  lines: string[];
}

function writtenItems(text: string): WrittenItem[] {
  const items: WrittenItem[] = [];
  for (const { line, kind, section, scope } of classify(text)) {
    const cites = kind === 'item' ? CITES.exec(line.trimEnd())! : undefined;
    if (cites)
      items.push({
        ids: [cites[1]!, ...cites[2]!.split(', ').filter(Boolean)],
        section: section!,
        scope: scope ?? 'general',
        lines: [line],
      });
    else if (kind === 'more') items.at(-1)!.lines.push(line);
  }
  return items;
}

export type SectionName = 'Core rules' | 'Active decisions' | 'Preferences' | 'Goals and open tasks' | 'Notes';
export const SECTION_ORDER: SectionName[] = [
  'Core rules',
  'Active decisions',
  'Preferences',
  'Goals and open tasks',
  'Notes',
];

/** MEMORY.md's lines as limits.memoryLines counts them (a last line without its newline counted). */
export const lineCount = (text: string) => text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
