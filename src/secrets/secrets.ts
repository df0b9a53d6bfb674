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
import { matches, type SecretFinding } from './secret-match.js';
import { SECRET_KINDS, SECRET_PATTERNS } from './secret-patterns.js';
import { markerSpans, redactionMarker, touchesMarker } from './secret-markers.js';
import { withoutSplitters } from './secret-splitters.js';

export { redactionMarker, SECRET_KINDS };
export type { SecretFinding };

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
  return fixpoint(view.text).map((f) => ({
    kind: f.kind,
    start: view.original(f.start, false),
    end: view.original(f.end, true),
  }));
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
  // A finding of a later round never touches a marker (secret-match.ts refuses that), so its start and
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
