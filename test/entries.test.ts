/**
 * The entry model (DESIGN §5): the tolerant, raw-preserving parser, the canonical renderer and the id
 * rules. Files people edit by hand come back byte for byte; what memfold writes reads back as written.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { ID_PATTERN, isVersionOf, makeId, nextFreeId, slugify, SLUG_MAX } from '../src/entries/id.js';
import { getField, getSource, KINDS, type Entry, type Field } from '../src/entries/model.js';
import { entryBlocks, parseBlocks, serializeBlocks } from '../src/entries/parse.js';
import { renderEntry } from '../src/entries/render.js';
import { exampleWorkspace, mem, ROOT } from './helpers/cli.js';

const ENTRY_FIXTURES = join(ROOT, 'fixtures', 'entries');
const fixture = (name: string) => readFileSync(join(ENTRY_FIXTURES, name), 'utf8');
const entries = (text: string) => entryBlocks(parseBlocks(text));
const fields = (e: Entry) =>
  Object.fromEntries(
    e.fields.map((f) => [f.key, f.children ? Object.fromEntries(f.children.map((c) => [c.key, c.value])) : f.value]),
  );

describe('parse → serialise is byte-identical', () => {
  test('for every file in fixtures/entries', () => {
    const names = readdirSync(ENTRY_FIXTURES).filter((n) => n.endsWith('.md'));
    assert.ok(names.length >= 3);
    for (const name of names) {
      const text = fixture(name);
      const blocks = parseBlocks(text);
      assert.equal(serializeBlocks(blocks), text, name);
      assert.ok(entryBlocks(blocks).length >= 1, `${name} has entries`);
    }
  });

  test('for the daily files `mem microsync` writes on the example, and each entry reads back as rendered', async (t) => {
    const { ws } = exampleWorkspace(t);
    const r = await mem(['-C', ws, 'microsync', '--since', 'all', '--now', '2026-11-22T09:00:00Z']);
    assert.equal(r.code, 0, r.stderr);
    const days = readdirSync(join(ws, 'memory')).filter((n) => /^\d{4}-\d{2}-\d{2}\.md$/.test(n));
    assert.deepEqual(days.sort(), ['2026-11-20.md', '2026-11-21.md']);
    for (const day of days) {
      const text = readFileSync(join(ws, 'memory', day), 'utf8');
      const blocks = parseBlocks(text);
      assert.equal(serializeBlocks(blocks), text, day);
      const es = entryBlocks(blocks);
      assert.ok(es.length >= 4, day);
      for (const b of es) {
        assert.equal(renderEntry(b.entry), b.raw.replace(/\n+$/, '\n'), `${day}:${b.startLine}`);
        assert.match(getField(b.entry, 'id') ?? '', ID_PATTERN);
      }
    }
  });
});

describe('hand-edited entries survive', () => {
  test('hand-edited.md: front matter, free text, unknown fields, odd spacing, fences, wrapped values, CJK', () => {
    const text = fixture('hand-edited.md');
    const blocks = parseBlocks(text);
    assert.deepEqual(
      blocks.slice(0, 2).map((b) => [b.type, b.raw]),
      [
        ['text', '---\nnote: a daily file someone edited by hand\n---\n'],
        ['text', '# 2026-11-21\n\nSome free text a person wrote above the entries.\n\n'],
      ],
    );
    const es = entries(text);
    assert.deepEqual(
      es.map((b) => [b.entry.kind, b.entry.title, b.startLine]),
      [
        ['Decision', 'Move the event store to PostgreSQL', 8],
        ['Rule', 'Every migration needs a rollback script', 27],
        ['Note', '记住：部署前要先跑 smoke test', 44],
      ],
    );
    const [decision, rule, note] = es.map((b) => b.entry) as [Entry, Entry, Entry];
    assert.deepEqual(fields(decision), {
      id: 'DECISION-20261121-move-the-event-store-to-postgresql',
      date: '2026-11-21',
      source: {
        session_id: '7f3c2a10',
        session_path: '~/.claude/projects/shop/7f3c2a10.jsonl',
        message_range: '12-18',
      },
      why: 'SQLite locked under concurrent writers',
      finding: 'load test at 200 rps showed 30% lock errors',
      conclusion: 'use PostgreSQL 16 for events; keep SQLite for local dev',
      impact: 'architecture; deploy needs a managed Postgres',
      confidence: '0.9',
      origin: 'user',
      status: 'active',
      supersedes: 'DECISION-20261002-use-sqlite-for-events',
      refs: 'src/store/events.ts',
      reviewer: 'dana',
      ticket: 'OPS-1234',
    });
    assert.deepEqual(getSource(decision), {
      session_id: '7f3c2a10',
      session_path: '~/.claude/projects/shop/7f3c2a10.jsonl',
      message_range: '12-18',
    });
    assert.deepEqual(
      fields(rule),
      {
        id: 'RULE-20261121-every-migration-needs-a-rollback-script',
        date: '2026-11-21',
        conclusion: 'every migration ships with a tested rollback\nscript, reviewed by a second person',
        status: 'active',
        origin: 'user',
        custom_field: 'with value',
      },
      'the fenced entry heading is text; the level-3 section stays in the entry',
    );
    assert.equal(es[1]!.endLine, 42);
    assert.deepEqual(fields(note), {
      id: 'NOTE-20261121-部署前要先跑-smoke-test',
      date: '2026-11-21',
      conclusion: '部署前要先跑 smoke test',
      status: 'active',
      origin: 'user',
      tags: 'deploy, 部署',
    });
    assert.equal(es[2]!.endLine, 50, 'the entry ends before "## Unrelated heading"');
    assert.equal(blocks[blocks.length - 1]?.raw, '## Unrelated heading\nText that is not an entry.\n');
  });

  test('CRLF line endings: fields read without \\r, bytes kept', () => {
    const text = fixture('crlf.md');
    assert.ok(text.includes('\r\n'));
    const [b] = entries(text);
    assert.deepEqual([b?.entry.kind, b?.entry.title, b?.startLine, b?.endLine], ['Rule', 'Windows line endings', 3, 6]);
    assert.deepEqual(fields(b!.entry), {
      id: 'RULE-20261121-windows-line-endings',
      date: '2026-11-21',
      status: 'active',
    });
    assert.equal(serializeBlocks(parseBlocks(text)), text);
  });

  test('a byte order mark before the first heading: that entry is seen at line 1, the mark is a block of its own', () => {
    const text = fixture('bom.md');
    assert.ok(text.startsWith('\uFEFF'));
    assert.deepEqual(parseBlocks(text)[0], { type: 'text', raw: '\uFEFF', startLine: 1 });
    assert.deepEqual(
      entries(text).map((b) => [b.entry.title, b.startLine, getField(b.entry, 'id')]),
      [
        ['Deploys happen on Tuesdays only', 1, 'RULE-20261121-deploys-happen-on-tuesdays-only'],
        ['Staging vault port', 8, 'NOTE-20261121-staging-vault-port'],
      ],
    );
  });

  test('no trailing newline: the last field is read whole and the file keeps its last byte', () => {
    const text = fixture('no-trailing-newline.md');
    assert.ok(!text.endsWith('\n'));
    const [b] = entries(text);
    assert.deepEqual(fields(b!.entry), {
      id: 'DECISION-20261121-no-trailing-newline',
      date: '2026-11-21',
      status: 'active',
    });
    assert.equal(b!.endLine, 4);
    assert.equal(serializeBlocks(parseBlocks(text)), text);
  });

  test('a closing # run needs a space before it, so "C#" stays in the title', () => {
    assert.deepEqual(
      entries('## Note: Use C#\n- id: NOTE-20261121-use-c\n').map((b) => b.entry.title),
      ['Use C#'],
    );
    assert.deepEqual(
      entries('## decision:Port the CLI to F# ##\n').map((b) => [b.entry.kind, b.entry.title]),
      [['Decision', 'Port the CLI to F#']],
    );
    assert.deepEqual(
      entries('## Arch: Event store\n').map((b) => b.entry.kind),
      ['Architecture'],
    );
  });

  test('an example entry in a code fence inside an entry adds no fields to it', () => {
    const text =
      '## Note: How to write entries\n- id: NOTE-20261121-how-to-write-entries\n- status: active\n\n```md\n- id: FAKE\n- status: bogus\n```\n- tags: docs\n';
    const [b] = entries(text);
    assert.deepEqual(fields(b!.entry), { id: 'NOTE-20261121-how-to-write-entries', status: 'active', tags: 'docs' });
  });

  test('unknown kinds and level-3 headings are not entries', () => {
    assert.deepEqual(entries('## Idea: not a kind\n- id: X\n### Decision: too deep\n'), []);
  });
});

describe('properties (fast-check)', () => {
  const CHARS = [
    ...'abcXYZ019 .,;:!?()[]{}<>/"\'#*_-=+~`@$%&|\t',
    ...'决定记住部署緩存規則改為以后。，：！',
    'é',
    'ß',
    '🙂',
  ];
  const text = (min: number) => fc.string({ unit: fc.constantFrom(...CHARS), minLength: min, maxLength: 30 });
  /** One line as a person would type it: trimmed, not empty. */
  const line = text(1)
    .map((s) => s.replace(/^[ \t]+|[ \t]+$/g, ''))
    .filter((s) => s.length > 0);
  /** A value line after the first may not open a list item or a fence (render joins those). */
  const nextLine = line.filter((s) => !/^(?:[-*+](?:[ \t]|$)|-|```|~~~)/.test(s));
  const value = fc.tuple(line, fc.array(nextLine, { maxLength: 3 })).map(([a, rest]) => [a, ...rest].join('\n'));
  const key = fc.stringMatching(/^[A-Za-z_][\w.-]{0,12}$/);
  const leaf: fc.Arbitrary<Field> = fc.record({ key, value }).map((f) => ({ ...f }));
  const parent: fc.Arbitrary<Field> = fc
    .record({ key, value: fc.constant(''), children: fc.array(leaf, { minLength: 1, maxLength: 3 }) })
    .map((f) => ({ ...f }));
  const title = fc
    .oneof(
      line,
      fc.constantFrom(
        '放弃 Redis 缓存，改用本地 LRU',
        '記住：部署前要先跑 smoke test',
        'Move the event store to PostgreSQL',
      ),
    )
    .filter((s) => !/(?:^|[ \t])#+$/.test(s));
  const entry: fc.Arbitrary<Entry> = fc
    .record({
      kind: fc.constantFrom(...KINDS),
      title,
      fields: fc.array(fc.oneof({ weight: 4, arbitrary: leaf }, { weight: 1, arbitrary: parent }), { maxLength: 8 }),
    })
    .map((e) => ({ ...e }));

  test('parse(render(e)) deep-equals e, also with Chinese titles and multi-line values', () => {
    fc.assert(
      fc.property(entry, (e) => {
        const [b, ...rest] = entries(renderEntry(e));
        assert.equal(rest.length, 0);
        assert.deepEqual(b!.entry, e);
      }),
      { numRuns: 500 },
    );
  });

  test('entries rendered one after another in a daily file read back in order', () => {
    fc.assert(
      fc.property(fc.array(entry, { minLength: 1, maxLength: 5 }), (es) => {
        const text = '# 2026-11-21\n' + es.map((e) => '\n' + renderEntry(e)).join('');
        const got = entries(text);
        assert.deepEqual(
          got.map((b) => b.entry),
          es,
        );
        assert.equal(serializeBlocks(parseBlocks(text)), text);
      }),
      { numRuns: 200 },
    );
  });

  test('any string parses without throwing and serialises back to itself', () => {
    const noisy = fc.string({
      unit: fc.oneof(
        fc.constantFrom('\n', '\r\n', '## ', '# ', '- ', '  - ', 'id: ', 'Decision: ', '```', '~~~', ':', '\t', '#'),
        fc.constantFrom(...CHARS),
      ),
      maxLength: 200,
    });
    fc.assert(
      fc.property(fc.oneof(noisy, fc.string({ unit: 'binary', maxLength: 200 })), (s) => {
        const blocks = parseBlocks(s);
        assert.equal(serializeBlocks(blocks), s);
        for (const b of entryBlocks(blocks)) assert.ok(b.startLine >= 1 && b.endLine >= b.startLine);
      }),
      { numRuns: 1000 },
    );
  });
});

