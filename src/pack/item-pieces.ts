/**
 * Each entry's pieces (pieces.ts) in either form, with their token counts, as a ready pack holds the
 * entry: made once per refresh however many scopes take the entry, and kept in `items.json` under a
 * hash of the entry as kept and of the packs' layout (a change of rendering bumps it), so the next refresh
 * redacts and tokenizes only entries new or changed.
 */
import path from 'node:path';
import { neutraliseMarkers } from '../entries/context-markers.js';
import { stampOfTexts } from '../entries/heads-hash.js';
import type { EntryRecord } from '../entries/store.js';
import { redactSecrets } from '../secrets/secrets.js';
import { readDerivedJson, writeDerivedFile } from '../write/atomic.js';
import { kept } from './kept.js';
import { LAYOUT } from './pack-cache-files.js';
import { pieces } from './pieces.js';
import { renderItem } from './render.js';

const ITEMS = 'items.json';
type Counted = Array<[string, number]>;

export class ItemPieces {
  private readonly made = new Map<EntryRecord, Counted>();
  private readonly now = new Map<string, Counted>();

  private constructor(
    private readonly before: Map<string, Counted>,
    private readonly count: (text: string) => number,
  ) {}

  /** `count`: the tokenizer's count of one piece. */
  static read(dir: string, count: (text: string) => number): ItemPieces {
    const before = new Map<string, Counted>();
    // None kept (missing or damaged): every entry's pieces are made.
    const v = readDerivedJson(path.join(dir, ITEMS));
    const isCounted = (c: unknown): c is Counted =>
      Array.isArray(c) && c.every((p) => Array.isArray(p) && typeof p[0] === 'string' && Number.isInteger(p[1]));
    for (const x of Array.isArray(v) ? v : [])
      if (Array.isArray(x) && typeof x[0] === 'string' && isCounted(x[1])) before.set(x[0], x[1]);
    return new ItemPieces(before, count);
  }

  of(record: EntryRecord): Counted {
    const had = this.made.get(record);
    if (had) return had;
    const key = stampOfTexts(String(LAYOUT), JSON.stringify(kept(record)));
    const mine = this.before.get(key) ?? piecesOf(record).map((p): [string, number] => [p, this.count(p)]);
    this.made.set(record, mine);
    this.now.set(key, mine);
    return mine;
  }

  /** `keepBefore`: keep what the last refresh counted too (only some packs were made again). */
  write(dir: string, keepBefore = false): void {
    const out = keepBefore ? new Map([...this.before, ...this.now]) : this.now;
    writeDerivedFile(path.join(dir, ITEMS), JSON.stringify([...out]));
  }
}

/** An entry's pieces in either form, as the whole pack has it (redacted, markers neutralised) and as fit.ts estimates it (redacted), ended by one line break or two. */
function piecesOf(record: EntryRecord): string[] {
  const forms = (['full', 'summary'] as const).map(
    (form) => redactSecrets(renderItem({ record, layer: 1, form })).text,
  );
  const variants = [...new Set(forms.flatMap((t) => [t, neutraliseMarkers(t)]))];
  return [...new Set(variants.flatMap((t) => [...pieces(`${t}\n`), ...pieces(`${t}\n\n`)]))];
}
