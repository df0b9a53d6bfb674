/** Snippets (pure): the chunk line that holds most query terms, cut to about 240 characters. */
import { tokenize } from './tokenize.js';

const WIDTH = 240;
/** Bookkeeping fields of an entry say nothing a reader needs in a snippet. */
const FIELD_LINE = /^[-*+]\s+(id|date|status|source|session_id|session_path|message_range|supersedes|scope|key|origin|confidence|class|core|weight|refs):/i;

export function snippet(text: string, terms: string[]): string {
  const want = new Set(terms);
  let best = '';
  let bestHits = -1;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line || FIELD_LINE.test(line)) continue;
    // A heading is shown as the result's heading already: prefer a body line with as many hits.
    const hits = new Set(tokenize(line).filter((t) => want.has(t))).size - (/^#{1,6}\s/.test(line) ? 0.5 : 0);
    if (hits > bestHits) {
      best = line;
      bestHits = hits;
    }
  }
  const plain = best.replace(/\s+/g, ' ');
  return plain.length > WIDTH ? plain.slice(0, WIDTH - 1) + '…' : plain;
}

/** Wraps the query's words found in `text` (case-insensitive) with `mark`, for terminal output. */
export function highlight(text: string, query: string, mark: (s: string) => string): string {
  const words = [...new Set(query.split(/[\s\p{P}]+/u).filter((w) => w.length >= 2))].slice(0, 20);
  if (!words.length) return text;
  const re = new RegExp(words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'giu');
  return text.replace(re, (m) => mark(m));
}
