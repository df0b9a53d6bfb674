/**
 * A pack's token count as the sum of its pieces' (src/pack/pieces.ts): cut where pieces.ts cuts, any
 * text counts exactly as its pieces do, on generated texts (line breaks, white space, `/`,
 * punctuation, Han, emoji) and on a real pack's text; and a counter given pieces counted ahead takes
 * their counts, tokenizing only the rest.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { pieceCounter, pieces } from '../src/pack/pieces.js';
import { renderPack } from '../src/pack/render.js';
import { countTokens } from '../src/pack/tokens.js';
import { TABLE_FIELDS, tableRecord, type Row } from '../src/entries/table.js';

const UNITS = [
  'a',
  'Z',
  'word',
  ' ',
  '  ',
  '\t',
  '\n',
  '\r\n',
  '\n\n',
  '/',
  '//',
  '-',
  '#',
  '.',
  ':',
  '<',
  '>',
  '|',
  '(',
  ')',
  '7',
  '42',
  '部署',
  '數據',
  '🙂',
  "'s",
  'x/y',
  '\u00a0',
  '`',
  '*',
];

test('any text counts as the sum of its pieces', () => {
  fc.assert(
    fc.property(fc.array(fc.constantFrom(...UNITS), { maxLength: 60 }), (units) => {
      const text = units.join('');
      assert.equal(pieces(text).join(''), text);
      assert.equal(
        pieces(text).reduce((n, p) => n + countTokens(p), 0),
        countTokens(text),
        JSON.stringify(text),
      );
    }),
    { numRuns: 2000 },
  );
});

test('a real pack counts as its pieces, and a counter takes the pieces it was given before it tokenizes', () => {
  const fields: Record<string, string> = {
    id: 'RULE-20261120-deploys',
    date: '2026-11-20',
    conclusion: 'deploys need two approvals / 部署需要两次批准',
    scope: 'project:shop',
  };
  const record = tableRecord('memory/2026-11-20.md', [
    'Rule',
    'Deploys need two approvals',
    3,
    9,
    ...TABLE_FIELDS.map((f) => fields[f] ?? null),
  ] as Row);
  const text = renderPack(
    [
      { record, layer: 0, form: 'full' },
      { record, layer: 1, form: 'summary' },
    ],
    { scope: 'project:shop', pinned: '- Prefer boring technology.\n  /tmp is scratch' },
  );
  assert.ok(pieces(text).length > 8);
  assert.equal(pieceCounter(new Map(), countTokens)(text), countTokens(text));
  // Counted ahead (here: each piece said to be 1000 tokens), a piece is not tokenized again.
  const known = new Map(pieces(text).map((p) => [p, 1000]));
  assert.equal(pieceCounter(known, countTokens)(text), 1000 * pieces(text).length);
  // Learning: pieces it had to count are kept.
  const learned = new Map<string, number>();
  pieceCounter(learned, countTokens, true)(text);
  assert.deepEqual([...learned.keys()].sort(), [...new Set(pieces(text))].sort());
});
