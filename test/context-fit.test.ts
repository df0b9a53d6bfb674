/**
 * Fitting a pack to its budget on estimates (src/pack/fit.ts) chooses what counting the whole
 * pack exactly at every step chose (the quadratic way it replaced, kept here as the reference):
 * the same items in the same forms, for budgets from far too small to roomy, and never over budget.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fitPack } from '../src/pack/fit.js';
import { EMPTY_PACK_TOKENS, renderFull, renderPack, type PackHeadings, type PackItem } from '../src/pack/render.js';
import type { Layers } from '../src/pack/select.js';
import { countTokens } from '../src/pack/tokens.js';
import { TABLE_FIELDS, tableRecord, type Row } from '../src/entries/table.js';

function reference(layers: Layers, budget: number, h: PackHeadings): PackItem[] {
  const items: PackItem[] = layers.core.map((record) => ({ record, layer: 0, form: 'full' }));
  const fits = () => countTokens(renderPack(items, h)) <= budget;
  for (const record of layers.scope) {
    items.push({ record, layer: 1, form: 'summary' });
    if (!fits()) items.pop();
  }
  for (const item of items) {
    if (item.layer === 0) continue;
    item.form = 'full';
    if (!fits()) item.form = 'summary';
  }
  return items;
}

const record = (i: number, kind: string, title: string, conclusion: string) => {
  const fields: Record<string, string> = {
    id: `${kind.toUpperCase()}-20261120-item-${i}`,
    date: '2026-11-20',
    conclusion,
    scope: 'project:shop',
  };
  return tableRecord('memory/2026-11-20.md', [
    kind,
    title,
    3 + 10 * i,
    12 + 10 * i,
    ...TABLE_FIELDS.map((f) => fields[f] ?? null),
  ] as Row);
};

test('the estimate-driven fit picks what exact counting picks, at every budget, never over it', () => {
  const words =
    'deploy staging database migration rollback 部署 数据库 回滚 cache Redis PostgreSQL 迁移 review approvals'.split(
      ' ',
    );
  const scope = Array.from({ length: 14 }, (_, i) =>
    record(
      i,
      i % 3 ? 'Rule' : 'Decision',
      `${words[i % words.length]} rule ${i}: ${words.slice(0, 1 + (i % 7)).join(' ')}`,
      words.slice(i % 5, 5 + (i % 9)).join(' ') + ` (${i})`,
    ),
  );
  const layers: Layers = {
    core: [record(99, 'Rule', 'Every migration needs a rollback script', 'no exceptions')],
    scope,
    query: [],
  };
  const h: PackHeadings = { scope: 'project:shop' };
  let compared = 0;
  for (let budget = 50; budget <= 1400; budget += 7) {
    const got = fitPack(layers, budget, h, countTokens);
    const want = reference(layers, budget, h);
    assert.deepEqual(
      got.items.map((i) => [i.record.id, i.form]),
      want.map((i) => [i.record.id, i.form]),
      `budget ${budget}`,
    );
    assert.equal(got.tokens, countTokens(got.text));
    if (!got.overBudget) assert.ok(got.tokens <= budget, `budget ${budget}: ${got.tokens}`);
    compared++;
  }
  assert.ok(compared > 150);
});

test('a full item shows what the entry says, not its bookkeeping; an unconfirmed agent proposal says so', () => {
  const row = (title: string, fields: Record<string, string>) =>
    tableRecord('memory/2026-11-20.md', [
      'Decision',
      title,
      3,
      16,
      ...TABLE_FIELDS.map((f) => fields[f] ?? null),
    ] as Row);
  const base = {
    id: 'DECISION-20261120-use-pnpm',
    date: '2026-11-20',
    scope: 'project:shop',
    key: 'decision:shop:package-manager',
  };
  const own = renderFull(
    row('Use pnpm', { ...base, conclusion: 'Use pnpm', state: 'todo', origin: 'user', confidence: '0.9' }),
  );
  assert.equal(
    own,
    '### Decision: Use pnpm\n(DECISION-20261120-use-pnpm · memory/2026-11-20.md:3-16)\n- date: 2026-11-20\n- state: todo',
  );
  const proposal = renderFull(
    row('Add Prettier', { ...base, conclusion: 'Add Prettier with a hook', origin: 'agent' }),
  );
  assert.match(proposal, /- conclusion: Add Prettier with a hook\n- origin: agent, not confirmed by a person$/);
  const confirmed = renderFull(row('Add Prettier', { ...base, origin: 'agent', confirmed: 'by the user, message 3' }));
  assert.doesNotMatch(confirmed, /origin|confirmed|scope|key|confidence/);
});

test('an empty pack is counted once and for all: its text counts EMPTY_PACK_TOKENS, and fitting it counts nothing', () => {
  const empty = { core: [], scope: [], query: [] } as unknown as Layers;
  for (const h of [{}, { scope: 'project:shop', query: 'deploy' }] as PackHeadings[]) {
    const pack = fitPack(empty, 2000, h, () => {
      throw new Error('the tokenizer was asked');
    });
    assert.equal(pack.tokens, countTokens(pack.text));
    assert.equal(pack.tokens, EMPTY_PACK_TOKENS);
    assert.match(pack.text, /No memories for this session yet/);
  }
});