describe('ids (DESIGN §5)', () => {
  test('prefix per kind, YYYYMMDD, slug of the title', () => {
    assert.equal(
      makeId('Decision', '2026-11-21', 'Move the event store to PostgreSQL'),
      'DECISION-20261121-move-the-event-store-to-postgresql',
    );
    assert.equal(makeId('Rule', '2026-11-21', 'Cap uploads at 25 MB'), 'RULE-20261121-cap-uploads-at-25-mb');
    assert.equal(makeId('Architecture', '2026-11-20', 'Switch to websockets'), 'ARCH-20261120-switch-to-websockets');
    assert.equal(makeId('Note', '2026-01-02', 'Staging DB'), 'NOTE-20260102-staging-db');
  });

  test('slugs: lower-cased, CJK kept, anything else folded to one "-", trimmed', () => {
    const cases: Array<[string, string]> = [
      ['放弃 Redis 缓存，改用本地 LRU', '放弃-redis-缓存-改用本地-lru'],
      ['記住：部署前要先跑 smoke test', '記住-部署前要先跑-smoke-test'],
      ['本地 LRU 上限设为 5 万条', '本地-lru-上限设为-5-万条'],
      ["npm's hoisting -- kept   breaking!", 'npm-s-hoisting-kept-breaking'],
      ['  (C++ & C#)  ', 'c-c'],
      ['Café über naïve', 'caf-ber-na-ve'],
      ['ＦＵＬＬＷＩＤＴＨ ５０', 'fullwidth-50'],
      ['カタカナ と 한국어', 'カタカナ-と-한국어'],
      ['!!!', 'entry'],
      ['', 'entry'],
    ];
    for (const [title, slug] of cases) assert.equal(slugify(title), slug, title);
  });

  test('slugs are at most 60 characters (CJK counted as characters) and never end in "-"', () => {
    const long = slugify('Use PostgreSQL sixteen for the event store and keep SQLite for local development only');
    // Issue 27: cut at a word boundary, never mid-word (it was "…-keep-sqlite-f").
    assert.equal(long, 'use-postgresql-sixteen-for-the-event-store-and-keep-sqlite');
    assert.equal(Array.from(slugify('决'.repeat(80))).length, SLUG_MAX);
    assert.equal(slugify('a'.repeat(59) + ' bcd'), 'a'.repeat(59));
    fc.assert(
      fc.property(fc.string({ maxLength: 120 }), (s) => {
        const slug = slugify(s);
        assert.ok(
          Array.from(slug).length <= SLUG_MAX && !slug.startsWith('-') && !slug.endsWith('-') && !slug.includes('--'),
        );
        assert.equal(slug, slug.toLowerCase());
        assert.match(makeId('Note', '2026-11-21', s), ID_PATTERN);
      }),
      { numRuns: 500 },
    );
  });

  test('ID_PATTERN accepts what makeId makes and rejects other shapes', () => {
    for (const ok of [
      'DECISION-20261121-move-the-event-store-to-postgresql',
      'NOTE-20261121-部署前要先跑-smoke-test',
      'RULE-20261120-cap-uploads-at-25-mb-2',
      'ARCH-20261120-x',
    ]) {
      assert.match(ok, ID_PATTERN, ok);
    }
    for (const bad of [
      'DEC-20261121-x',
      'DECISION-2026-11-21-x',
      'DECISION-261121-x',
      'DECISION-20261121-',
      'DECISION-20261121-Move-Store',
      'decision-20261121-x',
      'NOTE-20261121-a--b',
      'NOTE-20261121-a b',
      'NOTE-20261121-../x',
      'ARCHITECTURE-20261121-x',
    ]) {
      assert.doesNotMatch(bad, ID_PATTERN, bad);
    }
  });

  test('nextFreeId and isVersionOf: id, id-2, id-3', () => {
    const taken = new Set(['NOTE-20261121-a', 'NOTE-20261121-a-2']);
    assert.equal(
      nextFreeId('NOTE-20261121-b', (x) => taken.has(x)),
      'NOTE-20261121-b',
    );
    assert.equal(
      nextFreeId('NOTE-20261121-a', (x) => taken.has(x)),
      'NOTE-20261121-a-3',
    );
    assert.ok(isVersionOf('NOTE-20261121-a-2', 'NOTE-20261121-a'));
    assert.ok(isVersionOf('NOTE-20261121-a', 'NOTE-20261121-a'));
    assert.ok(!isVersionOf('NOTE-20261121-a-b', 'NOTE-20261121-a'));
    assert.ok(!isVersionOf('NOTE-20261121-ab', 'NOTE-20261121-a'));
  });
});
