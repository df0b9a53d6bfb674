/**
 * The last gate before a statement is written: whatever an extractor, a model or a person proposes
 * passes through here, so a memory file never holds a control character (a NUL makes the index take
 * the whole day's file for binary) or a secret (DESIGN §8, §9).
 */
import { redactSecrets } from '../secrets/secrets.js';
import type { Candidate } from './types.js';
import { CONTROL_CHAR } from '../core/control-chars.js';

const CONTROL = new RegExp(CONTROL_CHAR.source, 'g');
const VISIBLE = String.raw`[^\s\u0000-\u001f\u007f-\u009f\p{Cf}]`;
const IN_TOKEN = new RegExp(`(?<=${VISIBLE})${CONTROL_CHAR.source}+(?=${VISIBLE})`, 'gu');

/**
 * A control character between two visible ones goes (`sk-…\0…` is one key again, and a UTF-16 file
 * read as UTF-8 its words again), any other becomes a space.
 */
export function stripControl(s: string): string {
  return s.replace(IN_TOKEN, '').replace(CONTROL, ' ').replace(/ {2,}/g, ' ');
}

/** Control characters stripped, then secrets redacted (a NUL inside a key must not hide it). */
export function cleanText(s: string): { text: string; count: number } {
  return redactSecrets(stripControl(s));
}

/**
 * Text a model wrote, cleaned like a transcript's and trimmed: a model can repeat a key it was never
 * shown (from its training data or a prompt injection), so no job writes its words unredacted.
 */
export function cleanModelText(s: string): string {
  return cleanText(s).text.trim();
}

/** Every free-text field of a candidate through cleanText; `count` is the redactions made. */
export function cleanCandidate<C extends Candidate>(c: C): { candidate: C; count: number } {
  let count = 0;
  const clean = (s: string) => {
    const r = cleanText(s);
    count += r.count;
    return r.text.trim();
  };
  const out: C = { ...c, title: clean(c.title), conclusion: clean(c.conclusion) };
  for (const f of ['why', 'finding', 'impact'] as const) {
    const v = c[f];
    if (v !== undefined) out[f] = clean(v);
  }
  if (c.refs) out.refs = c.refs.map(clean).filter(Boolean);
  if (c.tags) out.tags = c.tags.map(clean).filter(Boolean);
  return { candidate: out, count };
}
