/**
 * Turns → archive windows (pure). A window is a few consecutive turns, so a hit cites a turn range
 * a person can open with `mem source`-like precision. Each turn's text is redacted exactly as
 * microsync redacts before writing (DESIGN §9.5: no secret lands in `.mem/` either) and cut at
 * TURN_MAX characters, so a pasted log cannot swell the index.
 */
import { redactSecrets } from '../secrets/secrets.js';
import type { Turn } from '../transcripts/index.js';
import type { ArchiveDoc } from './format.js';

export const WINDOW_TURNS = 4;
export const WINDOW_CHARS = 4000;
export const TURN_MAX = 2000;

export interface WindowBuilder {
  add(turn: Turn): void;
  /** Closes the open window; returns every window built since the last take. */
  take(): ArchiveDoc[];
  /** How many windows are closed and not yet taken. */
  closed(): number;
  /** The closed windows (the open one stays open), so a long transcript's windows need not be held. */
  takeClosed(): ArchiveDoc[];
}

export function windowBuilder(fileNo: number, startOffset: number, skip: (index: number) => boolean): WindowBuilder {
  const done: ArchiveDoc[] = [];
  let open: ArchiveDoc | undefined;
  let lastEnd = startOffset;
  const close = () => {
    if (open) done.push(open);
    open = undefined;
  };
  return {
    add(t) {
      const from = lastEnd;
      lastEnd = t.endOffset;
      if (skip(t.index) || !t.text.trim()) {
        close();
        return;
      }
      const red = redactSecrets(t.text).text;
      const text = red.length > TURN_MAX ? `${red.slice(0, TURN_MAX)} …` : red;
      const block = `[${t.index}] ${t.role}${t.toolName ? ` (${t.toolName})` : ''}: ${text}`;
      if (open && (open.b - open.a + 1 >= WINDOW_TURNS || open.x.length + block.length > WINDOW_CHARS)) close();
      if (!open)
        open = { f: fileNo, s: t.sessionId, a: t.index, b: t.index, t: t.timestamp, o: from, e: t.endOffset, x: block };
      else {
        open.b = t.index;
        open.e = t.endOffset;
        open.x += `\n${block}`;
        open.t ??= t.timestamp;
      }
    },
    take() {
      close();
      return done.splice(0);
    },
    closed: () => done.length,
    takeClosed: () => done.splice(0),
  };
}
