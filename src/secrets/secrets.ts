/**
 * Secret redaction: the gate every piece of transcript text passes before it is written to the
 * memory folder or sent to an LLM (DESIGN §8 privacy, §9 invariant 5: no secret from a transcript
 * lands in the workspace or goes to an LLM).
 *
 * Guarantees callers rely on:
 * - pure and synchronous: text in, text out; no I/O, and no state but memo caches that never
 *   change a result;
 * - idempotent: redacting redacted text changes nothing, because a `[REDACTED:<kind>]` marker is
 *   never (part of) a finding — without that, every microsync re-run would rewrite entries and
 *   break invariant 2;
 * - labels stay: only the secret value is replaced, so "the staging password is
 *   [REDACTED:password]" still reads, and a memory entry keeps its meaning;
 * - linear-ish time: the patterns (secret-patterns.ts) avoid catastrophic backtracking, and every
 *   scan moves forward, so a 1 MB transcript is redacted in well under a second.
 * Redaction errs toward removing: a false positive costs a word in a note, a false negative leaks.
 */
import { base64Secrets } from './secret-base64.js';
import { LONG_QUOTE_TAILS } from './secret-fragments.js';
import { SECRET_KINDS, SECRET_PATTERNS, type PatternMatch, type SecretPattern } from './secret-patterns.js';
import { UNICODE_DASHES } from './secret-values.js';
import { markerSpans, nextMarker, redactionMarker, touchesMarker } from './secret-markers.js';
import { withoutSplitters } from './secret-splitters.js';

export { redactionMarker, SECRET_KINDS };

export interface SecretFinding {
  kind: string;
  /** UTF-16 offsets into the scanned text, end exclusive. */
  start: number;
  end: number;
}

export interface Redaction {
  text: string;
  /** How many secrets were replaced. */
  count: number;
  /** The kinds replaced, each once, in order of first appearance. */
  kinds: string[];
}

/** Rounds of "redact, then look again" before giving up; real text settles in one or two. */
const MAX_ROUNDS = 8;

/**
 * Where the secrets are, merged so no two findings overlap; sorted by start.
 *
 * Redacting can reveal a secret: `-----END PRIVATE KEY-----SG.…` hides the SendGrid key behind a
 * `-` that no token may follow, and the marker's `]` no longer does. So findings are taken to a
 * fixpoint: the text is redacted and scanned again until a scan finds nothing, which is what
 * makes `redactSecrets` idempotent and its output free of anything `containsSecret` would flag.
 * A NUL or zero-width character inside a token does not hide it (secret-splitters.ts): the finding
 * covers the key as written, splitters included.
 */
export function findSecrets(text: string): SecretFinding[] {
  const view = withoutSplitters(text);
  if (!view) return fixpoint(text);
  return fixpoint(view.text).map((f) => ({ kind: f.kind, start: view.original(f.start, false), end: view.original(f.end, true) }));
}

function fixpoint(text: string): SecretFinding[] {
  let findings = scan(text, false);
  for (let round = 1; round < MAX_ROUNDS && findings.length > 0; round++) {
    const redacted = apply(text, findings);
    const more = scan(redacted.text, false);
    if (more.length === 0) break;
    findings = merge([...findings, ...more.map((f) => redacted.toOriginal(f))].map((f) => ({ ...f, priority: 0 })));
  }
  return findings;
}

export function containsSecret(text: string): boolean {
  return scan(withoutSplitters(text)?.text ?? text, true).length > 0;
}

export function redactSecrets(text: string): Redaction {
  const findings = findSecrets(text);
  if (findings.length === 0) return { text, count: 0, kinds: [] };
  return { text: apply(text, findings).text, count: findings.length, kinds: [...new Set(findings.map((f) => f.kind))] };
}

/** The text with each finding replaced by its marker, and a map from the new offsets back. */
function apply(text: string, findings: SecretFinding[]) {
  let out = '';
  let at = 0;
  const shifts: Array<{ from: number; delta: number }> = [];
  let delta = 0;
  for (const f of findings) {
    const marker = redactionMarker(f.kind);
    out += text.slice(at, f.start) + marker;
    delta += marker.length - (f.end - f.start);
    shifts.push({ from: out.length, delta });
    at = f.end;
  }
  out += text.slice(at);
  // A finding of a later round never touches a marker (accept() refuses that), so its start and
  // end lie between the same two markers and share one shift.
  const toOriginal = (f: SecretFinding): SecretFinding => {
    let lo = 0;
    let hi = shifts.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((shifts[mid]?.from ?? 0) <= f.start) lo = mid + 1;
      else hi = mid;
    }
    const d = lo > 0 ? (shifts[lo - 1]?.delta ?? 0) : 0;
    return { kind: f.kind, start: f.start - d, end: f.end - d };
  };
  return { text: out, toOriginal };
}

interface Candidate extends SecretFinding {
  priority: number;
}

function scan(text: string, firstOnly: boolean): SecretFinding[] {
  if (text.length === 0) return [];
  const markers = markerSpans(text);
  const candidates: Candidate[] = [];
  for (let priority = 0; priority < SECRET_PATTERNS.length; priority++) {
    const pattern = SECRET_PATTERNS[priority];
    if (pattern === undefined) continue;
    for (const hit of matches(pattern, text, markers)) {
      if (firstOnly) return [hit];
      candidates.push({ ...hit, priority });
    }
  }
  // Last: base64 runs whose decoded text holds a secret (secret-base64.ts).
  for (const [start, end] of base64Secrets(text, containsSecret)) {
    if (touchesMarker(markers, start, end)) continue;
    const hit = { kind: 'secret', start, end };
    if (firstOnly) return [hit];
    candidates.push({ ...hit, priority: SECRET_PATTERNS.length });
  }
  return merge(candidates);
}

/** Accepted matches of one pattern; a rejected match lets the scan retry one character later. */
function* matches(pattern: SecretPattern, text: string, markers: Array<[number, number]>): Generator<SecretFinding> {
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
  while (end > 0 && (TRAILING_PUNCTUATION.has(value.charAt(end - 1)) || UNICODE_DASH.test(value.charAt(end - 1)))) end--;
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
      // Never over a marker: a later round's finding must lie between two markers (see apply()).
      const whole = text.slice(start, Math.min(tail.lastIndex, nextMarker(markers, rawEnd)));
      end = start + (trim ? trimPunctuation(whole) : whole).length;
    }
  }
  return { kind: kind === true ? pattern.kinds[0] : kind, start, end };
}

/** Overlapping candidates become one finding spanning them all, named by the earliest pattern. */
function merge(candidates: Candidate[]): SecretFinding[] {
  candidates.sort((a, b) => a.start - b.start || a.priority - b.priority);
  const merged: Candidate[] = [];
  for (const c of candidates) {
    const last = merged[merged.length - 1];
    if (last !== undefined && c.start < last.end) {
      if (c.priority < last.priority) {
        last.kind = c.kind;
        last.priority = c.priority;
      }
      last.end = Math.max(last.end, c.end);
    } else {
      merged.push({ ...c });
    }
  }
  return merged.map(({ kind, start, end }) => ({ kind, start, end }));
}
