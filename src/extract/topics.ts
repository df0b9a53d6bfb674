/**
 * Which lexicon topic a statement speaks of (topic-lexicon.ts holds the words) and whether it is said
 * to hold in every project. The first topic word in the text wins, so "use pnpm, not npm" is about
 * the package manager once, not twice; a text naming none gets no topic, hence no key.
 */
import { TOPICS, type Topic } from './topic-lexicon.js';

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * One regex per topic: its Latin words as whole words (not inside `pnpm-lock` or `reactive`), its CJK
 * words anywhere. Matched against the lower-cased text without the `i` flag, and with one lookaround
 * per topic rather than one per word: V8 took 100-300 ms per call for the first calls of a process
 * (each `mem remember`, each microsync run) on the 14 case-insensitive Unicode regexes with a
 * lookbehind per word, and takes 5-15 ms on these.
 */
const MATCHERS = TOPICS.map((t) => ({
  topic: t,
  re: new RegExp(
    `(?<![\\p{L}\\p{N}_.:-])(?:${t.en.map((w) => escape(w).replace(/ /g, '\\s+')).join('|')})(?![\\p{L}\\p{N}_-]|\\.[\\p{L}\\p{N}])|${t.zh.map(escape).join('|')}`,
    'u',
  ),
}));

/** The topic a statement is about: the one whose word comes first in it, or undefined when it names none. */
export function topicOf(text: string): Topic | undefined {
  const lower = text.toLowerCase();
  let best: { topic: Topic; at: number } | undefined;
  for (const { topic, re } of MATCHERS) {
    const m = re.exec(lower);
    if (m && (!best || m.index < best.at)) best = { topic, at: m.index };
  }
  return best?.topic;
}

/**
 * What is said to hold everywhere: "in every project", "for all my repos", "全局", "所有项目".
 * A bare "everywhere" or "for everything" is not: said in a session, it means this project.
 */
export const EVERYWHERE =
  /\b(?:in|for|across)\s+(?:every|all(?:\s+(?:of\s+)?my)?|each(?:\s+of\s+my)?)\s+(?:projects?|repos|repositories|codebases?)\b|\bglobally\b|全局|所有的?(?:项目|項目|專案|仓库|倉庫)|每个(?:项目|仓库)|每個(?:項目|專案|倉庫)/i;
