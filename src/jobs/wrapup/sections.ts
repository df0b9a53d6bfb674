/**
 * The six sections of a daily wrap-up, decided from the day's entries and the day's (redacted)
 * sessions by rules alone: pure, so the same input gives the same bullets in the same order.
 *
 * Every bullet carries its source — an entry id or a session and message range — because a summary
 * nobody can trace back is a rumour. One message gives a section one bullet however many of its
 * sentences match ("maybe we should use tRPC later, not sure" is one open loop, not two). Which
 * sessions are told, and how, is per-session.ts's business.
 */
import { getField } from '../../entries/model.js';
import { isSpeech, extractWithRules } from '../../extract/rules.js';
import type { Candidate } from '../../extract/types.js';
import { normalise, sentences, stripQuoted, trimEnd } from '../../extract/sentences.js';
import type { EntryRecord } from '../../entries/store.js';
import type { DaySession } from './sessions.js';
import { safeText } from './bullet-text.js';

export const SECTION_TITLES = [
  'Decisions made today',
  'Action items',
  'Important conversations',
  'Technical notes / debugging lessons',
  'Open loops',
  'Tomorrow next steps',
] as const;
export type SectionKey = 'decisions' | 'actions' | 'conversations' | 'technical' | 'openLoops' | 'nextSteps';
export const SECTION_KEYS: SectionKey[] = [
  'decisions',
  'actions',
  'conversations',
  'technical',
  'openLoops',
  'nextSteps',
];

export type Cite =
  { type: 'entry'; id: string; file: string } | { type: 'session'; sessionId: string; first: number; last: number };
export interface Bullet {
  text: string;
  cite: Cite;
}
export type Sections = Record<SectionKey, Bullet[]>;

