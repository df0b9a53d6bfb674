/**
 * Which earlier entry a revision or a retraction names (issue 27), by what it says rather than by
 * overall likeness: "use Postgres instead of SQLite" replaces the entry that says SQLite; "go back
 * to Redis" the one that took Redis away; "this replaces Monday's decision" Monday's; "forget the
 * Redis decision" the decision about Redis. Likeness alone missed these (the words they share are
 * too few), and a wrong link is worse than none: a statement naming nothing here falls back to the
 * planner's similarity test, and one naming what no entry holds stays unlinked (compound reports it).
 * Also here: whether a candidate says what an entry from the same message already says.
 */
import { getField, getSource, type Entry } from '../../entries/model.js';
import { normalise } from '../../extract/sentences.js';
import { namedRetraction } from '../../extract/speech-acts.js';
import type { Candidate } from '../../extract/types.js';

export interface Held {
  id: string;
  entry: Entry;
}

const EN = String.raw;
/** Where a named term ends: punctuation, or a word that starts what follows it. */
const TERM_END = EN`(?=\s*(?:[,.;:!?)，。；：！？、]|$)|\s+(?:for|in|on|at|to|as|because|since|from|now|anymore|everywhere|here|there|then|and|but|so|with|which|that)\b)`;
const TERM = EN`((?:the\s+|our\s+|a\s+|an\s+)?[^\s,.;:!?，。；：！？、][^,.;:!?，。；：！？、]{0,40}?)`;

/** What the statement says is replaced: the entry in force that holds it is the one revised. */
const REPLACED = [
  new RegExp(EN`\b(?:instead\s+of|rather\s+than|in\s+place\s+of|no\s+more)\s+${TERM}${TERM_END}`, 'gi'),
  new RegExp(
    EN`\b(?:switch(?:ing|ed)?|mov(?:e|ing|ed)|migrat(?:e|ing|ed)|chang(?:e|ing|ed))\s+(?:\w+\s+){0,3}?from\s+${TERM}\s+to\b`,
    'gi',
  ),
  new RegExp(
    EN`\b(?:drop(?:ping)?|ditch(?:ing)?|replac(?:e|ing)|abandon(?:ing)?|no\s+longer\s+use)\s+${TERM}${TERM_END}`,
    'gi',
  ),
  // "This replaces the REST decision from this morning": the decision about REST.
  /\b(?:replaces|supersedes|overrides)\s+(?:the|our|my|that)\s+([^\s,.;:!?]+(?:\s+[^\s,.;:!?]+){0,2}?)\s+(?:decision|rule|plan|choice|preference)\b/gi,
  /(?:而不是|不再用|不再使用|放弃|放棄|取代|代替|不用)\s*([^，。；！？,.;!?\s][^，。；！？,.;!?]{0,20}?)(?=\s*(?:[，。；！？,.;!?]|了|$))/g,
  /把\s*([^，。；！？,.;!?]{1,20}?)\s*(?:改成|改为|改為|换成|換成|替换成|替換成)/g,
  // "这个替换掉上午 Swagger 的决定", "這個取代早上 Redoc 的決定": the decision about the named tool.
  /(?:取代|替[换換]掉?|推翻|覆[盖蓋]|代替)了?\s*[^\sA-Za-z，。；！？,.;!?]{0,4}\s*([A-Za-z][\w.+-]*(?:\s+[A-Za-z][\w.+-]*)?)\s*(?:的|那[个個])?\s*(?:决定|決定|规则|規則|方案)/g,
  // "不要轮询任务表了", "不要再 poll 了", "不存 Redis 了": what is no longer done.
  /(?:不要再?|[别別]再?|不再|不存)\s*([^，。；！？,.;!?]{1,20}?)\s*了/g,
];

/** What the statement goes back to: the entry in force that took it away mentions it. */
const RETURNED = [
  new RegExp(EN`\b(?:go(?:ing)?|switch(?:ing)?|mov(?:e|ing))\s+back\s+to\s+${TERM}${TERM_END}`, 'gi'),
  new RegExp(EN`\brevert(?:ing)?\s+to\s+${TERM}${TERM_END}`, 'gi'),
  /改回(?:用|到)?\s*([^，。；！？,.;!?]{1,20}?)(?=\s*(?:[，。；！？,.;!?]|$))/g,
];

