/**
 * The text of a context pack (DESIGN §8), pure. It is wrapped in `<memfold-context>` … so microsync
 * never extracts memory it injected itself (the trust boundary cuts it out), and every item cites its
 * id and `path:lines` so an agent can say where a statement came from and open it with `mem get`.
 * Nothing between the markers can be a marker: an entry, an excerpt or a query quoting
 * `</memfold-context>` once closed the pack early, and microsync learned the rest of it again.
 * And no secret: a pack is sent to an agent (DESIGN §8), and a key pasted by hand into a memory file
 * was never redacted on write; the whole text passes redactSecrets, so the budget counts what is sent.
 */
import { getField, type Field } from '../entries/model.js';
import { oneLine } from '../entries/render.js';
import type { EntryRecord } from '../entries/store.js';
import { redactSecrets } from '../secrets/secrets.js';
import { CONTEXT_CLOSE, CONTEXT_OPEN, neutraliseMarkers } from '../entries/context-markers.js';

export type Form = 'full' | 'summary';

export interface PackItem {
  record: EntryRecord;
  layer: 0 | 1 | 2;
  form: Form;
  /** `--evidence`: short excerpts of the transcript turns the entry was made from (layer 2 only). */
  evidence?: string[];
}

export interface PackHeadings {
  scope?: string;
  query?: string;
  /** MEMORY.md's pinned text, verbatim: first in layer 0, always whole. */
  pinned?: string;
}

/** What an empty pack says: how to fill the memory. */
export const EMPTY = [
  'No memories for this session yet. To fill them: `mem microsync --since all` learns from the transcripts of',
  'the sources in mem.config.json (see `mem init --detect`), and `mem remember "…"` adds one by hand.',
].join('\n');

/**
 * The o200k_base token count of a pack with no item and no pinned text (EMPTY under the header: the
 * same text whatever the scope or query), so an empty workspace's session start never loads the
 * tokenizer (about 0.2 s). test/context-fit.test.ts counts it again.
 */
export const EMPTY_PACK_TOKENS = 96;

const cite = (r: EntryRecord) => `${r.id} · ${r.file}:${r.block.startLine}-${r.block.endLine}`;

/**
 * What a full item leaves out: `supersedes` names an entry no longer in force (a pointer the agent
 * should not follow), and the provenance and bookkeeping fields (source, confidence, key, scope, …)
 * tell an agent nothing it acts on while costing about half of an item's tokens; the citation opens
 * them (`mem get <id>`). A conclusion that only repeats the title is left out too.
 */
const HIDDEN = new Set([
  'id',
  'status',
  'supersedes',
  'source',
  'confidence',
  'origin',
  'confirmed',
  'key',
  'scope',
  'core',
  'weight',
  'refs',
  'class',
  'timestamp',
]);

function fieldLine(f: Field): string {
  const value = f.children?.length
    ? f.children.map((c) => `${c.key}=${oneLine(c.value)}`).join(', ')
    : oneLine(f.value);
  return `- ${f.key}: ${value}`;
}

/**
 * The whole entry as an agent reads it: heading, citation, what it says (date, why, finding,
 * conclusion, impact, a task's state, …); an agent's proposal no person confirmed says so.
 */
export function renderFull(r: EntryRecord): string {
  const title = oneLine(r.entry.title);
  const shown = r.entry.fields.filter(
    (f) => !HIDDEN.has(f.key) && !(f.key === 'conclusion' && oneLine(f.value) === title),
  );
  const unconfirmed = getField(r.entry, 'origin') === 'agent' && !getField(r.entry, 'confirmed');
  return [
    `### ${r.entry.kind}: ${title}`,
    `(${cite(r)})`,
    ...shown.map(fieldLine),
    ...(unconfirmed ? ['- origin: agent, not confirmed by a person'] : []),
  ].join('\n');
}

/** Title and conclusion on one line, with the citation. */
export function renderSummary(r: EntryRecord): string {
  const conclusion = oneLine(getField(r.entry, 'conclusion') ?? '');
  const title = oneLine(r.entry.title);
  return `- ${r.entry.kind}: ${title}${conclusion && conclusion !== title ? ` — ${conclusion}` : ''} (${cite(r)})`;
}

const SECTION: Record<0 | 1 | 2, (h: PackHeadings) => string> = {
  0: () => '## Core (holds in every session)',
  1: (h) => `## Memories for ${h.scope ?? 'this scope'}`,
  2: (h) => `## Related to "${oneLine(h.query ?? '')}"`,
};

/** One item's lines: the entry, full or as a summary, then its evidence excerpts. */
export function renderItem(i: PackItem): string {
  return [
    i.form === 'full' ? renderFull(i.record) : renderSummary(i.record),
    ...(i.evidence ?? []).map((e) => `  > ${oneLine(e)}`),
  ].join('\n');
}

/** A layer's heading line. */
export function sectionHeading(layer: 0 | 1 | 2, h: PackHeadings): string {
  return SECTION[layer](h);
}

/** `emptyNote: false` leaves out what an empty pack says (what an estimate of a pack about to get items starts from). */
export function renderPack(items: PackItem[], h: PackHeadings, emptyNote = true): string {
  const out = [
    '# Memory (memfold)',
    'Long-term memory from earlier sessions. Cite an id when you rely on an item; `mem get <id>` prints the whole entry.',
  ];
  for (const layer of [0, 1, 2] as const) {
    const here = items.filter((i) => i.layer === layer);
    const pinned = layer === 0 ? h.pinned : undefined;
    if (!here.length && !pinned) continue;
    out.push('', SECTION[layer](h));
    if (pinned) out.push('', pinned);
    let prev: Form | undefined;
    for (const i of here) {
      // Full entries are separated by a blank line; consecutive summaries form one list.
      if (i.form === 'full' || prev === 'full') out.push('');
      out.push(renderItem(i));
      prev = i.form;
    }
  }
  if (!items.length && !h.pinned && emptyNote) out.push('', EMPTY);
  return `${CONTEXT_OPEN}\n${neutraliseMarkers(redactSecrets(out.join('\n')).text)}\n${CONTEXT_CLOSE}\n`;
}
