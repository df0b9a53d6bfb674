/**
 * Resumed reads count only the bytes after the cursor: Claude Code and Codex carry the names of
 * still-unanswered tool calls in the cursor (ReadStats.pendingTools → ReadOptions.toolNames) instead
 * of re-reading a 512 KiB window before it (Codex still replays the last 64 KiB, where an event copy
 * meets its original), and give exactly what a full read gives.
 */
import assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { listTranscriptFiles, openTranscript, type Turn } from '../src/transcripts/index.js';
import { collect, FIXTURES } from './helpers/transcripts-tmp.js';

const FALLBACK = '2026-11-22T00:00:00.000Z';

/** Reads up to and including turn `cut`, then stops, as a microsync run whose cursor lands there. */
async function readUntil(path: string, kind: 'claude-code' | 'codex', cut: Turn) {
  const stream = openTranscript(path, kind, { fallbackTimestamp: FALLBACK });
  for await (const turn of stream.turns) if (turn.index === cut.index) break;
  return stream.stats;
}

test("a resumed read with the cursor's pending tool names reads only new bytes and names every tool result", async () => {
  for (const kind of ['claude-code', 'codex'] as const) {
    for (const path of await listTranscriptFiles(kind, join(FIXTURES, kind), '/')) {
      const all = await collect(openTranscript(path, kind, { fallbackTimestamp: FALLBACK }));
      const size = statSync(path).size;
      const cuts = all.filter((t, i) => all[i + 1]?.endOffset !== t.endOffset);
      for (const cut of cuts) {
        const stats = await readUntil(path, kind, cut);
        assert.equal(stats.endOffset, cut.endOffset);
        assert.ok(stats.pendingTools, `${kind}: pending tool names after turn ${cut.index}`);
        const resumed = openTranscript(path, kind, {
          fromOffset: cut.endOffset,
          fromIndex: cut.index,
          fallbackTimestamp: FALLBACK,
          toolNames: stats.pendingTools,
        });
        assert.deepEqual(await collect(resumed), all.slice(cut.index), `${kind} resumed after turn ${cut.index}`);
        assert.equal(resumed.stats.bytesRead, size - cut.endOffset);
      }
    }
  }
});

test('pending tool names hold only calls without a result yet', async () => {
  const [path] = await listTranscriptFiles('claude-code', join(FIXTURES, 'claude-code'), '/');
  const text = readFileSync(path!, 'utf8');
  const stream = openTranscript(path!, 'claude-code');
  await collect(stream);
  // Every call in the fixture is answered by the end.
  assert.deepEqual(stream.stats.pendingTools, {});
  assert.ok(text.includes('"tool_use"'));
  const all = await collect(openTranscript(path!, 'claude-code'));
  const call = all.find(
    (t) => t.role === 'tool' && all[t.index]?.role === 'tool' && t.endOffset !== all[t.index]?.endOffset,
  );
  assert.ok(call, 'a tool call whose result is on a later line');
  const stats = await readUntil(path!, 'claude-code', call);
  assert.deepEqual(Object.values(stats.pendingTools ?? {}), [call.toolName]);
});
