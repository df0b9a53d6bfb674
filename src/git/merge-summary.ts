/**
 * Three-way merge of a wrap-up summary (`second-brain/summaries/*.md`, `mem merge-driver`), pure:
 * two machines that wrap up the same day both add the day's file, which used to conflict on every
 * pull. The body is merged section by section (./merge-sections.ts: one section per session, keyed
 * by its heading); the front matter key by key (./merge-front-matter.ts, ours for a key both
 * changed), its `sessions:` list as the union of both sides'. `content_sha256` stays ours', so the
 * merged file no longer matches it and `mem wrapup` takes it for a hand edit, never overwriting the
 * other machine's sessions with its own.
 */
import { mergeFrontMatter } from './merge-front-matter.js';
import { mergeSections } from './merge-sections.js';

const FRONT_MATTER = /^---[ \t]*\n(?:[\s\S]*?\n)?(?:---|\.\.\.)[ \t]*(?:\n|$)/;

function split(text: string): { fm: string; body: string } {
  const fm = FRONT_MATTER.exec(text)?.[0] ?? '';
  return { fm, body: text.slice(fm.length) };
}

const sessionsOf = (fm: string) =>
  (/^sessions:[ \t]*\n((?:[ \t]+-.*\n?)*)/m.exec(fm)?.[1] ?? '').split('\n').filter((l) => l.trim());

/** The merged front matter with the `sessions:` list holding ours' items, then theirs' new ones. */
function withSessions(merged: string, ours: string, theirs: string): string {
  const union = [...new Set([...sessionsOf(ours), ...sessionsOf(theirs)])];
  if (!union.length) return merged;
  return merged.replace(/^sessions:.*\n(?:[ \t]+-.*\n)*/m, () => `sessions:\n${union.join('\n')}\n`);
}

const same = (a: string, b: string) => a.trimEnd() === b.trimEnd();

/** The three texts with LF line breaks. */
export function mergeSummary(baseText: string, oursText: string, theirsText: string): string {
  const [b, o, t] = [split(baseText), split(oursText), split(theirsText)];
  const fm =
    same(o.fm, t.fm) || same(t.fm, b.fm)
      ? o.fm
      : same(o.fm, b.fm)
        ? t.fm
        : withSessions(mergeFrontMatter(b.fm, o.fm, t.fm).text, o.fm, t.fm);
  return fm + mergeSections(b.body, o.body, t.body);
}
