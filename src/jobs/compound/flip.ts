/**
 * The one change compound makes to a daily file (DESIGN §2, §5): an entry's `status` value. Applied
 * to the file's current text under the write lock, touching only that line (or adding one when the
 * entry has none), so a microsync append or a hand edit made meanwhile survives byte for byte.
 * All of a file's flips are made in one pass (one parse, one write): flipped one by one, each flip
 * re-read, re-parsed and rewrote the whole file, and 4,700 flips in one day took minutes.
 */
import { getField } from '../../entries/model.js';
import {
  entryBlocks,
  fieldLines,
  parseBlocks,
  serializeBlocks,
  splitLines,
  type EntryBlock,
} from '../../entries/parse.js';
import { keepLineEnding, lineBreaks } from '../../write/line-endings.js';
import { append } from '../../core/group.js';

// Any indentation the parser accepts: the line edited is the one getField reads (parse.ts fieldLines).
const STATUS_LINE = /^([ \t]*[-*+][ \t]+status[ \t]*:)[ \t]*([^\r\n]*?)([ \t]*\r?\n?)$/;

/** The text with entry `id` (when still `from`) set to `to`; undefined when nothing changes. */
export function flipStatus(text: string, id: string, from: string, to: string): string | undefined {
  return flipStatuses(text, [id], from, to).text;
}

/**
 * The text with each entry of `ids` (when still `from`) set to `to`, undefined when nothing changes;
 * `flipped[i]`: whether ids[i] was (an id listed twice is flipped the first time). The same bytes as
 * flipping them one after another through WorkspaceWriter.update: the line breaks an entry's flip adds
 * end as the file's lines mostly do, counted as the flips before it left them.
 */
export function flipStatuses(
  text: string,
  ids: readonly string[],
  from: string,
  to: string,
): { text: string | undefined; flipped: boolean[] } {
  const blocks = parseBlocks(text);
  const byId = new Map<string, EntryBlock[]>();
  for (const b of entryBlocks(blocks)) {
    const id = getField(b.entry, 'id')?.trim();
    if (id !== undefined) append(byId, id, b);
  }
  const breaks = lineBreaks(text);
  const done = new Set<EntryBlock>();
  const flipped = ids.map((id) => {
    const hits = (byId.get(id) ?? []).filter(
      (b) => !done.has(b) && (getField(b.entry, 'status') ?? 'active').trim().toLowerCase() === from,
    );
    const eol = breaks.crlf > breaks.lf ? '\r\n' : '\n';
    for (const b of hits) {
      const before = lineBreaks(b.raw);
      b.raw = keepLineEnding(b.raw, withStatus(b, to), eol);
      const after = lineBreaks(b.raw);
      breaks.crlf += after.crlf - before.crlf;
      breaks.lf += after.lf - before.lf;
      done.add(b);
    }
    return hits.length > 0;
  });
  return { text: done.size ? serializeBlocks(blocks) : undefined, flipped };
}

/** Block `b`'s text with its status line set to `to` (added after its last line when it has none). */
function withStatus(b: EntryBlock, to: string): string {
  const lines = splitLines(b.raw);
  const at = fieldLines(b, 'status')[0];
  if (at !== undefined) lines[at] = lines[at]!.replace(STATUS_LINE, `$1 ${to}$3`);
  else {
    const last = b.endLine - b.startLine;
    const eol = lines[last]!.endsWith('\r\n') ? '\r\n' : '\n';
    if (!lines[last]!.endsWith('\n')) lines[last] += eol;
    lines.splice(last + 1, 0, `- status: ${to}${eol}`);
  }
  return lines.join('');
}