/** "Monday's decision", "yesterday's rule", "周一的决定": an entry of that day. */
const DAY_REF =
  /\b(monday|tuesday|wednesday|thursday|friday|saturday|sunday|yesterday)['’]?s?\s+(?:decision|rule|plan|note|choice)\b|(?:周|週|星期)([一二三四五六日天])(?:的|那个|那個)?(?:决定|決定|规则|規則)|昨天的(?:决定|決定|规则|規則)/i;
const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
const ZH_DAYS = '日一二三四五六';

const DETERMINER = /^(?:the|our|a|an|that|this|these|those|it|them|its)\s+/i;
const DEICTIC = /^(?:that|this|these|those|it|them)\b/i;
const VERB_LEAD = /^(?:用|使用|采用|採用)\s*/;

function terms(patterns: RegExp[], text: string): string[] {
  const out: string[] = [];
  for (const re of patterns) {
    for (const m of text.matchAll(re)) {
      const raw = (m[1] ?? '').trim();
      if (!raw || DEICTIC.test(raw)) continue;
      const term = normalise(raw.replace(DETERMINER, '').replace(VERB_LEAD, ''));
      if (term) out.push(term);
    }
  }
  return out;
}

/** Whether the entry's words hold the term: whole words in Latin script, a substring in CJK. */
function holds(entry: Entry, term: string): boolean {
  const text = ` ${normalise(`${entry.title} ${getField(entry, 'conclusion') ?? ''}`)} `;
  return /[\p{sc=Han}]/u.test(term) ? text.includes(term) : text.includes(` ${term} `);
}

/** The day a "Monday's decision" points at, before `day`: the latest entry date of that weekday. */
function dayMatches(statement: string, entryDay: string, day: string | undefined): boolean {
  const m = DAY_REF.exec(statement);
  if (!m || !entryDay || (day && entryDay > day)) return false;
  const date = new Date(`${entryDay}T12:00:00Z`);
  if (m[1]?.toLowerCase() === 'yesterday' || (!m[1] && !m[2])) {
    return !!day && new Date(`${day}T12:00:00Z`).getTime() - date.getTime() === 86_400_000;
  }
  const want = m[1] ? WEEKDAYS.indexOf(m[1].toLowerCase()) : ZH_DAYS.indexOf(m[2] === '天' ? '日' : m[2]!);
  return date.getUTCDay() === want && (!day || entryDay < day);
}

/**
 * The id of the entry `c` names, among `pool` (entries in force, in the candidate's scope, oldest
 * first); `related` says which of them a revision of c's kind may replace. Undefined when it names
 * nothing there.
 */
export function revisionTarget(
  c: Candidate,
  pool: Held[],
  related: (k: Held) => boolean,
  day?: string,
): string | undefined {
  const statement = `${c.title}. ${c.conclusion}`;
  if (c.retracting) {
    const named = namedRetraction(c.conclusion);
    const words = named ? terms([/^(.+)$/g], named.named) : [];
    if (!words.length) return undefined;
    const kindOk = (k: Held) => !named?.kindWord || related(k);
    return latest(
      pool.filter(
        (k) => kindOk(k) && words.every((w) => holds(k.entry, w) || w.split(' ').every((p) => holds(k.entry, p))),
      ),
    );
  }
  const mine = pool.filter(related);
  const replaced = [...terms(REPLACED, statement), ...terms(RETURNED, statement)];
  const byTerm = replaced.length ? mine.filter((k) => replaced.some((t) => holds(k.entry, t))) : [];
  const byDay = mine.filter((k) => dayMatches(statement, getField(k.entry, 'date') ?? '', day));
  const both = byTerm.filter((k) => byDay.includes(k));
  return latest(both.length ? both : byTerm.length ? byTerm : byDay);
}

/** A named term's words worth comparing: Latin words of 3+ letters; a CJK run as its two-character pieces (轮询任务表 → 轮询, 询任, …). */
function pieces(word: string): string[] {
  const chars = Array.from(word);
  if (!/[\p{sc=Han}]/u.test(word)) return chars.length >= 3 ? [word] : [];
  return chars
    .slice(0, -1)
    .map((ch, i) => ch + chars[i + 1])
    .filter((p) => /^[\p{sc=Han}]{2}$/u.test(p));
}

/** How many turns back a revision may reach inside its session: the last exchange (user, agent, tools, user). */
const JUST_BEFORE_TURNS = 4;

/**
 * What a revision that names nothing revises inside its own session: the newest entry of `pool`
 * said in the same session, in the same message or the exchange just before ("通知服务每 5 秒轮询" →
 * "不对，改成用 Redis 的发布订阅"; "目标是二季度…" → "计划有变：目标改成三季度…"). Never across sessions;
 * one naming the replaced thing ("instead of Algolia") only a statement holding a word of it.
 */
export function justBefore(c: Candidate, pool: Held[]): string | undefined {
  // Naming what it replaces ("instead of Algolia"), it revises only a statement sharing a word of it.
  const statement = `${c.title}. ${c.conclusion}`;
  const words = [...terms(REPLACED, statement), ...terms(RETURNED, statement)]
    .flatMap((t) => t.split(' '))
    .flatMap(pieces);
  const near = pool.filter((k) => {
    const src = getSource(k.entry);
    const end = Number(src?.message_range?.split('-')[1]);
    if (src?.session_id !== c.sessionId || end > c.firstTurn || end < c.firstTurn - JUST_BEFORE_TURNS) return false;
    return !words.length || words.some((w) => holds(k.entry, w) || holds(k.entry, w.replace(/ing$/, '')));
  });
  return near.at(-1)?.id;
}

/** The newest of the entries (by date; among one day's, the last written). */
function latest(list: Held[]): string | undefined {
  let best: Held | undefined;
  for (const k of list)
    if (!best || (getField(k.entry, 'date') ?? '') >= (getField(best.entry, 'date') ?? '')) best = k;
  return best?.id;
}

/**
 * The same statement as an entry an older extractor wrote from the same message: the normalised
 * conclusions are equal, or one holds the other and is most of it ("Vite for the web build" then,
 * "Go with Vite for the web build" now). Only asked of an entry with the same session and range.
 */
export function sameSaying(entry: Entry, c: Candidate): boolean {
  const [a, b] = [normalise(getField(entry, 'conclusion') ?? ''), normalise(c.conclusion)];
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  return a === b || (short.length >= 0.6 * long.length && short.length > 0 && ` ${long} `.includes(` ${short} `));
}

/** Words of a task's state update that do not name the task: "Great, the login task is done." names "login". */
const NOT_A_NAME =
  /\b(?:great|good|nice|ok(?:ay)?|so|well|now|the|a|an|is|are|was|were|it|this|that|our|my|we|i|am|on|of|for|to|until|till|and|still|finally|just|task|todo|to-do|done|finished|completed?|blocked|stuck|in|progress|doing|started|because|since|waiting)\b|做好|弄好|搞定|[写寫]好|好了?|终于|終於|那个|那個|这个|這個|的|了|任[务務]|已[经經]?完成|做完|完成|已[经經]|卡住|阻塞|进行中|進行中|被|在|等|还|還|我/gi;

/**
 * The open task a state update names ("the login task is done", "I'm blocked on the SSO task"; said
 * without "task", by its first clause: "The Postgres driver upgrade is blocked, v9 breaks…"):
 * the newest Task in `pool` whose words hold every word the update names it by. None when it names nothing.
 */
export function taskTarget(c: Candidate, pool: Held[]): string | undefined {
  const named =
    /\b(?:the|our|my)\s+([^,.;:!?]{1,40}?)\s+task\b/i.exec(c.title)?.[1] ??
    /([^，。；：！？,.;:!?\s]{2,12}?)(?:的)?任[务務]/.exec(c.title)?.[1] ??
    /([^，。；：！？,.;:!?]{2,30}?)\s*(?:的|那[个個])\s*task\b/i.exec(c.title)?.[1] ??
    /^(?:the\s+)?([^,.;:!?]{2,40}?)\s+(?:work\s+)?(?:is|are)\s+(?:now\s+|all\s+)?(?:done|finished|completed?|blocked)\b/i.exec(
      c.title,
    )?.[1] ??
    c.title.split(/[,，;；]/)[0]!;
  const words = normalise(named.replace(NOT_A_NAME, ' '))
    .split(/\s+/)
    .filter((w) => (/[\p{sc=Han}]/u.test(w) ? w.length >= 2 : w.length >= 3));
  if (!words.length || words.length > 4) return undefined;
  return latest(pool.filter((k) => k.entry.kind === 'Task' && words.every((w) => holdsWordOf(k.entry, w))));
}

/** A word's stem for telling "migrating" and "migrate", "deploys" and "deploy" apart from other words. */
const stem = (w: string) => (w.length > 5 ? w.replace(/(?:ations?|ing|ed|es|e|s)$/, '') : w);

/** holds(), or for a Latin word, some word of the entry with the same stem ("migrating the avatars" names "migrate the user avatars"). */
function holdsWordOf(entry: Entry, term: string): boolean {
  if (holds(entry, term)) return true;
  if (/[\p{sc=Han}]/u.test(term)) return false;
  const want = stem(term);
  return normalise(`${entry.title} ${getField(entry, 'conclusion') ?? ''}`)
    .split(/[^\p{L}\p{N}]+/u)
    .some((w) => w.length > 2 && stem(w) === want);
}
