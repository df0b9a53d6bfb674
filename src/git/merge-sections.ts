/**
 * Section-level union of a Markdown file (`mem merge-driver` for wrap-up summaries and weekly logs),
 * pure. A section is a heading line and the lines up to the next heading, keyed by its heading and
 * the headings above it, so two machines that wrapped up the same day (one section per session) or
 * both ran compound (one `## Run` section per run) merge without a conflict: they used to conflict on
 * every pull. Sections stay in ours' order; one only theirs holds follows the sections under the
 * same heading (a new run after ours' runs, a new session after ours' sessions). A section both hold keeps ours' lines, without those theirs removed since the base (a hard
 * forget), and gets theirs' lines that neither ours nor the base holds, before its closing blank
 * lines; a `- (none)` line goes once the section holds another item. A section one side removed and
 * the other left as in the base goes. Nothing is ever written twice, no conflict markers ever.
 */
import { splitLines } from '../entries/parse.js';

interface Section {
  key: string;
  lines: string[];
  /** Taken from theirs alone: it follows a blank line. */
  theirsOnly?: boolean;
}

const HEADING = /^(#{1,6})[ \t]+\S/;
const FENCE = /^[ \t]{0,3}(`{3,}|~{3,})/;

function sectionsOf(text: string): Section[] {
  const out: Section[] = [{ key: '', lines: [] }];
  const stack: string[] = [];
  let fence: string | undefined;
  for (const line of splitLines(text)) {
    const f = FENCE.exec(line)?.[1];
    if (fence) {
      if (f?.startsWith(fence)) fence = undefined;
    } else if (f) fence = f;
    const h = fence || f ? undefined : HEADING.exec(line);
    if (h) {
      stack.length = Math.min(stack.length, h[1]!.length - 1);
      stack[h[1]!.length - 1] = line.trim();
      out.push({ key: stack.filter((s) => s !== undefined).join('\n'), lines: [] });
    }
    out[out.length - 1]!.lines.push(line);
  }
  // A heading held twice under the same parent: the second copy is keyed by its place.
  const seen = new Map<string, number>();
  for (const s of out) {
    const n = (seen.get(s.key) ?? 0) + 1;
    seen.set(s.key, n);
    if (n > 1) s.key += `\0${n}`;
  }
  return out.filter((s) => s.key !== '' || s.lines.length);
}

const norm = (l: string) => l.trim();
const joined = (s: Section | undefined) => s?.lines.join('').trimEnd();
const NONE = '- (none)';

function mergeLines(base: Section | undefined, ours: Section, theirs: Section): string[] {
  if (joined(ours) === joined(theirs) || joined(theirs) === joined(base)) return ours.lines;
  if (joined(ours) === joined(base)) return theirs.lines;
  const [inBase, inOurs, inTheirs] = [base?.lines ?? [], ours.lines, theirs.lines].map(
    (ls) => new Set(ls.map(norm).filter(Boolean)),
  );
  const kept = ours.lines.filter((l) => !norm(l) || !(inBase!.has(norm(l)) && !inTheirs!.has(norm(l))));
  const added = theirs.lines.filter((l) => norm(l) && !inOurs!.has(norm(l)) && !inBase!.has(norm(l)));
  let end = kept.length;
  while (end > 1 && !norm(kept[end - 1]!)) end--;
  const lines = [...kept.slice(0, end), ...added.map((l) => (l.endsWith('\n') ? l : `${l}\n`)), ...kept.slice(end)];
  if (end === kept.length && lines.length && !lines[lines.length - 1]!.endsWith('\n') && added.length)
    lines[end - 1] += '\n';
  const items = lines.filter((l) => /^\s*[-*+]\s/.test(l) && norm(l) !== NONE).length;
  return items ? lines.filter((l) => norm(l) !== NONE) : lines;
}

export function mergeSections(baseText: string, oursText: string, theirsText: string): string {
  const [base, ours, theirs] = [sectionsOf(baseText), sectionsOf(oursText), sectionsOf(theirsText)];
  const byKey = (list: Section[]) => new Map(list.map((s) => [s.key, s]));
  const [b, t] = [byKey(base), byKey(theirs)];
  const out: Section[] = [];
  for (const s of ours) {
    const [bs, ts] = [b.get(s.key), t.get(s.key)];
    if (!ts && bs && joined(bs) === joined(s)) continue; // They removed it.
    out.push(ts ? { key: s.key, lines: mergeLines(bs, s, ts) } : s);
  }
  const oursKeys = new Set(ours.map((s) => s.key));
  for (const s of theirs) {
    if (oursKeys.has(s.key)) continue;
    const bs = b.get(s.key);
    if (bs && joined(bs) === joined(s)) continue; // We removed it.
    // After the sections under the same heading (ours', then theirs' new ones), else at the end.
    const parent = s.key.includes('\n') ? s.key.slice(0, s.key.lastIndexOf('\n')) : '';
    let at = parent ? out.findIndex((o) => o.key === parent) : out.length;
    if (at < 0) at = out.length;
    else while (at + 1 < out.length && out[at + 1]!.key.startsWith(`${parent}\n`)) at++;
    out.splice(Math.min(at + 1, out.length), 0, { ...s, theirsOnly: true });
  }
  return out
    .map((s, i) => {
      const text = s.lines.join('');
      const next = out[i + 1];
      if (!next) return text;
      // A section that ended a side may lack the line break, or the blank line before their section.
      const withBreak = text.endsWith('\n') ? text : `${text}\n`;
      return next.theirsOnly && !/\n[ \t]*\n$/.test(withBreak) && withBreak.trim() ? `${withBreak}\n` : withBreak;
    })
    .join('');
}
