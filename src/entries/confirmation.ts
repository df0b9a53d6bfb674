/**
 * Whether a person stands behind an agent's statement (DESIGN §5). An entry with `origin: agent`
 * counts as confirmed only with a `confirmed:` field: microsync writes one naming the user's reply that
 * confirmed it in the transcript (an agent's statement lands only so), `mem confirm <id>` writes one
 * with the day, and an entry edited to `origin: manual` is a person's own. What an agent wrote itself
 * (MCP `memory_remember`) has none, so it is never promoted: not into MEMORY.md by compound, not into
 * layer 0 of `mem context`. One rule, read here, so the two cannot disagree.
 */
import { getField, type Entry } from './model.js';

export function unconfirmedAgent(entry: Entry): boolean {
  return (getField(entry, 'origin') ?? '').trim().toLowerCase() === 'agent' && !(getField(entry, 'confirmed') ?? '').trim();
}
