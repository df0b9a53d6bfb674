/**
 * What an MCP tool answers passes the secret gate (DESIGN §8: secrets are redacted before anything is
 * written or sent). Memory memfold writes is redacted on write, but a person can paste a key into a
 * Markdown file by hand: `mem search` and `mem get` show it to that person at their own terminal,
 * while a tool result hands it to an agent and its model provider. So every string of every result
 * is redacted, whatever the tool; object keys (field names) are names, not values.
 */
import { redactSecrets } from '../../secrets/secrets.js';

export function redactStrings(value: unknown): unknown {
  if (typeof value === 'string') return redactSecrets(value).text;
  if (Array.isArray(value)) return value.map(redactStrings);
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactStrings(v)]));
  return value;
}
