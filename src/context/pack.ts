/**
 * Fitting a context pack into a token budget, pure apart from the token counter it is given.
 * Layer 0 (core) is always whole and counted first. Then, in order (scope layer, then query layer),
 * each item is added as a summary while the pack still fits; then items are upgraded to full entries,
 * in the same order, while it still fits. So a roomy budget gives full entries, a tight one summaries,
 * and the reported token count is always the count of the exact text returned.
 */
import type { EntryRecord } from '../entries/store.js';
import type { Layers } from './select.js';
import { renderPack, type PackHeadings, type PackItem } from './render.js';

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

export function fitPack(layers: Layers, budget: number, headings: PackHeadings, count: (text: string) => number, evidence?: Map<string, string[]>): Pack {
  const items: PackItem[] = layers.core.map((record) => ({ record, layer: 0, form: 'full' }));
  const measure = () => count(renderPack(items, headings));
  let tokens = measure();
  const overBudget = tokens > budget;
  const omitted: Omitted[] = [];
  const rest: Array<{ record: EntryRecord; layer: 1 | 2 }> = [
    ...layers.scope.map((record) => ({ record, layer: 1 as const })),
    ...layers.query.map((record) => ({ record, layer: 2 as const })),
  ];
  for (const r of rest) {
    const item: PackItem = { ...r, form: 'summary' };
    items.push(item);
    const t = measure();
    if (t <= budget) tokens = t;
    else {
      items.pop();
      omitted.push({ id: r.record.id, layer: r.layer, reason: 'budget' });
    }
  }
  for (const item of items) {
    if (item.layer === 0) continue;
    item.form = 'full';
    const t = measure();
    if (t <= budget) tokens = t;
    else item.form = 'summary';
  }
  // Evidence last, so it never displaces an item: all excerpts of an item, else one, else none.
  for (const item of items) {
    const ev = item.layer === 2 ? evidence?.get(item.record.id) : undefined;
    for (let n = ev?.length ?? 0; n > 0; n--) {
      item.evidence = ev!.slice(0, n);
      const t = measure();
      if (t <= budget) {
        tokens = t;
        break;
      }
      delete item.evidence;
    }
  }
  const text = renderPack(items, headings);
  return { text, tokens: count(text), items, omitted, overBudget };
}
