/**
 * Property-based hostile input (fast-check): transcript readers given arbitrary bytes per line never
 * throw and count what they cannot read; the config loader answers every invalid shape with one
 * CONFIG_INVALID line. Runs are seeded so a failure reproduces; MEM_FUZZ_RUNS raises the count.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { validateConfig } from '../src/config/load.js';
import { isMemError } from '../src/core/errors.js';
import { openTranscript, SOURCE_KINDS, type SourceKind } from '../src/transcripts/index.js';
import { tempDir } from './helpers/cli.js';

const RUNS = Number(process.env.MEM_FUZZ_RUNS ?? 60);
const SEED = 20261122;

/**
 * A line: random bytes, random JSON, or a plausible line of some format with random values. NUL bytes
 * are left out: a file holding one is skipped whole as binary (test/safety.test.ts), which would spare
 * the line parsers most random lines.
 */
const line = fc.oneof(
  fc.uint8Array({ maxLength: 200 }).map((b) =>
    Buffer.from(b)
      .toString('latin1')
      .replace(/[\n\0]/g, ' '),
  ),
  fc.json({ maxDepth: 3 }),
  fc
    .record({
      type: fc.constantFrom('user', 'assistant', 'message', 'response_item', 'session', 'summary', 'event_msg'),
      role: fc.constantFrom('user', 'assistant', 'tool', 'toolResult', 'system', 42, null),
      content: fc.oneof(
        fc.string(),
        fc.array(
          fc.record({
            type: fc.constantFrom('text', 'input_text', 'tool_result', 'image'),
            text: fc.oneof(fc.string(), fc.integer()),
          }),
          { maxLength: 3 },
        ),
      ),
      timestamp: fc.oneof(fc.string(), fc.integer(), fc.constant('2026-11-21T10:00:00Z'), fc.constant(null)),
      payload: fc.oneof(
        fc.constant(null),
        fc.json({ maxDepth: 2 }),
        fc.record({
          type: fc.constantFrom('message', 'function_call_output'),
          role: fc.string(),
          content: fc.anything(),
        }),
      ),
      message: fc.oneof(fc.constant(null), fc.record({ role: fc.string(), content: fc.anything() })),
    })
    .map((o) => JSON.stringify(o)),
  fc.string().map((s) => `## user · ${s}\n${s}`),
);

async function readAll(file: string, kind: SourceKind) {
  const stream = openTranscript(file, kind, { maxLineBytes: 4096, fallbackTimestamp: '2026-11-21T00:00:00.000Z' });
  let turns = 0;
  for await (const turn of stream.turns) {
    assert.ok(['user', 'assistant', 'tool', 'system'].includes(turn.role));
    assert.equal(typeof turn.text, 'string');
    assert.ok(turn.index === ++turns);
  }
  return { turns, stats: stream.stats };
}

describe('transcript readers on arbitrary lines', () => {
  for (const kind of SOURCE_KINDS) {
    test(`${kind}: never throws; every line is a turn, a known non-turn or counted as malformed`, async (t) => {
      const dir = tempDir(t);
      const file = join(dir, kind === 'markdown' ? 'fuzz.md' : 'fuzz.jsonl');
      await fc.assert(
        fc.asyncProperty(fc.array(line, { maxLength: 25 }), async (lines) => {
          const text = lines.join('\n') + '\n';
          writeFileSync(file, text);
          const { stats } = await readAll(file, kind);
          assert.ok(stats.malformed >= 0 && stats.malformed <= text.split('\n').length);
          assert.ok(stats.endOffset <= Buffer.byteLength(text));
        }),
        { numRuns: RUNS, seed: SEED },
      );
    });
  }
});

describe('config loader on invalid shapes', () => {
  const invalid = fc.oneof(
    fc.record({
      sources: fc.oneof(
        fc.string(),
        fc.integer(),
        fc.array(fc.record({ name: fc.constantFrom('', 'a b', '../x'), kind: fc.string(), path: fc.integer() }), {
          minLength: 1,
        }),
      ),
    }),
    fc.record({
      limits: fc.record({
        lockWaitMs: fc.oneof(fc.string(), fc.double({ min: -1e9, max: -1 })),
        maxLineBytes: fc.constant(0),
      }),
    }),
    fc.record({ search: fc.record({ k: fc.oneof(fc.integer({ min: 51 }), fc.integer({ max: 0 }), fc.string()) }) }),
    fc.record({
      llm: fc.oneof(
        fc.string(),
        fc.record({ baseURL: fc.string().filter((s) => !/^https?:\/\//.test(s)), model: fc.string() }),
      ),
    }),
    fc.record({ format_version: fc.integer().filter((n) => n !== 1 && n !== 2) }),
  );
  test('every invalid shape is one CONFIG_INVALID line naming the key', () => {
    fc.assert(
      fc.property(invalid, (raw) => {
        try {
          validateConfig(raw as Record<string, unknown>, 'mem.config.json');
        } catch (err) {
          assert.ok(isMemError(err) && err.code === 'CONFIG_INVALID', String(err));
          assert.match(err.message, /^mem\.config\.json: [a-z_]+(\.[\w.]+)?: /);
          assert.doesNotMatch(err.message, /\n/);
          return;
        }
        assert.fail(`accepted ${JSON.stringify(raw)}`);
      }),
      { numRuns: RUNS * 5, seed: SEED },
    );
  });
});
