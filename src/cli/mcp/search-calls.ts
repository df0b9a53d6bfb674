/**
 * What a `memory_search` hit says an agent can call next, so it drills down without guessing arguments:
 * `open` is the `memory_get` call that reads the hit (by entry id, else by path and lines), `evidence`
 * the `memory_evidence` call that shows the transcript turns an entry was made from — null when there
 * are none to show (no entry, or one written by hand, by an import or through MCP, which cites no
 * transcript).
 */
import type { SearchResult } from '../../search/query/outcome.js';

export interface ToolCall {
  tool: 'memory_get' | 'memory_evidence';
  arguments: Record<string, string>;
}

/** Sources that name no transcript: `mem import` (import:<kind>) and `memory_remember` (mcp:…). */
const NO_TRANSCRIPT = /^(?:import:|mcp[:-])/;

export function withCalls(r: SearchResult): SearchResult & { open: ToolCall; evidence: ToolCall | null } {
  const open: ToolCall = r.id
    ? { tool: 'memory_get', arguments: { id: r.id } }
    : { tool: 'memory_get', arguments: { path: r.path, lines: `${r.startLine}-${r.endLine}` } };
  const cited =
    r.id &&
    r.source?.session_path &&
    !NO_TRANSCRIPT.test(r.source.session_id) &&
    !NO_TRANSCRIPT.test(r.source.session_path);
  return { ...r, open, evidence: cited ? { tool: 'memory_evidence', arguments: { id: r.id! } } : null };
}
