/**
 * The sessions of one calendar day, as wrapup reads them: every configured source, only turns whose
 * time falls on the day in the configured zone, scheduler/bot/sub-agent sessions and excluded
 * patterns dropped (the same judge as microsync), heartbeat polls dropped turn by turn (a session
 * left with no person's turn that day is skipped as a bot's run), every text redacted before
 * anything — the rule-based sections or an LLM — sees it.
 */
import fs from 'node:fs';
import type { DateTime } from 'luxon';
import type { Config } from '../../config/schema.js';
import { prepareTurns, sessionSkipReason, storedSessionPath } from '../../extract/trust.js';
import { listTranscriptFiles, openTranscript, type SourceKind, type Turn } from '../../transcripts/index.js';

const OPENER_TURNS = 5;

export interface DaySession {
  sessionId: string;
  /** `~`-relative path, as entries store it. */
  sessionPath: string;
  kind: SourceKind;
  /** The day's turns, redacted; indexes are the reader's (what `message_range` counts). */
  turns: Turn[];
}

export interface DayRead {
  sessions: DaySession[];
  skipped: Array<{ sessionId: string; path: string; reason: string }>;
  redacted: number;
}

export async function readDaySessions(
  workspace: string,
  config: Config,
  start: DateTime,
  end: DateTime,
): Promise<DayRead> {
  const out: DayRead = { sessions: [], skipped: [], redacted: 0 };
  const [from, to] = [start.toMillis(), end.toMillis()];
  for (const source of config.sources) {
    const patterns = [...config.exclude, ...(source.exclude ?? [])];
    // A source not found (an agent not installed yet) has no sessions; its catch-up microsync warned.
    const files = await listTranscriptFiles(source.kind, source.path, workspace).catch((err: unknown) => {
      if ((err as { code?: string }).code === 'SOURCE_MISSING') return [];
      throw err;
    });
    for (const file of files) {
      const st = await fs.promises.stat(file).catch(() => undefined);
      if (!st || st.mtimeMs < from) continue;
      const stream = openTranscript(file, source.kind, {
        maxLineBytes: config.limits.maxLineBytes,
        fallbackTimestamp: new Date(st.mtimeMs).toISOString(),
        zone: start.zoneName ?? 'UTC',
      });
      const opener: Turn[] = [];
      const day: Turn[] = [];
      for await (const turn of stream.turns) {
        if (opener.length < OPENER_TURNS) opener.push(turn);
        const ts = turn.timestamp ? Date.parse(turn.timestamp) : NaN;
        if (ts >= from && ts < to) day.push(turn);
      }
      if (!day.length) continue;
      const reason = sessionSkipReason(file, opener[0]?.sessionId ?? '', opener, patterns);
      if (reason) {
        out.skipped.push({
          sessionId: opener[0]?.sessionId ?? day[0]!.sessionId,
          path: storedSessionPath(file),
          reason,
        });
        continue;
      }
      const prepared = prepareTurns(day);
      out.redacted += prepared.redacted;
      // Heartbeat polls left out and no person left: that day the session was a bot's run.
      if (
        prepared.turns.length < day.length &&
        !prepared.turns.some((t) => t.role === 'user' && !t.meta && !t.sidechain)
      ) {
        out.skipped.push({
          sessionId: day[0]!.sessionId,
          path: storedSessionPath(file),
          reason: 'heartbeat polls only',
        });
        continue;
      }
      out.sessions.push({
        sessionId: day[0]!.sessionId,
        sessionPath: storedSessionPath(file),
        kind: source.kind,
        turns: prepared.turns,
      });
    }
  }
  // One order whatever the file system lists first: by first turn time, then id.
  out.sessions.sort(
    (a, b) =>
      (a.turns[0]!.timestamp ?? '').localeCompare(b.turns[0]!.timestamp ?? '') ||
      a.sessionId.localeCompare(b.sessionId),
  );
  return out;
}
