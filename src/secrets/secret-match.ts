/**
 * One pattern's matches in a text, and which of them are secrets: the value group a match names
 * (secret-patterns.ts's rules), trimmed of sentence punctuation when unquoted, judged by the
 * pattern's check, and carried past the pattern's bound by its tail so a long secret is removed
 * whole. A match touching a `[REDACTED:…]` marker is never a finding: a previous pass decided
 * it, and judging the marker's leftovers again would break idempotence.
 */
import { LONG_QUOTE_TAILS } from './secret-fragments.js';
import { nextMarker, touchesMarker } from './secret-markers.js';
import type { PatternMatch, SecretPattern } from './secret-patterns.js';
import { UNICODE_DASHES } from './secret-values.js';

export interface SecretFinding {
  kind: string;
  /** UTF-16 offsets into the scanned text, end exclusive. */
  start: number;
  end: number;
}

/** Accepted matches of one pattern; a rejected match lets the scan retry one character later. */
export function* matches(
  pattern: SecretPattern,
  text: string,
  markers: Array<[number, number]>,
): Generator<SecretFinding> {
  const re = pattern.re;
  re.lastIndex = 0;
  try {
    let m: RegExpExecArray | null;
    while ((m = re.exec(text)) !== null) {
      const hit = accept(pattern, m, text, markers);
      const matchEnd = m.index + m[0].length;
      re.lastIndex = hit === null ? m.index + 1 : Math.max(matchEnd, hit.end, m.index + 1);
      if (hit !== null) yield hit;
    }
  } finally {
    re.lastIndex = 0;
  }
}

const groupNames = new WeakMap<RegExp, string[]>();

/** The pattern's value groups (`v…`) in source order, read once per pattern. */
function valueGroups(re: RegExp): string[] {
  let names = groupNames.get(re);
  if (names === undefined) {
    names = [...re.source.matchAll(/\(\?<(v\w*)>/g)].map((g) => g[1] ?? '');
    groupNames.set(re, names);
  }
  return names;
}

/**
 * Sentence punctuation after an unquoted value; `!` stays in the secret (passwords end in it).
 * Unicode dashes at the end go too: a value runs through them (`Xk92‑FAKE`), but a dash that ends
 * it is prose ("密码：Xk92FAKE——别外传").
 */
const TRAILING_PUNCTUATION = new Set('.,;:?)]}>\'"');
const UNICODE_DASH = new RegExp(`[${UNICODE_DASHES}]`);

/**
 * The value without its trailing punctuation. A loop, not `/[…]+$/`: that regex retries from every
 * character of a punctuation run, so a 160 KB run of `.` inside an accepted value took 23 s.
 */
function trimPunctuation(value: string): string {
  let end = value.length;
  while (end > 0 && (TRAILING_PUNCTUATION.has(value.charAt(end - 1)) || UNICODE_DASH.test(value.charAt(end - 1))))
    end--;
  return value.slice(0, end);
}

function accept(
  pattern: SecretPattern,
  m: RegExpExecArray,
  text: string,
  markers: Array<[number, number]>,
): SecretFinding | null {
  let start = m.index;
  let end = m.index + m[0].length;
  let quoted = false;
  let trim = false;
  let tail = pattern.tail;
  const groups = m.indices?.groups;
  if (groups !== undefined) {
    for (const name of valueGroups(pattern.re)) {
      const span = groups[name];
      if (span === undefined) continue;
      [start, end] = span;
      quoted = name.startsWith('vq') || name.startsWith('vl');
      trim = name.startsWith('vu');
      // A closed quote is the whole value; one still open at its bound goes on to its closing quote.
      if (quoted) tail = LONG_QUOTE_TAILS[name];
      break;
    }
  }
  // A value touching a marker is what a previous pass left ("password: [REDACTED:password]"):
  // that pass decided, and judging `[REDACTED:x]{0` again would redact its leftovers.
  if (touchesMarker(markers, start, end)) return null;
  const raw = text.slice(start, end);
  const value = trim ? trimPunctuation(raw) : raw;
  if (value.trim() === '') return null;
  const rawEnd = end;
  end = start + value.length;
  const kind = pattern.check ? pattern.check({ m, value, raw, quoted, rawEnd, text } satisfies PatternMatch) : true;
  if (kind === false) return null;
  // A value cut by its pattern's bound goes on past `rawEnd`: the rest is the same secret. Taken
  // from the untrimmed end, so a value that ends in `.` at the bound still loses its tail.
  if (tail !== undefined) {
    tail.lastIndex = rawEnd;
    if (tail.exec(text) !== null && tail.lastIndex > rawEnd) {
      // Never over a marker: a later round's finding must lie between two markers (see secrets.ts's apply()).
      const whole = text.slice(start, Math.min(tail.lastIndex, nextMarker(markers, rawEnd)));
      end = start + (trim ? trimPunctuation(whole) : whole).length;
    }
  }
  return { kind: kind === true ? pattern.kinds[0] : kind, start, end };
}
