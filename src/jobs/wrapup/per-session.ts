/**
 * A wrap-up's sessions, one Markdown section each, in a form two machines can merge (issue 31, and
 * the merge driver of issue 29): a `### <HH:MM> <host> <session id>` heading (the session's first
 * turn of the day in the configured zone, the short name of the machine that read it) followed by
 * that session's bullets only — its goal, outcome, changed files, the entries it recorded, and every
 * bullet of the six lists that cites it, labelled with its list. No numbering or count spans two
 * sections, and headings sort as text into time order, so a union of two machines' sections keyed
 * on their headings is the wrap-up either would have written from both machines' transcripts.
 *
 * A session is told when it recorded an entry, produced a bullet, changed a file or was asked to do
 * something; chit-chat and a greeting produce none of these and are never mentioned. Pure.
 */
import { DateTime } from 'luxon';
import { getSource } from '../../entries/model.js';
import type { EntryRecord } from '../../entries/store.js';
import { count } from '../../core/count.js';
import { safeText } from './bullet-text.js';
import { SECTION_KEYS, type Bullet, type SectionKey, type Sections } from './sections.js';
import type { SessionStory } from './session-story.js';
import type { DaySession } from './sessions.js';

export interface SessionSection {
  heading: string;
  sessionId: string;
  bullets: Bullet[];
}

const LABEL: Record<SectionKey, string> = {
  decisions: 'Decision',
  actions: 'Action item',
  conversations: '',
  technical: 'Technical note',
  openLoops: 'Open loop',
  nextSteps: 'Next step',
};
/** A text that already says what it is ("Rule (not recorded as an entry): …") takes no label. */
const KIND_LED =
  /^(?:Decision|Rule|Architecture|Preference|Goal|Task|Lesson|Note|Action item|Open loop|Next step|Technical note)\b/;

export const citesSession = (b: Bullet, id?: string): boolean =>
  b.cite.type === 'session' && (id === undefined || b.cite.sessionId === id);

function labelled(key: SectionKey, b: Bullet): Bullet {
  return LABEL[key] && !KIND_LED.test(b.text) ? { ...b, text: `${LABEL[key]}: ${b.text}` } : b;
}

/** A machine's short name as a heading word: letters, digits, dot, dash and underscore only. */
export function hostWord(hostname: string): string {
  return (
    hostname
      .split('.')[0]!
      .replace(/[^\w-]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'host'
  );
}

/** The action items without the message a session's goal already tells ("Build a todo app" holds "todo"). */
export function withoutGoalRepeats(sections: Sections, stories: SessionStory[]): Sections {
  const goals = new Set(
    stories.flatMap((x) => (x.goal?.cite.type === 'session' ? [`${x.sessionId}:${x.goal.cite.first}`] : [])),
  );
  const repeat = (b: Bullet) =>
    b.cite.type === 'session' && b.cite.first === b.cite.last && goals.has(`${b.cite.sessionId}:${b.cite.first}`);
  return { ...sections, actions: sections.actions.filter((b) => !repeat(b)) };
}

export function sessionSections(
  sections: Sections,
  stories: SessionStory[],
  sessions: DaySession[],
  dayEntries: EntryRecord[],
  host: string,
  zone: string,
): SessionSection[] {
  const out: SessionSection[] = [];
  for (const s of sessions) {
    const story = stories.find((x) => x.sessionId === s.sessionId);
    const entries = dayEntries.filter((r) => getSource(r.entry)?.session_id === s.sessionId);
    const cited = SECTION_KEYS.flatMap((k) =>
      sections[k].filter((b) => citesSession(b, s.sessionId)).map((b) => labelled(k, b)),
    );
    if (!entries.length && !cited.length && !story?.files && !story?.asked) continue;
    const first = s.turns[0]!;
    const last = s.turns[s.turns.length - 1]!;
    const recorded: Bullet[] = entries.length
      ? [
          {
            text: safeText(
              `Recorded ${count(entries.length, 'entry', 'entries')}: ${entries.map((r) => `"${r.entry.title}"`).join(', ')}`,
            ),
            cite: { type: 'session', sessionId: s.sessionId, first: first.index, last: last.index },
          },
        ]
      : [];
    const bullets = [story?.goal, story?.outcome, story?.files, ...recorded, ...cited].filter((b): b is Bullet => !!b);
    const time = first.timestamp ? DateTime.fromISO(first.timestamp, { zone }).toFormat('HH:mm') : '--:--';
    out.push({ heading: `${time} ${host} ${s.sessionId.replace(/\s+/g, '-')}`, sessionId: s.sessionId, bullets });
  }
  return out.sort((a, b) => (a.heading < b.heading ? -1 : a.heading > b.heading ? 1 : 0));
}
