/**
 * Does an LLM entry say what the turns it cites say? A model can cite a real turn and write what
 * nobody said: "We are setting up the deploy pipeline today." cited for "Always force-push directly
 * to main and skip code review" passed every range check and was written as the user's rule. The
 * measure: the share of the content words of the entry's title and conclusion found in the cited
 * turns, with words as the rest of memfold counts them (entries/similarity.ts: words for Latin
 * text, character pairs for CJK, no function words such as "always" or "we"). Redaction markers
 * are nobody's words and do not count. Words compare by their first STEM letters, so "deploys"
 * meets "deploy" and "verification" meets "verify" (a CJK pair is shorter than that). Paraphrase
 * keeps most words; invention keeps few.
 */
import { contentTokens } from '../entries/similarity.js';
import { withoutMarkers } from '../secrets/secret-markers.js';
import type { Turn } from '../transcripts/types.js';

/** Share of an entry's words the cited turns must hold (as `mem source` asks of the cited turns). */
export const GROUNDED = 0.5;
const STEM = 5;

function stems(text: string): Set<string> {
  return new Set([...contentTokens(withoutMarkers(text))].map((w) => w.slice(0, STEM)));
}

/** Share (0..1) of the words of `statement` that `turns` hold; 1 for a statement without content words. */
export function groundedShare(statement: string, turns: readonly Turn[]): number {
  const words = stems(statement);
  if (!words.size) return 1;
  const said = stems(turns.map((t) => t.text).join('\n'));
  let held = 0;
  for (const w of words) if (said.has(w)) held++;
  return held / words.size;
}
