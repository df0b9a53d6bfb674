/**
 * What one session of the day was for and what came of it, offline (issue 31): its goal — the first
 * substantive request a person made, or a slash command's arguments, never a greeting, a thanks or a
 * heartbeat — its outcome — the agent's last summary — and the files its tools changed, each cited by
 * message range. Pure: the same turns give the same story, so a re-run writes the same bytes.
 * A day that reads only "1 follow-up note" for a session that built an app told nobody what was done.
 */
import { isSpeech } from '../../extract/rules.js';
import { sentences, stripQuoted, trimEnd } from '../../extract/sentences.js';
import type { Turn } from '../../transcripts/index.js';
import { changedFiles } from './changed-files.js';
import type { Bullet } from './sections.js';
import { safeText, TEXT_MAX } from './bullet-text.js';
import type { DaySession } from './sessions.js';
import { count } from '../../core/count.js';

export interface SessionStory {
  sessionId: string;
  goal?: Bullet;
  outcome?: Bullet;
  files?: Bullet;
  /** The goal reads as a request to do something: the session is worth listing on its own. */
  asked: boolean;
}

const GREETING =
  /^(?:(?:hi|hello|hey|yo|good\s+(?:morning|afternoon|evening)|morning|thanks|thank\s+you)(?:\s+(?:there|all|claude|codex))?|你好|您好|嗨|早上好)[\s,.!！，。~]*/i;
const ACK =
  /^(?:ok(?:ay)?|k|thanks?(?:\s+you)?|thx|ty|yes|yep|no|nope|sure|great|cool|nice|perfect|go\s+ahead|continue|done|lgtm|好的?|行|谢谢|謝謝|继续|繼續|可以)[\s.!！。]*$/i;
/** A request to act: an imperative verb or a polite ask at the start, or "please"/"need to" anywhere. */
const REQUEST =
  /^(?:\/\S+|please|pls|can\s+you|could\s+you|would\s+you|help|let'?s|i\s+(?:want|need|'d\s+like|would\s+like)|we\s+(?:need|should|want)|build|create|add|fix|implement|write|make|set\s+up|setup|refactor|update|remove|delete|rename|move|explain|investigate|debug|review|test|deploy|migrate|install|configure|run|check|find|show|generate|design|draft|port|convert|upgrade|improve|optimi[sz]e|clean\s+up)\b|^(?:帮|請|请|实现|實現|修复|修復|添加|创建|創建|写|寫|做|改)|\b(?:please|need\s+to|todo)\b/i;
/** Talk about the weekend, the weather or last night's match: substantive, but nobody's goal. */
const SMALL_TALK =
  /\b(?:weekend|holidays?|vacation|weather|football|match\s+last\s+night|how\s+are\s+you|how\s+was\s+your|did\s+you\s+(?:watch|see)|lunch|dinner)\b|周末|天气|天氣/i;
/** Commands that run the harness, not a task: alone, they are nobody's goal. */
const HOUSEKEEPING =
  /^\/?(?:clear|compact|model|cost|help|config|status|login|logout|resume|exit|quit|doctor|permissions|context|usage)$/i;
const CJK = /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}]/gu;

/** Enough words to say what is wanted: three words, or four CJK characters. */
function substantive(text: string): boolean {
  if (!text || ACK.test(text)) return false;
  return text.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length >= 3 || (text.match(CJK)?.length ?? 0) >= 4;
}

