/**
 * A wrap-up as Markdown: front matter (date, sessions, generator, a hash of the body), the six
 * sections in their fixed order and spelling, and a citation on every bullet. A section lists the
 * bullets that cite entries; what a session said or did goes in that session's own `###` section
 * under "Important conversations" (per-session.ts), so an empty list says `- (none)`, or, when only
 * sessions hold such bullets, `- (listed per session under Important conversations)`. Nothing time-dependent goes in, so the same day and input give the same bytes (DESIGN §9.2).
 * A file that would reach `limits.summaryLines` lines is cut into volumes on line boundaries.
 */
import { createHash } from 'node:crypto';
import { toLf } from '../../write/line-endings.js';
import { citesSession, type SessionSection } from './per-session.js';
import { SECTION_KEYS, SECTION_TITLES, type Bullet, type Sections } from './sections.js';

export interface WrapupDoc {
  day: string;
  sessions: string[];
  generator: string;
  /** Hash of what the summary was made from (sessions, entries, mode); see run.ts. */
  inputKey: string;
  sections: Sections;
  /** The told sessions' sections, sorted by heading. */
  perSession: SessionSection[];
}

export interface RenderedFile {
  /** Name inside second-brain/summaries/. */
  name: string;
  text: string;
}

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

function cite(b: Bullet): string {
  if (b.cite.type === 'entry') return `[${b.cite.id}](../../${b.cite.file})`;
  return `session ${b.cite.sessionId} · messages ${b.cite.first}-${b.cite.last}`;
}

export const PER_SESSION = '- (listed per session under Important conversations)';

export function bodyLines(doc: WrapupDoc): string[] {
  const lines: string[] = [];
  SECTION_KEYS.forEach((key, i) => {
    if (i) lines.push('');
    lines.push(`## ${SECTION_TITLES[i]}`);
    const list = doc.sections[key].filter((b) => !citesSession(b));
    const told = key === 'conversations' ? doc.perSession.length > 0 : doc.sections[key].some((b) => citesSession(b));
    if (!list.length) lines.push(told ? (key === 'conversations' ? '' : PER_SESSION) : '- (none)');
    for (const b of list) lines.push(`- ${b.text} — ${cite(b)}`);
    if (key !== 'conversations') return;
    for (const s of doc.perSession) {
      if (lines[lines.length - 1] !== '') lines.push('');
      lines.push(`### ${s.heading}`, ...s.bullets.map((b) => `- ${b.text} — ${cite(b)}`));
    }
  });
  return lines;
}

export function volumeName(day: string, variant: number, volume: number): string {
  return `${day}-wrapup${variant > 1 ? `-v${variant}` : ''}${volume > 1 ? `-vol${volume}` : ''}.md`;
}

function frontMatter(doc: WrapupDoc, body: string, volume: number, volumes: number): string {
  const sessions = doc.sessions.length ? doc.sessions.map((s) => `  - ${JSON.stringify(s)}`).join('\n') : '  []';
  const vol = volumes > 1 ? `volume: ${volume}\nvolumes: ${volumes}\n` : '';
  return `---\ndate: ${doc.day}\n${vol}sessions:${doc.sessions.length ? '\n' : ''}${sessions}\ngenerator: ${JSON.stringify(doc.generator)}\ninput: ${doc.inputKey}\ncontent_sha256: ${sha256(body)}\n---\n`;
}

/** Front matter with volume fields is sessions + 9 lines; title, blank and a later volume's lead 4. */
const HEADER_LINES = 13;

/**
 * The files of one variant (`-vN`) of the day's wrap-up: one, or volumes when over `maxLines`.
 * Every volume is under `maxLines` lines (status flags a summary at `maxLines` or more) whenever
 * the front matter leaves room for a line of text; a fixed floor of 10 lines a volume used to
 * overshoot a small limit, and a header one line short made volumes 2+ exactly `maxLines` long.
 */
export function renderWrapup(doc: WrapupDoc, variant: number, maxLines: number): RenderedFile[] {
  const lines = bodyLines(doc);
  // No room for a line beside the front matter: one file, over the limit (run.ts warns) rather than a volume per line.
  const room = maxLines - 1 - doc.sessions.length - HEADER_LINES;
  const perVolume = room >= 1 ? room : Math.max(1, lines.length);
  const chunks: string[][] = [];
  for (let at = 0; at < lines.length || !chunks.length; at += perVolume) chunks.push(lines.slice(at, at + perVolume));
  return chunks.map((chunk, i) => {
    const volume = i + 1;
    const title = `# Wrap-up ${doc.day}${chunks.length > 1 ? ` (volume ${volume} of ${chunks.length})` : ''}`;
    const lead =
      volume > 1 ? [`_Continued from [volume ${volume - 1}](${volumeName(doc.day, variant, volume - 1)})._`, ''] : [];
    const body = [title, '', ...lead, ...chunk].join('\n') + '\n';
    return { name: volumeName(doc.day, variant, volume), text: frontMatter(doc, body, volume, chunks.length) + body };
  });
}

/** The body after the front matter, and the hash the front matter claims for it. */
export function splitFrontMatter(text: string): { claimed?: string; body: string } {
  const m = /^---\r?\n([\s\S]*?)\r?\n---\r?\n/.exec(text);
  if (!m) return { body: text };
  const claimed = /^content_sha256:\s*([0-9a-f]{64})\s*$/m.exec(m[1]!)?.[1];
  return { ...(claimed ? { claimed } : {}), body: text.slice(m[0].length) };
}

/** A wrap-up with no bullet but `- (none)`: what wrapup wrote for an idle day before it wrote nothing then. */
export function saysNothing(text: string): boolean {
  if (/^---\r?\n[\s\S]*?^volume: /m.test(text)) return false;
  return splitFrontMatter(text)
    .body.split(/\r?\n/)
    .every((l) => !l.startsWith('- ') || l.trim() === '- (none)');
}

/** The input key a wrap-up's front matter records. */
export function inputKeyOf(text: string): string | undefined {
  return /^---\r?\n[\s\S]*?^input: ([0-9a-f]{16})\s*$/m.exec(text)?.[1];
}

/**
 * A file memfold wrote and nobody changed since: its body still has the hash it was written with.
 * Line endings do not count, so a CRLF checkout is not taken for a hand edit.
 */
export function isUntouched(text: string): boolean {
  const { claimed, body } = splitFrontMatter(text);
  return !!claimed && claimed === sha256(toLf(body));
}
