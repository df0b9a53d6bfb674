/**
 * Appending entries to a daily file. Existing bytes are never changed (beyond adding the blank line
 * that separates blocks), so a person's hand edits and other runs' entries stay exactly as they were.
 * The caller holds the file's write lock; this re-checks ids against the text it is given, which is
 * what makes two concurrent appends safe. A file left inside an open code fence (a hand edit) gets
 * a closing fence line first: appended after it, entries would read as code, lost to every reader
 * and appended again by the next run.
 */
import { isVersionOf, nextFreeId } from './id.js';
import { getField, getSource, type Entry } from './model.js';
import { entryBlocks, parseBlocks, unclosedFence } from './parse.js';
import { renderEntry } from './render.js';

export interface AppendResult {
  text: string;
  added: string[];
  skipped: string[];
}

function sameEntry(a: Entry, b: Entry): boolean {
  const sa = getSource(a);
  const sb = getSource(b);
  if (sa && sb && sa.session_id === sb.session_id && sa.message_range === sb.message_range) return true;
  return getField(a, 'conclusion') === getField(b, 'conclusion') && a.kind === b.kind;
}

export function appendEntries(current: string | undefined, day: string, entries: Entry[]): AppendResult {
  const start = current ?? `# ${day}\n`;
  const fence = unclosedFence(start);
  // Callers write the text only when an entry was added, so an append that adds none closes nothing.
  let text = fence ? `${start}${start.endsWith('\n') ? '' : '\n'}${fence.marker}\n` : start;
  const existing = entryBlocks(parseBlocks(text)).map((b) => b.entry);
  const ids = new Set(existing.map((e) => getField(e, 'id') ?? ''));
  const added: string[] = [];
  const skipped: string[] = [];
  for (const entry of entries) {
    const id = getField(entry, 'id') ?? '';
    if (existing.some((e) => isVersionOf(getField(e, 'id') ?? '', id) && sameEntry(e, entry))) {
      skipped.push(id);
      continue;
    }
    const free = nextFreeId(id, (x) => ids.has(x));
    const final =
      free === id ? entry : { ...entry, fields: entry.fields.map((f) => (f.key === 'id' ? { ...f, value: free } : f)) };
    text += (text.endsWith('\n\n') ? '' : text.endsWith('\n') ? '\n' : '\n\n') + renderEntry(final);
    ids.add(free);
    existing.push(final);
    added.push(free);
  }
  return { text, added, skipped };
}
