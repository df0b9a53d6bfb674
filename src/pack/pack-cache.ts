/**
 * Packs kept ready (issue 28): for every scope the heads hold, and for a folder of no known scope,
 * the entries a session-start pack without a query takes (select.ts, on the heads), whole, and the
 * token count of every piece of text a pack of them is made of (pieces.ts), in
 * `.mem/entries/packs/`. So `mem context` neither parses daily files nor loads the tokenizer.
 * Built by the index refresh right after the heads (search/update.ts), from the heads it just
 * checked; stamped with their digest and MEMORY.md's text.
 *
 * Invariant: a read uses a scope's file only when its stamp is the heads' digest of memory/ as it is
 * now and MEMORY.md's text as read now, so it gives the very entries the heads would; a piece a pack
 * has that was not counted ahead (another budget, a secret redacted across two items) is counted by
 * the tokenizer. Never required: anything missing, damaged or stale sends the read to the heads.
 * Written only by a refresh, never by a read (DESIGN invariant 4).
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Field } from '../entries/model.js';
import { headsFor } from '../entries/heads.js';
import { currentHeads, headRows, type CurrentHeads } from '../entries/heads-store.js';
import { neutraliseMarkers } from '../entries/context-markers.js';
import { pinnedText, readCurrentMemory } from '../entries/memory-md.js';
import { scopeKey } from '../entries/scope-key.js';
import type { EntryRecord } from '../entries/store.js';
import { wholeRecords } from '../entries/table-store.js';
import { redactSecrets } from '../secrets/secrets.js';
import { writeDerivedFile } from '../write/atomic.js';
import { pieceCounter, pieces } from './pieces.js';
import { renderItem, renderPack, sectionHeading, type PackItem } from './render.js';
import { selectLayers, type Layers } from './select.js';
import { countTokens } from './tokens.js';

const LAYOUT = 1;
const DIR = 'packs';
const META = 'meta.json';
/** The file of a folder whose scope the heads do not hold: layer 0 only. */
const ELSEWHERE = '';

/** A whole entry as kept: where it is and what renders it (kind, title, every field). */
type Kept = [file: string, startLine: number, endLine: number, kind: string, title: string, fields: Field[]];

interface ScopeFile {
  stamp: string;
  core: Kept[];
  scope: Kept[];
  counts: Array<[string, number]>;
}

export interface ReadyPack {
  /** The layers as select.ts gives them, entries whole; no query layer. */
  layers: Layers;
  /** Counts of pieces a pack of them has: what pieceCounter starts from. */
  counts: Map<string, number>;
}

const ITEMS = 'items.json';
const scopeFile = (scope: string) => `s-${createHash('sha1').update(`scope\0${scope}`).digest('hex').slice(0, 16)}.json`;
const stampOf = (heads: CurrentHeads, memoryText: string | undefined) => createHash('sha1').update(`${LAYOUT}\0${heads.digest}\0${memoryText ?? '\0none'}`).digest('hex');

const kept = (r: EntryRecord): Kept => [r.file, r.block.startLine, r.block.endLine, r.entry.kind, r.entry.title, r.entry.fields];

function isField(x: unknown): x is Field {
  const f = x as Field;
  return !!f && typeof f.key === 'string' && typeof f.value === 'string' && (f.children === undefined || (Array.isArray(f.children) && f.children.every(isField)));
}

function isKept(x: unknown): x is Kept {
  return Array.isArray(x) && x.length === 6 && typeof x[0] === 'string' && Number.isInteger(x[1]) && Number.isInteger(x[2])
    && typeof x[3] === 'string' && typeof x[4] === 'string' && Array.isArray(x[5]) && x[5].every(isField);
}

/** A record from what was kept: whole for rendering (raw text left out: a pack prints fields, not raw). */
function recordOf([file, startLine, endLine, kind, title, fields]: Kept): EntryRecord {
  const entry = { kind, title, fields };
  return { file, id: fields.find((f) => f.key === 'id')?.value ?? '', entry, block: { type: 'entry', entry, raw: '', startLine, endLine } };
}

function readScopeFile(file: string): ScopeFile | undefined {
  try {
    const v = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<ScopeFile>;
    const ok = typeof v.stamp === 'string' && Array.isArray(v.core) && v.core.every(isKept) && Array.isArray(v.scope) && v.scope.every(isKept)
      && Array.isArray(v.counts) && v.counts.every((c) => Array.isArray(c) && typeof c[0] === 'string' && Number.isInteger(c[1]));
    return ok ? (v as ScopeFile) : undefined;
  } catch {
    return undefined;
  }
}

/** The ready pack of `scope` when it was built from memory/ and MEMORY.md as they are now; else undefined. */
export function readReadyPack(workspace: string, tableDir: string, mappingKey: string, scope: string | undefined, memoryText: string | undefined): ReadyPack | undefined {
  const heads = currentHeads(workspace, tableDir, mappingKey);
  if (!heads) return undefined;
  const key = scope?.trim() && heads.scopes.includes(scopeKey(scope)) ? scopeKey(scope) : ELSEWHERE;
  const got = readScopeFile(path.join(workspace, tableDir, DIR, scopeFile(key)));
  if (!got || got.stamp !== stampOf(heads, memoryText)) return undefined;
  return { layers: { core: got.core.map(recordOf), scope: got.scope.map(recordOf), query: [] }, counts: new Map(got.counts) };
}

/**
 * Builds the ready packs from `heads` (what the refresh just made) when they or MEMORY.md changed
 * since the last build. Counts already made are reused, so a refresh tokenizes only new text.
 */