/** A turn's sentences, quoted material, code and Markdown headings left out (an emoji ends a sentence as a full stop does). */
function proseParts(text: string): string[] {
  return sentences(stripQuoted(text))
    .filter((x) => !/^#{1,6}\s/.test(x))
    .flatMap((x) => x.split(/(?<=\p{Extended_Pictographic}\uFE0F?)\s+/u));
}

/** Sentences as one line, without Markdown emphasis. */
const oneLine = (parts: string[]) =>
  parts
    .join(' ')
    .replace(/\*\*|__/g, '')
    .trim();

/** A turn's prose from its first substantive sentence on: "Hi!", "Coffee's brewing ☕" and small talk before the request are no part of it. */
function withoutOpeners(text: string): string {
  const parts = proseParts(text);
  const at = parts.findIndex((x) => {
    const said = x
      .replace(GREETING, '')
      .replace(/\p{Extended_Pictographic}\uFE0F?/gu, '')
      .trim();
    return substantive(said) && !SMALL_TALK.test(said);
  });
  return at < 0 ? '' : oneLine(parts.slice(at)).replace(GREETING, '');
}

/** A Claude Code slash command and its arguments (`/orchestrator create a TODO app`, `/init`), as the harness records it. */
function slashCommand(t: Turn): string | undefined {
  const name = /<command-name>\s*(\/?[\w:.-]+)\s*<\/command-name>/.exec(t.text)?.[1];
  const args = /<command-args>([\s\S]*?)<\/command-args>/.exec(t.text)?.[1]?.trim();
  if (!name || (!args && HOUSEKEEPING.test(name))) return undefined;
  return [name.startsWith('/') ? name : `/${name}`, args].filter(Boolean).join(' ');
}

/** The first thing a person asked or said that is neither a greeting, a thanks nor small talk (a slash command's arguments count). */
function goalOf(turns: Turn[]): { text: string; index: number; asked: boolean } | undefined {
  for (const t of turns) {
    const command = t.meta && !t.sidechain ? slashCommand(t) : undefined;
    if (command) return { text: command, index: t.index, asked: true };
    if (t.role !== 'user' || !isSpeech(t)) continue;
    const text = withoutOpeners(t.text);
    if (substantive(text) && !SMALL_TALK.test(text)) return { text, index: t.index, asked: REQUEST.test(text) };
  }
  return undefined;
}

/** The agent's last turn long enough to be a summary (twelve words, or twenty CJK characters) after the goal. */
function outcomeOf(turns: Turn[], after: number): { text: string; index: number } | undefined {
  for (let i = turns.length - 1; i >= 0; i--) {
    const t = turns[i]!;
    if (t.index <= after) return undefined;
    if (t.role !== 'assistant' || !isSpeech(t)) continue;
    const text = oneLine(proseParts(t.text));
    if (text.split(/\s+/).length >= 12 || (text.match(CJK)?.length ?? 0) >= 20) return { text, index: t.index };
  }
  return undefined;
}

const cite = (s: DaySession, first: number, last: number) => ({
  type: 'session' as const,
  sessionId: s.sessionId,
  first,
  last,
});

/** "Changed 27 files: a, b, c and 24 more": as many whole names as fit a bullet, then how many more. */
function fileList(paths: string[]): string {
  const head = `Changed ${count(paths.length, 'file')}: `;
  let shown = 0;
  let text = `${head}${paths[0]}`;
  while (shown + 1 < paths.length) {
    const more = paths.length - shown - 2;
    const next = `${head}${paths.slice(0, shown + 2).join(', ')}${more ? ` and ${more} more` : ''}`;
    if ([...next].length > TEXT_MAX) break;
    shown++;
    text = next;
  }
  const rest = paths.length - shown - 1;
  return rest && !text.endsWith(' more') ? `${text} and ${rest} more` : text;
}

export function sessionStory(s: DaySession): SessionStory {
  const goal = goalOf(s.turns);
  const outcome = outcomeOf(s.turns, goal?.index ?? 0);
  const files = changedFiles(s.turns);
  const story: SessionStory = { sessionId: s.sessionId, asked: !!goal?.asked };
  if (goal) story.goal = { text: safeText(`Goal: ${trimEnd(goal.text)}`), cite: cite(s, goal.index, goal.index) };
  if (outcome)
    story.outcome = { text: safeText(`Outcome: ${outcome.text}`), cite: cite(s, outcome.index, outcome.index) };
  if (files.paths.length) {
    story.files = { text: safeText(fileList(files.paths)), cite: cite(s, files.first, files.last) };
  }
  return story;
}
