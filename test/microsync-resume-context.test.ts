/**
 * A confirmation read by the run after the one that read its proposal: "Shall we cap uploads at
 * 25 MB?", a scheduled `mem microsync`, then "Yes, agreed.". The cursor keeps where the last few
 * turns before it began (positions only, never text), and the resumed read re-reads them as context,
 * so the reply still meets the proposal — with the rules and with an LLM — and the entry cites what
 * one uninterrupted run cites. The built CLI as a child process, transcripts written here (mtimes set
 * with utimesSync), and for the LLM a real OpenAI-compatible server on 127.0.0.1 in this process.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { listTranscriptFiles, openTranscript, type SourceKind } from '../src/transcripts/index.js';
import { collect, FIXTURES } from './helpers/transcripts-tmp.js';

describe('the turns before a cursor', () => {
  test('a read with toOffset yields exactly the turns ending at or before it, numbered on from fromIndex', async () => {
    const FALLBACK = '2026-11-22T00:00:00.000Z';
    for (const kind of ['claude-code', 'codex', 'openclaw', 'jsonl', 'markdown'] as SourceKind[]) {
      for (const path of await listTranscriptFiles(kind, join(FIXTURES, kind), '/')) {
        const all = await collect(openTranscript(path, kind, { fallbackTimestamp: FALLBACK }));
        // Line starts: after the last turn of a line (or the file's start).
        const starts = [{ offset: 0, turns: 0 }, ...all.filter((x, i) => all[i + 1]?.endOffset !== x.endOffset).map((x) => ({ offset: x.endOffset, turns: x.index }))];
        for (const from of starts) {
          for (const to of starts.filter((s) => s.offset >= from.offset).slice(0, 3)) {
            const stream = openTranscript(path, kind, { fromOffset: from.offset, toOffset: to.offset, fromIndex: from.turns, fallbackTimestamp: FALLBACK, toolNames: {} });
            const got = (await collect(stream)).map(({ index, role, endOffset }) => ({ index, role, endOffset }));
            const want = all.filter((x) => x.index > from.turns && x.index <= to.turns).map(({ index, role, endOffset }) => ({ index, role, endOffset }));
            assert.deepEqual(got, want, `${kind} ${path} from ${from.offset} to ${to.offset}`);
          }
        }
      }
    }
  });
});
