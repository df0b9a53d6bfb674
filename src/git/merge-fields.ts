/**
 * Field-level three-way merge of one entry both machines changed (`mem merge-driver`), pure. The
 * heading (the title) and each top-level field are merged on their own: a field only one side
 * changed, added or removed takes that side's version, so a typo fixed on one machine and a status
 * flipped on the other both survive (the whole entry used to go to the side further along the
 * status machine, dropping the other side's edit without a word). A field both sides changed
 * differently keeps ours, except `status`, which keeps the value further along the status machine
 * (active < superseded < archived < retracted) so either merge order gives the same status; the
 * value not kept is written under a `merge_conflict:` field, one nested line per field, which
 * `mem lint` reports until a person settles it. Fields stay in ours' order; one only theirs added
 * follows the field it follows in theirs. An entry whose fields do not split plainly (a code fence,
 * a key twice) is not merged here: undefined, and the caller keeps its whole-entry rule.
 */
import { splitLines } from '../entries/parse.js';

const RANK: Record<string, number> = { active: 0, superseded: 1, archived: 2, retracted: 3 };
const HEADING = '(heading)';
const LEAD = '(text before the fields)';
const CONFLICT = 'merge_conflict';
const TOP_FIELD = /^[-*+][ \t]+([A-Za-z_][\w.-]*)[ \t]*:/;
const FENCE = /^[ \t]{0,3}(`{3,}|~{3,})/;

interface Split {
  /** Each part's lines, by key, in the entry's order: the heading, the text before the fields, each field. */
  parts: Map<string, string>;
  /** The blank lines that close the entry. */
  tail: string;
}

function split(raw: string): Split | undefined {
  const lines = splitLines(raw);
  let end = lines.length;
  while (end > 1 && lines[end - 1]!.trim() === '') end--;
  const parts = new Map<string, string>();
  let current = HEADING;
  for (const [i, line] of lines.slice(0, end).entries()) {
    if (FENCE.test(line)) return undefined;
    const key = i === 0 ? HEADING : TOP_FIELD.exec(line)?.[1];
    if (key !== undefined && i > 0) {
      if (parts.has(key) || key === HEADING || key === LEAD) return undefined;
      current = key;
    } else if (i === 1) current = LEAD;
    parts.set(current, (parts.get(current) ?? '') + line);
  }
  return { parts, tail: lines.slice(end).join('') };
}

const same = (a: string | undefined, b: string | undefined) => a?.trimEnd() === b?.trimEnd();
const valueOf = (part: string | undefined) => /^[-*+][ \t]+[\w.-]+[ \t]*:[ \t]*(.*)$/m.exec(part ?? '')?.[1]?.trim();
const withEol = (s: string) => (s.endsWith('\n') ? s : `${s}\n`);

/** Their version of a part as a nested line of `merge_conflict:`. */
function conflictLine(key: string, part: string | undefined): string {
  if (part === undefined) return `  - ${key === HEADING ? 'title' : key}: (removed)\n`;
  if (key === HEADING) return `  - title: ${part.replace(/^#+[ \t]+[A-Za-z]+[ \t]*:[ \t]*/, '').trim()}\n`;
  const body = key === LEAD ? `- text: ${part.trim()}` : part.trimEnd();
  return splitLines(withEol(body))
    .map((l) => `  ${l}`)
    .join('');
}

export interface FieldMerge {
  raw: string;
  /** The fields both sides changed differently, whose other value went to `merge_conflict:`. */
  conflicts: string[];
}

export function mergeEntryFields(baseRaw: string, oursRaw: string, theirsRaw: string): FieldMerge | undefined {
  const [base, ours, theirs] = [split(baseRaw), split(oursRaw), split(theirsRaw)];
  if (!base || !ours || !theirs) return undefined;
  const [b, o, t] = [base.parts, ours.parts, theirs.parts];
  const merged = new Map<string, string | undefined>();
  const lost: string[] = [];
  const conflicts: string[] = [];
  for (const key of new Set([...o.keys(), ...t.keys(), ...b.keys()])) {
    const [bv, ov, tv] = [b.get(key), o.get(key), t.get(key)];
    if (same(ov, tv) || same(tv, bv)) merged.set(key, ov);
    else if (same(ov, bv)) merged.set(key, tv);
    else if (key === CONFLICT)
      merged.set(
        key,
        ov === undefined ? tv : tv === undefined ? ov : ov.trimEnd() + '\n' + splitLines(tv).slice(1).join(''),
      );
    else {
      // Both changed it: ours, or for status the value further along; the other is recorded.
      const theirsAhead = key === 'status' && (RANK[valueOf(tv) ?? ''] ?? 0) > (RANK[valueOf(ov) ?? ''] ?? 0);
      merged.set(key, theirsAhead ? tv : ov);
      lost.push(conflictLine(key, theirsAhead ? ov : tv));
      conflicts.push(key === HEADING ? 'title' : key);
    }
  }
  // Ours' order; a part only theirs has follows the part it follows in theirs.
  const order = [...o.keys()];
  const theirKeys = [...t.keys()];
  for (const [i, key] of theirKeys.entries()) {
    if (order.includes(key)) continue;
    const after = theirKeys
      .slice(0, i)
      .reverse()
      .find((k) => order.includes(k));
    order.splice(after === undefined ? order.length : order.indexOf(after) + 1, 0, key);
  }
  if (lost.length) {
    const existing = merged.get(CONFLICT);
    merged.set(CONFLICT, (existing === undefined ? `- ${CONFLICT}:\n` : withEol(existing.trimEnd())) + lost.join(''));
    if (!order.includes(CONFLICT)) order.push(CONFLICT);
  }
  const body = order.flatMap((k) => (merged.get(k) === undefined ? [] : [withEol(merged.get(k)!.trimEnd())])).join('');
  return { raw: body + ours.tail, conflicts };
}
