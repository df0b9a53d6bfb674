/**
 * Whether a transcript may still be in the middle of a turn. Only the next heading shows that a
 * Markdown turn is complete, and only its "\n" that a JSONL line is, so a file modified less than
 * QUIET_MS ago has its last Markdown turn, or its last JSONL line without a "\n", held back
 * (ReadOptions.growing) until it has been quiet that long or a later heading or "\n" closes it. A
 * file modified more than AHEAD_MS after `now` is a replay (microsync's --now in the past), read as it is.
 */
const QUIET_MS = 5 * 60_000;
const AHEAD_MS = 10 * 60_000;

export function stillWriting(mtimeMs: number, nowMs: number): boolean {
  const age = nowMs - mtimeMs;
  return age > -AHEAD_MS && age < QUIET_MS;
}
