/**
 * `--max-chars` (issue 32 item 2): a search's hits within a budget of text. In rank order, a hit whose
 * text fits is kept whole; the first that does not is cut to the lines that answer (the line its
 * snippet comes from, then its neighbours, below first, while they fit) with `startLine`/`endLine`
 * narrowed to those lines, so a citation `path:lines` still names exactly the text shown; once less
 * than MIN_CUT characters are left, the rest are left out. Pure, and applied to the outcome after it
 * was found (cold or by the resident server), so both print the same.
 */
import type { SearchOutcome, SearchResult } from './outcome.js';

export const MAX_CHARS_RANGE = [200, 100_000] as const;
/** Less room than this for a hit's text says too little: it and the rest are left out. */
const MIN_CUT = 80;

/** `--max-chars`'s value as a number within MAX_CHARS_RANGE, or null when it is not one. */
export function maxCharsOf(text: string): number | null {
  const n = Number(text);
  return /^\d+$/.test(text.trim()) && n >= MAX_CHARS_RANGE[0] && n <= MAX_CHARS_RANGE[1] ? n : null;
}

/** `label`: how the notice names the bound (`--max-chars` on the command line, `maxChars` in MCP). */
export function fitToChars(outcome: SearchOutcome, maxChars: number, label = '--max-chars'): SearchOutcome {
  const kept: SearchResult[] = [];
  let used = 0;
  let cut = 0;
  for (const r of outcome.response.results) {
    const room = maxChars - used;
    if (r.text.length <= room) {
      kept.push(r);
      used += r.text.length;
      continue;
    }
    if (room < MIN_CUT) break;
    const fitted = window(r, room);
    kept.push(fitted);
    used += fitted.text.length;
    cut++;
  }
  const left = outcome.response.results.length - kept.length;
  if (!cut && !left) return outcome;
  const said = [
    cut ? `${cut} cut to ${cut === 1 ? 'its' : 'their'} matching lines` : '',
    left ? `${left} left out` : '',
  ]
    .filter(Boolean)
    .join(', ');
  return {
    ...outcome,
    response: { ...outcome.response, results: kept },
    notices: [...outcome.notices, `${label} ${maxChars}: ${said} (${used} characters of text shown)`],
  };
}

/** The hit narrowed to whole lines around the one its snippet comes from, at most `room` characters. */
function window(r: SearchResult, room: number): SearchResult {
  const lines = r.text.split('\n');
  const at = anchorLine(lines, r.snippet);
  const anchor = lines[at]!;
  if (anchor.length > room)
    return {
      ...r,
      text: `${anchor.slice(0, room - 1)}…`,
      startLine: r.startLine + at,
      endLine: r.startLine + at,
      cut: true,
    };
  let [first, last, size] = [at, at, anchor.length];
  for (let grew = true; grew;) {
    grew = false;
    if (last + 1 < lines.length && size + 1 + lines[last + 1]!.length <= room) {
      size += 1 + lines[++last]!.length;
      grew = true;
    }
    if (first > 0 && size + 1 + lines[first - 1]!.length <= room) {
      size += 1 + lines[--first]!.length;
      grew = true;
    }
  }
  return {
    ...r,
    text: lines.slice(first, last + 1).join('\n'),
    startLine: r.startLine + first,
    endLine: r.startLine + last,
    cut: true,
  };
}

/** The line the snippet was cut from (a snippet is a piece of one line, with "…" where it was cut); else the first. */
function anchorLine(lines: string[], snippet: string): number {
  const core = snippet.replace(/^…/, '').replace(/…$/, '').trim();
  if (!core) return 0;
  const i = lines.findIndex((l) => l.includes(core));
  return i < 0 ? 0 : i;
}