/** "please …", "TODO", "we need to …": a request somebody has to act on. */
export const ACTION =
  /\b(?:please|todo|to-do|action\s+item|we\s+need\s+to|need\s+to|follow\s+up|don'?t\s+forget\s+to)\b|[请請](?!问|問)|待[办辦]|需要|要做/i;
/** "tomorrow", "next step": what the next day starts with. */
export const NEXT = /\b(?:tomorrow|next\s+steps?|first\s+thing\s+(?:tomorrow|monday))\b|明天|明早|下一步/i;
/** A question left open on purpose; a plain "?" in small talk is not one. */
export const OPEN_LOOP =
  /\b(?:not\s+sure(?:\s+yet)?|undecided|haven'?t\s+decided|not\s+(?:yet\s+)?decided|tbd|open\s+question|still\s+need\s+to\s+(?:decide|figure\s+out)|should\s+we|shall\s+we|maybe\s+we\s+should|whether\s+we\s+should)\b|[还還]没[决決]定|[还還]沒[决決]定|待定|未定|要不要/i;
/** What was learned while fixing something. */
export const LESSON =
  /\b(?:turns?\s+out|root\s+cause|caused\s+by|lesson(?:s)?\s+learned|the\s+fix\s+(?:is|was)|fixed\s+by|regression|flaky|post-?mortem)\b|根因|原因是|修复了|修復了|排查|教[训訓]/i;

/** Retracted by `mem forget` (hand-typed case aside): a wrap-up never publishes it. */
export const isRetracted = (r: EntryRecord): boolean =>
  (getField(r.entry, 'status') ?? '').trim().toLowerCase() === 'retracted';

function entryBullet(r: EntryRecord, text: string): Bullet {
  return { text: safeText(text), cite: { type: 'entry', id: r.id, file: r.file } };
}

interface Said {
  session: DaySession;
  index: number;
  role: string;
  sentence: string;
}

function saidSentences(s: DaySession): Said[] {
  const out: Said[] = [];
  for (const t of s.turns.filter(isSpeech)) {
    for (const sentence of sentences(stripQuoted(t.text)))
      out.push({ session: s, index: t.index, role: t.role, sentence });
  }
  return out;
}

/**
 * A sentence the rule extractor settled (one of the session's candidates says it): a rule, not an open
 * loop or an action item. Asked of what was extracted, not of the markers alone: a marker a gate
 * turned down ("请把说明写清楚，每一步都要写明…" is a request, not a rule) leaves the request an action item.
 */
const settledIn = (candidates: Candidate[]) => {
  const said = candidates.map((c) => normalise(c.conclusion)).filter(Boolean);
  return (sentence: string) => {
    const n = normalise(sentence);
    return said.some((c) => n.includes(c) || c.includes(n));
  };
};

export function buildSections(
  day: string,
  dayEntries: EntryRecord[],
  allEntries: EntryRecord[],
  sessions: DaySession[],
): Sections {
  const sec: Sections = { decisions: [], actions: [], conversations: [], technical: [], openLoops: [], nextSteps: [] };
  for (const r of dayEntries) {
    const reverses = getField(r.entry, 'supersedes');
    // Task → Action items (an open one) or a done item; Lesson → Technical notes; Goal and Preference are settled choices.
    const state = getField(r.entry, 'state')?.trim().toLowerCase();
    if (r.entry.kind === 'Note') sec.technical.push(entryBullet(r, `Noted: ${r.entry.title}`));
    else if (r.entry.kind === 'Lesson') sec.technical.push(entryBullet(r, `Lesson: ${r.entry.title}`));
    else if (r.entry.kind === 'Task' && state === 'done')
      sec.decisions.push(entryBullet(r, `Task done: ${r.entry.title}`));
    else if (r.entry.kind === 'Task')
      sec.actions.push(entryBullet(r, `Task${state && state !== 'todo' ? ` (${state})` : ''}: ${r.entry.title}`));
    else
      sec.decisions.push(
        entryBullet(r, `${r.entry.kind}: ${r.entry.title}${reverses ? ` (replaces ${reverses})` : ''}`),
      );
    const finding = getField(r.entry, 'finding');
    if (finding)
      sec.technical.push(entryBullet(r, `Finding behind ${r.entry.kind.toLowerCase()} "${r.entry.title}": ${finding}`));
  }
  // Statements the extractor sees today that are recorded on another day (a rule said again).
  const byConclusion = new Map(allEntries.map((r) => [normalise(getField(r.entry, 'conclusion') ?? ''), r]));
  const dayIds = new Set(dayEntries.map((r) => r.id));
  const extracted = new Map(sessions.map((s) => [s, extractWithRules(s.turns)]));
  for (const s of sessions) {
    for (const c of extracted.get(s)!) {
      const known = byConclusion.get(normalise(c.conclusion));
      // Said again today but retracted (`mem forget`): not restated, and not reported as unrecorded either.
      if (known && (dayIds.has(known.id) || isRetracted(known))) continue;
      if (known) sec.decisions.push(entryBullet(known, `${known.entry.kind} restated: ${known.entry.title}`));
      else
        sec.decisions.push({
          text: safeText(`${c.kind} (not recorded as an entry): ${c.title}`),
          cite: { type: 'session', sessionId: s.sessionId, first: c.firstTurn, last: c.lastTurn },
        });
    }
  }
  for (const s of sessions) {
    // One bullet per section and message: the message's matching sentences, in order.
    const byMessage = new Map<string, { target: Bullet[]; index: number; said: string[] }>();
    const settled = settledIn(extracted.get(s)!);
    for (const said of saidSentences(s)) {
      const target =
        said.role !== 'user'
          ? LESSON.test(said.sentence)
            ? sec.technical
            : undefined
          : LESSON.test(said.sentence)
            ? sec.technical
            : OPEN_LOOP.test(said.sentence) && !settled(said.sentence)
              ? sec.openLoops
              : NEXT.test(said.sentence)
                ? sec.nextSteps
                : ACTION.test(said.sentence) && !settled(said.sentence)
                  ? sec.actions
                  : undefined;
      if (!target || !safeText(trimEnd(said.sentence))) continue;
      const key = `${SECTION_KEYS.find((k) => sec[k] === target)}:${said.index}`;
      const seen = byMessage.get(key) ?? { target, index: said.index, said: [] };
      seen.said.push(said.sentence.trim());
      byMessage.set(key, seen);
    }
    for (const m of byMessage.values()) {
      m.target.push({
        text: safeText(trimEnd(m.said.join(' '))),
        cite: { type: 'session', sessionId: s.sessionId, first: m.index, last: m.index },
      });
    }
  }
  for (const key of SECTION_KEYS) sec[key] = dedupe(sec[key]);
  return sec;
}

function dedupe(list: Bullet[]): Bullet[] {
  const seen = new Set<string>();
  return list.filter((b) => {
    const k = normalise(b.text);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}
