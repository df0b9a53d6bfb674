/**
 * Fitting a context pack into a token budget, pure apart from the token counter it is given.
 * Layer 0 (core) is always whole and counted first. Then, in order (scope layer, then query layer),
 * each item is added as a summary while the pack still fits; then items are upgraded to full entries,
 * in the same order, while it still fits; evidence last, so it never displaces an item. So a roomy
 * budget gives full entries, a tight one summaries.
 *
 * Each choice is made on an estimate (the core text's count plus each item's own count, items and
 * headings counted once each, not the whole pack again per choice: that was quadratic and took most
 * of a session start), then the exact text is counted and, while it is over the budget, the last
 * item gives up its evidence, its full form, or its place. So the pack never exceeds the budget and
 * the reported token count is always the count of the exact text returned.
 */
import type { EntryRecord } from '../entries/store.js';
import type { Layers } from './select.js';
import { renderItem, renderPack, sectionHeading, type PackHeadings, type PackItem } from './render.js';
import { redactSecrets } from '../secrets/secrets.js';

export interface Omitted {
  id: string;
  layer: 1 | 2;
  reason: 'budget';
}

export interface Pack {
  text: string;
  tokens: number;
  items: PackItem[];
  omitted: Omitted[];
  /** Layer 0 alone is over the budget (it is included whole anyway). */
  overBudget: boolean;
}

/** Items and headings counted once each, as they render (redacted), plus a line break each. */
function estimator(items: PackItem[], headings: PackHeadings, count: (text: string) => number): () => number {
  const core = count(renderPack(items, headings));
  const seen = new Map<string, number>();
  const once = (text: string) => seen.get(text) ?? (seen.set(text, count(redactSecrets(text).text) + 1), seen.get(text)!);
  return () => {
    let n = core;
    const layers = new Set<1 | 2>();
    for (const i of items) {
      if (i.layer === 0) continue;
      layers.add(i.layer);
      n += once(renderItem(i));
    }
    for (const l of layers) n += once(`\n${sectionHeading(l, headings)}`);
    return n;
  };
}

export function fitPack(layers: Layers, budget: number, headings: PackHeadings, count: (text: string) => number, evidence?: Map<string, string[]>): Pack {
  const items: PackItem[] = layers.core.map((record) => ({ record, layer: 0, form: 'full' }));
  const estimate = estimator(items, headings, count);
  const overBudget = estimate() > budget;
  const omitted: Omitted[] = [];
  const rest: Array<{ record: EntryRecord; layer: 1 | 2 }> = [
    ...layers.scope.map((record) => ({ record, layer: 1 as const })),
    ...layers.query.map((record) => ({ record, layer: 2 as const })),
  ];
  for (const r of rest) {
    items.push({ ...r, form: 'summary' });
    if (estimate() > budget) {
      items.pop();
      omitted.push({ id: r.record.id, layer: r.layer, reason: 'budget' });
    }
  }
  for (const item of items) {
    if (item.layer === 0) continue;
    item.form = 'full';
    if (estimate() > budget) item.form = 'summary';
  }
  for (const item of items) {
    const ev = item.layer === 2 ? evidence?.get(item.record.id) : undefined;
    for (let n = ev?.length ?? 0; n > 0; n--) {
      item.evidence = ev!.slice(0, n);
      if (estimate() <= budget) break;
      delete item.evidence;
    }
  }
  let text = renderPack(items, headings);
  let tokens = count(text);
  while (tokens > budget && items.length && items.at(-1)!.layer !== 0) {
    const last = items.at(-1)!;
    if (last.evidence) delete last.evidence;
    else if (last.form === 'full') last.form = 'summary';
    else {
      items.pop();
      omitted.push({ id: last.record.id, layer: last.layer as 1 | 2, reason: 'budget' });
    }
    text = renderPack(items, headings);
    tokens = count(text);
  }
  return { text, tokens, items, omitted, overBudget };
}
