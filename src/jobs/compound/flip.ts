/**
 * The one change compound makes to a daily file (DESIGN §2, §5): an entry's `status` value. Applied
 * to the file's current text under the write lock, touching only that line (or adding one when the
 * entry has none), so a microsync append or a hand edit made meanwhile survives byte for byte.
 */
import { getField } from '../../entries/model.js';
import { fieldLines, parseBlocks, serializeBlocks, splitLines } from '../../entries/parse.js';

// Any indentation the parser accepts: the line edited is the one getField reads (parse.ts fieldLines).
const STATUS_LINE = /^([ \t]*[-*+][ \t]+status[ \t]*:)[ \t]*([^\r\n]*?)([ \t]*\r?\n?)$/;

/** The text with entry `id` (when still `from`) set to `to`; undefined when nothing changes. */
export function flipStatus(text: string, id: string, from: string, to: string): string | undefined {
  const blocks = parseBlocks(text);
  let changed = false;
  for (const b of blocks) {
    if (b.type !== 'entry' || getField(b.entry, 'id')?.trim() !== id) continue;
    if ((getField(b.entry, 'status') ?? 'active').trim().toLowerCase() !== from) continue;
    const lines = splitLines(b.raw);
    const at = fieldLines(b, 'status')[0];
    if (at !== undefined) lines[at] = lines[at]!.replace(STATUS_LINE, `$1 ${to}$3`);
    else {
      const last = b.endLine - b.startLine;
      const eol = lines[last]!.endsWith('\r\n') ? '\r\n' : '\n';
      if (!lines[last]!.endsWith('\n')) lines[last] += eol;
      lines.splice(last + 1, 0, `- status: ${to}${eol}`);
    }
    b.raw = lines.join('');
    changed = true;
  }
  return changed ? serializeBlocks(blocks) : undefined;
}
