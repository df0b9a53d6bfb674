/**
 * MEMORY.md as compound writes it: the generator marker, the pinned blocks byte for byte, then the
 * items by section (Active decisions grouped by scope), each citing its entry id with a link that
 * opens the entry, then "Where to look". memory-md.ts reads back what this writes.
 */
import { getField, type Entry } from '../entries/model.js';
import { oneLine } from '../entries/render.js';
import { clip } from '../extract/sentences.js';
import { GENERATED, SECTION_ORDER, type SectionName, type WrittenItem } from '../entries/memory-md.js';

export interface MemoryItem {
  id: string;
  alsoIds: string[];
  file: string;
  entry: Entry;
  section: SectionName;
  /** Summary lines (1-5); default: title and conclusion on one line. */
  summary: string[];
}

export function sectionFor(entry: Entry): SectionName {
  const key = getField(entry, 'key') ?? '';
  if (key.startsWith('pref:') || entry.kind === 'Preference') return 'Preferences';
  if (/^(task|goal):/.test(key) || entry.kind === 'Goal' || entry.kind === 'Task') return 'Goals and open tasks';
  if (entry.kind === 'Rule' || /^(true|yes|1)$/i.test(getField(entry, 'core') ?? '')) return 'Core rules';
  if (entry.kind === 'Note' || entry.kind === 'Lesson') return 'Notes';
  return 'Active decisions';
}

export function defaultSummary(entry: Entry): string[] {
  const title = oneLine(entry.title);
  const conclusion = oneLine(getField(entry, 'conclusion') ?? '');
  if (!conclusion) return [title];
  return [
    conclusion.toLowerCase().startsWith(title.toLowerCase())
      ? clip(conclusion, 240)
      : `${title}: ${clip(conclusion, 200)}`,
  ];
}

/** GitHub's heading anchor for `## Kind: Title`, so the link opens the entry in a browser. */
export function anchor(entry: Entry): string {
  return `${entry.kind}: ${oneLine(entry.title)}`
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function renderItem(item: MemoryItem): string[] {
  const [first = '', ...rest] = item.summary;
  const cite = [item.id, ...item.alsoIds]
    .map((id, i) => (i ? id : `[${id}](${item.file}#${anchor(item.entry)})`))
    .join(', ');
  return [`- ${first} (${cite})`, ...rest.map((l) => `  ${l}`)];
}

export interface RenderInput {
  weekLabel: string;
  inputKey: string;
  pinned: string[];
  /** Items of the current MEMORY.md kept as written, each first in its section (and scope). */
  kept: WrittenItem[];
  items: MemoryItem[];
  whereToLook: string[];
}

export function renderMemory(input: RenderInput): string {
  const out: string[] = [
    '# MEMORY',
    '',
    `${GENERATED} by memfold compound · ${input.weekLabel} · rewritten weekly: edit only between the pinned markers · input ${input.inputKey} -->`,
    'Hot memory for agent sessions, rebuilt by `mem compound` from `memory/`. Every item cites its entry id (`mem get <id>`).',
    '',
  ];
  for (const block of input.pinned) out.push(...block.replace(/\n$/, '').split('\n'), '');
  const rows = [
    ...input.kept,
    ...input.items.map((i) => ({
      section: i.section,
      scope: getField(i.entry, 'scope') ?? 'general',
      lines: renderItem(i),
    })),
  ];
  for (const section of SECTION_ORDER) {
    const items = rows.filter((i) => i.section === section);
    if (!items.length) continue;
    out.push(`## ${section}`);
    if (section === 'Active decisions') {
      const scopes = [...new Set(items.map((i) => i.scope))].sort((a, b) =>
        a === 'general' ? -1 : b === 'general' ? 1 : a.localeCompare(b),
      );
      for (const scope of scopes) {
        if (scopes.length > 1) out.push(`### ${scope}`);
        for (const i of items.filter((x) => x.scope === scope)) out.push(...i.lines);
      }
    } else for (const i of items) out.push(...i.lines);
    out.push('');
  }
  out.push('## Where to look', ...input.whereToLook.map((l) => `- ${l}`));
  return out.join('\n') + '\n';
}
