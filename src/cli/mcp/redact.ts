/**
 * What an MCP tool answers passes the secret gate (DESIGN §8: secrets are redacted before anything is
 * written or sent). Memory memfold writes is redacted on write, but a person can paste a key into a
 * Markdown file by hand: `mem search` and `mem get` show it to that person at their own terminal,
 * while a tool result hands it to an agent and its model provider. So every string of every result
 * is redacted, whatever the tool; object keys (field names) are names, not values.
 *
 * `mem mcp` lives long and answers from the same memory again and again: redacting a pack or twenty
 * hits ran every secret pattern over the same texts at every call (a fifth of a memory_search at
 * 10,000 files). redactSecrets is a pure function of its text (secrets.ts), so its results are kept
 * by text, up to about 8 M characters, least recently used dropped first: the same answer, once.
 */
import { redactSecrets, type Redaction } from '../../secrets/secrets.js';

const kept = new Map<string, Redaction>();
let keptChars = 0;
const MAX_CHARS = 8_000_000;
/** What one kept text costs beyond its characters (the map's entry, the result object). */
const ENTRY_CHARS = 64;

/** redactSecrets(text), kept for the next call with the same text. */
export function redactKept(text: string): Redaction {
  const had = kept.get(text);
  if (had) {
    kept.delete(text);
    kept.set(text, had);
    return had;
  }
  const r = redactSecrets(text);
  kept.set(text, r);
  keptChars += text.length + ENTRY_CHARS;
  while (keptChars > MAX_CHARS) {
    const oldest = kept.keys().next().value!;
    kept.delete(oldest);
    keptChars -= oldest.length + ENTRY_CHARS;
  }
  return r;
}

export function redactStrings(value: unknown): unknown {
  if (typeof value === 'string') return redactKept(value).text;
  if (Array.isArray(value)) return value.map(redactStrings);
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactStrings(v)]));
  return value;
}