export async function refreshReadyPacks(workspace: string, tableDir: string, heads: CurrentHeads | undefined): Promise<void> {
  const dir = path.join(workspace, tableDir, DIR);
  const memoryText = await fs.promises.readFile(path.join(workspace, 'MEMORY.md'), 'utf8').catch(() => undefined);
  const stamp = heads && stampOf(heads, memoryText);
  const meta = readScopeMeta(dir);
  if (stamp && meta === stamp) return;
  const known = new Map<string, number>();
  const itemPieces = ItemPieces.read(dir);
  if (fs.existsSync(dir)) {
    for (const name of fs.readdirSync(dir)) if (name.startsWith('s-')) for (const [p, n] of readScopeFile(path.join(dir, name))?.counts ?? []) known.set(p, n);
    fs.rmSync(dir, { recursive: true, force: true });
  }
  if (!heads || !stamp) return;
  const memory = readCurrentMemory(memoryText);
  const pinned = pinnedText(memoryText);
  const whole = wholeRecords(workspace);
  const count = pieceCounter(known, countTokens, true);
  const files: Array<[string, ScopeFile]> = [];
  for (const scope of [...heads.scopes, ELSEWHERE]) {
    const rows = headRows(workspace, tableDir, heads, scope || undefined);
    const chosen = rows && headsFor(rows, heads.cited, memory.citedIds);
    if (!chosen) return;
    const picked = selectLayers(chosen.records, { scope: scope || undefined, promoted: chosen.promoted, hitIds: [] });
    const layers: Layers = { core: await Promise.all(picked.core.map(whole)), scope: await Promise.all(picked.scope.map(whole)), query: [] };
    files.push([scope, { stamp, core: layers.core.map(kept), scope: layers.scope.map(kept), counts: countsOf(layers, scope, pinned, count, itemPieces) }]);
  }
  fs.mkdirSync(dir, { recursive: true });
  for (const [scope, file] of files) writeDerivedFile(path.join(dir, scopeFile(scope)), JSON.stringify(file));
  itemPieces.write(dir);
  writeDerivedFile(path.join(dir, META), JSON.stringify({ layout: LAYOUT, stamp }));
}

function readScopeMeta(dir: string): string | undefined {
  try {
    const v = JSON.parse(fs.readFileSync(path.join(dir, META), 'utf8')) as { layout?: unknown; stamp?: unknown };
    return v.layout === LAYOUT && typeof v.stamp === 'string' ? v.stamp : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The pieces a pack of these layers is made of: its fixed lines and headings (from a pack of one
 * entry in each form per layer), and each entry in either form ended by one or two line breaks, as it
 * stands inside a pack and as fit.ts estimates it. `itemPieces` keeps an entry's pieces across scopes.
 */
function countsOf(layers: Layers, scope: string, pinned: string, count: (text: string) => number, itemPieces: ItemPieces): Array<[string, number]> {
  const texts: string[] = [];
  const headings = { ...(scope ? { scope } : {}), ...(pinned ? { pinned } : {}) };
  // Each layer's first entry in both forms, in both orders: what lies around the pinned text and the headings.
  const sample = (forms: Array<'full' | 'summary'>) => (list: EntryRecord[], layer: 0 | 1): PackItem[] => (list[0] ? forms.map((form) => ({ record: list[0]!, layer, form })) : []);
  for (const at of [sample(['summary', 'full']), sample(['full', 'summary'])]) texts.push(renderPack([...at(layers.core, 0), ...at(layers.scope, 1)], headings));
  // Nothing yet, with and without what an empty pack says (what fit.ts's estimate starts from).
  texts.push(renderPack([], headings), renderPack([], headings, false));
  for (const layer of [0, 1] as const) texts.push(`\n${sectionHeading(layer, headings)}\n`);
  const out = new Map<string, number>();
  for (const p of texts.flatMap(pieces)) out.set(p, count(p));
  for (const record of [...layers.core, ...layers.scope]) for (const p of itemPieces.of(record)) out.set(p, count(p));
  return [...out];
}

/** Each entry's pieces, by a hash of the entry as kept: made once per refresh, and kept in items.json for the next. */
class ItemPieces {
  private readonly made = new Map<EntryRecord, string[]>();
  private readonly now = new Map<string, string[]>();

  constructor(private readonly before: Map<string, string[]>) {}

  static read(dir: string): ItemPieces {
    const before = new Map<string, string[]>();
    try {
      const v = JSON.parse(fs.readFileSync(path.join(dir, ITEMS), 'utf8')) as unknown;
      if (Array.isArray(v)) for (const x of v) if (Array.isArray(x) && typeof x[0] === 'string' && Array.isArray(x[1]) && x[1].every((p: unknown) => typeof p === 'string')) before.set(x[0], x[1]);
    } catch {
      // None kept: every entry's pieces are made.
    }
    return new ItemPieces(before);
  }

  of(record: EntryRecord): string[] {
    const had = this.made.get(record);
    if (had) return had;
    const key = createHash('sha1').update(JSON.stringify(kept(record))).digest('base64');
    const mine = this.before.get(key) ?? piecesOf(record);
    this.made.set(record, mine);
    this.now.set(key, mine);
    return mine;
  }

  write(dir: string): void {
    writeDerivedFile(path.join(dir, ITEMS), JSON.stringify([...this.now]));
  }
}

/** An entry's pieces in either form, as the whole pack has it (redacted, markers neutralised) and as fit.ts estimates it (redacted), ended by one line break or two. */
function piecesOf(record: EntryRecord): string[] {
  const forms = (['full', 'summary'] as const).map((form) => redactSecrets(renderItem({ record, layer: 1, form })).text);
  const variants = [...new Set(forms.flatMap((t) => [t, neutraliseMarkers(t)]))];
  return [...new Set(variants.flatMap((t) => [...pieces(`${t}\n`), ...pieces(`${t}\n\n`)]))];
}
