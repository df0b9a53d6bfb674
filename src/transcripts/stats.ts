/**
 * Counts and warnings of one read. Warnings are capped (20 plus a count of the rest) so a corrupt
 * 200 MB file cannot flood a report; lines without a timestamp get one summary warning, not one each.
 */
import { count } from '../core/count.js';
import { redactPath } from '../secrets/secret-path.js';
import type { ReadStats } from './types.js';

const MAX_WARNINGS = 20;

export class StatsRecorder {
  readonly stats: ReadStats;
  private dropped = 0;
  private redacted?: string;

  constructor(
    private readonly path: string,
    sessionId: string,
    private readonly fromOffset: number,
  ) {
    this.stats = {
      sessionId,
      malformed: 0,
      skippedLong: 0,
      untimed: 0,
      bytesRead: 0,
      endOffset: fromOffset,
      warnings: [],
    };
  }

  warn(message: string): void {
    if (this.stats.warnings.length < MAX_WARNINGS) this.stats.warnings.push(message);
    else this.dropped += 1;
  }

  /** The path as warnings name it: redacted as `session_path` is, since they reach logs and terminals (worked out at the first warning: most reads have none). */
  get shown(): string {
    return (this.redacted ??= redactPath(this.path));
  }

  /** "file:12" for a read from the start; lines are only counted from the cursor otherwise, so name the byte. */
  where(line: number, start: number): string {
    return this.fromOffset === 0 ? `${this.shown}:${line}` : `${this.shown} (byte ${start})`;
  }

  malformed(line: number, start: number, reason: string): void {
    this.stats.malformed += 1;
    this.warn(`${this.where(line, start)}: malformed line skipped: ${reason}`);
  }

  finish(fallback: string | undefined): void {
    const { stats } = this;
    if (stats.untimed > 0) {
      const used = fallback ? `used ${fallback}` : 'left without a time';
      stats.warnings.push(`${this.shown}: ${count(stats.untimed, 'line')} had no usable timestamp; ${used}`);
    }
    if (this.dropped > 0) stats.warnings.push(`${this.shown}: … and ${count(this.dropped, 'more warning')}`);
    this.dropped = 0;
  }
}
