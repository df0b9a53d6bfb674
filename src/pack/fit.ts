/**
 * Fitting a context pack into a token budget, pure apart from the token counter it is given.
 * Layer 0 (core) is always whole and counted first. Then, in order (scope layer, then query layer),
 * each item is added as a summary while the pack still fits; then items are upgraded to full entries,
 * in the same order, while it still fits; evidence last, so it never displaces an item. So a roomy
 * budget gives full entries, a tight one summaries.
 *
 * Each choice is made on an estimate (the core text's count plus each item's own count, items and
 * headings counted once each, not the whole pack again per choice: that was quadratic and took most
 * of a session start), and on the exact text only when the estimate is within a few tokens of the
 * budget. Then the exact text is counted and, should it still be over, items give up their evidence,
 * then their full form, then their place, last item first. So the pack never exceeds the budget and
 * the reported token count is always the count of the exact text returned.
 */
import type { EntryRecord } from '../entries/store.js';
import type { Layers } from './select.js';
import {
  EMPTY_PACK_TOKENS,
  renderItem,
  renderPack,
  sectionHeading,
  type PackHeadings,
  type PackItem,
} from './render.js';
import { redactSecrets } from '../secrets/secrets.js';

/** A pack's budget when none is asked for, in tokens. */
export const DEFAULT_BUDGET = 2000;

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

/** Items and headings counted once each, as they render (redacted), each with a line break (as pieces.ts cuts a pack). */
function estimator(items: PackItem[], headings: PackHeadings, count: (text: string) => number): () => number {
  const core = count(renderPack(items, headings, false));
  const seen = new Map<string, number>();
  const once = (text: string) =>
    seen.get(text) ?? (seen.set(text, count(`${redactSecrets(text).text}\n`)), seen.get(text)!);
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

export function fitPack(
  layers: Layers,
  budget: number,
  headings: PackHeadings,
  count: (text: string) => number,
  evidence?: Map<string, string[]>,
): Pack {
  if (!layers.core.length && !layers.scope.length && !layers.query.length && !headings.pinned) {
    // Nothing to fit: the empty pack, counted once and for all (render.ts EMPTY_PACK_TOKENS).
    const text = renderPack([], headings);
    return { text, tokens: EMPTY_PACK_TOKENS, items: [], omitted: [], overBudget: EMPTY_PACK_TOKENS > budget };
  }
  const items: PackItem[] = layers.core.map((record) => ({ record, layer: 0, form: 'full' }));
  const estimate = estimator(items, headings, count);
  const overBudget = count(renderPack(items, headings)) > budget;
  // Near the budget the estimate may be a few tokens off either way: there the exact text decides.
  const fits = () => {
    const e = estimate();
    const margin = 16 + 2 * items.length;
    return e + margin < budget || (e - margin <= budget && count(renderPack(items, headings)) <= budget);
  };
  const omitted: Omitted[] = [];
  const rest: Array<{ record: EntryRecord; layer: 1 | 2 }> = [
    ...layers.scope.map((record) => ({ record, layer: 1 as const })),
    ...layers.query.map((record) => ({ record, layer: 2 as const })),
  ];
  for (const r of rest) {
    items.push({ ...r, form: 'summary' });
    if (!fits()) {
      items.pop();
      omitted.push({ id: r.record.id, layer: r.layer, reason: 'budget' });
    }
  }
  for (const item of items) {
    if (item.layer === 0) continue;
    item.form = 'full';
    if (!fits()) item.form = 'summary';
  }
  for (const item of items) {
    const ev = item.layer === 2 ? evidence?.get(item.record.id) : undefined;
    for (let n = ev?.length ?? 0; n > 0; n--) {
      item.evidence = ev!.slice(0, n);
      if (fits()) break;
      delete item.evidence;
    }
  }
  // Over by the exact count: give up evidence first, then full forms, then places, each from the last item.
  const steps = [
    (i: PackItem) => (i.evidence ? (delete i.evidence, true) : false),
    (i: PackItem) => (i.layer !== 0 && i.form === 'full' ? ((i.form = 'summary'), true) : false),
    (i: PackItem) => {
      if (i.layer === 0) return false;
      items.splice(items.indexOf(i), 1);
      omitted.push({ id: i.record.id, layer: i.layer, reason: 'budget' });
      return true;
    },
  ];
  let text = renderPack(items, headings);
  let tokens = count(text);
  for (const step of steps) {
    for (let at = items.length - 1; tokens > budget && at >= 0; at--) {
      if (!step(items[at]!)) continue;
      text = renderPack(items, headings);
      tokens = count(text);
    }
  }
  return { text, tokens, items, omitted, overBudget };
}
