/**
 * Where a resumed read starts re-reading its context (DESIGN §4): the start of the lines holding the
 * last few turns before a cursor, and the turns counted before there. Without it the reply that opens
 * the next run ("Yes, agreed.") is read without the proposal it confirms, and the decision is lost.
 * Only line ends are kept (two numbers a line, never text, so no secret reaches `.mem/`), from a known
 * line start on, and forgotten once no later cursor can need them.
 */
import type { Turn } from '../../transcripts/types.js';

/** A line start and the turns counted before it: where a read may begin and number on. */
export interface Mark {
  offset: number;
  turns: number;
}

export class ContextMarks {
  private readonly marks: Mark[];

  /** `start`: a line start before every turn added later; `keep`: how many turns the context holds. */
  constructor(
    start: Mark,
    private readonly keep: number,
  ) {
    this.marks = [{ ...start }];
  }

  /** A turn read, in file order. A line's turns share its end, and the mark there counts them all. */
  add(turn: Turn): void {
    const last = this.marks[this.marks.length - 1]!;
    if (last.offset === turn.endOffset) last.turns = turn.index;
    else this.marks.push({ offset: turn.endOffset, turns: turn.index });
  }

  /** Where the lines holding the last `keep` turns up to turn `through` begin (the start when fewer were added). */
  before(through: number): Mark {
    let found = this.marks[0]!;
    for (const m of this.marks) {
      if (m.turns > through - this.keep) break;
      found = m;
    }
    return { ...found };
  }

  /** Forgets the marks no cursor at turn `floor` or later needs. */
  forget(floor: number): void {
    let drop = 0;
    while (drop + 1 < this.marks.length && this.marks[drop + 1]!.turns <= floor - this.keep) drop++;
    this.marks.splice(0, drop);
  }
}
