/**
 * Codex writes what was said twice or once, by version: newer rollouts record a `response_item`
 * message and an `event_msg` copy of the same words (`user_message`, `agent_message`), in either
 * order; Codex Desktop rollouts may hold only the event. Each message becomes one turn from whichever
 * copy comes first, and its other copy, told by speaker and words, is dropped: never twice, never lost.
 *
 * The words of an item may wrap the event's (an IDE's context block or an image marker before the
 * request), so an event also matches an item holding its words. Only the last few messages without
 * their copy are kept: a copy follows its original within a few lines.
 */
export type Speaker = 'user' | 'assistant';
export type Copy = 'item' | 'event';

interface Said {
  speaker: Speaker;
  copy: Copy;
  words: string;
}

const KEEP = 16;

export class EchoPairs {
  private waiting: Said[] = [];

  /**
   * Whether `text`, read from `copy`, repeats a message already made a turn from the other copy (that
   * one is then matched and forgotten). Otherwise it is remembered, waiting for its own copy.
   */
  repeats(speaker: Speaker, copy: Copy, text: string): boolean {
    const words = normalise(text);
    const i = this.waiting.findIndex((s) => s.speaker === speaker && s.copy !== copy && sameWords(s, words));
    if (i !== -1) {
      this.waiting.splice(i, 1);
      return true;
    }
    this.waiting.push({ speaker, copy, words });
    if (this.waiting.length > KEEP) this.waiting.shift();
    return false;
  }
}

function sameWords(earlier: Said, words: string): boolean {
  if (earlier.words === words) return true;
  const [item, event] = earlier.copy === 'item' ? [earlier.words, words] : [words, earlier.words];
  return event !== '' && item.includes(event);
}

function normalise(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
