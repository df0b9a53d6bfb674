/**
 * Which clause of a sentence settles something (issue 27: "take the sentence that states the rule,
 * not its justification"). A sentence can hold a side request and a rule ("先處理那個測試，另外我們的
 * 對話請一律用繁體中文"), a statement and a pointer back at it ("Use British spelling in the docs, I
 * prefer it"), or a rule whose standing phrase ends its clause before the reason ("search X for
 * invoices from now on, the label is unreliable"). Taking the marker's phrase and what follows it
 * landed the side request, "Prefer it" or the reason. Pure string logic; rules.ts applies it.
 */

/** Where an unrelated instruction starts inside a sentence: "…，另外…", "…, also …", "…; btw …". */
const ADDITIVE =
  /[，,;；]\s*(?:另外|还有|還有|顺便|順便|此外|再者|但是|不[过過]|(?:also|and\s+also|plus|btw|by\s+the\s+way|but)(?![\p{L}\p{N}]))[，,\s]*/giu;

/** A clause pointing back at the one before it: ", I prefer it", "，記取教訓", ", we decided that", "，我比較喜歡這樣", "，这是我们的目标", ", set that as the goal". */
const POINTS_BACK =
  /\s*[，,]\s*(?:[记記](?:一下|住)|note\s+(?:that|it)(?:\s+down)?)\s*[.!。！]*$|\s*[，,]\s*(?:记取教[训訓]|記取教訓|(?:[这這])是(?:[个個])?教[训訓]|lessons?\s+learned|(?:a\s+)?(?:lesson|note)\s+for\s+next\s+time)\s*[.!。！]*$|\s*[，,]\s*(?:[这這](?:就)?是(?:我[们們]的)?目[标標]|把[这這][个個]?(?:定|訂|设|設)(?:为|為|成)目[标標]|(?:that['’]s|this\s+is)\s+(?:the|our)\s+(?:goal|target)|set\s+(?:that|this|it)\s+as\s+(?:the|our|a)\s+(?:goal|target))\s*[.!。！]*$|\s*[,，;；—–-]\s*(?:(?:and|so)\s+)?(?:i|we)\s+(?:(?:really|strongly|much|all)\s+)?(?:prefer|like|want|mean|decided|agreed(?:\s+on)?)\s+(?:it|that|this|them)(?:\s+(?:way|better|more|one))?\s*[.!。！]*$|\s*[，,；;]\s*(?:我|我[们們])(?:比[较較]|更|还是|還是)?(?:喜[欢歡]|偏好|[决決]定|同意)(?:[这這][样樣]|[这這][个個]|[这這][种種])?(?:的)?\s*[。！!.]*$/iu;

/** A standing phrase closing its clause, a reason after it: "… from now on, the label is unreliable". */
const STANDING_THEN_MORE = /[\s,，]*\b(?:from\s+now\s+on|going\s+forward)\b\s*[,;，；]\s*(?=\S)/i;

/** The minimum length of a clause kept on its own (shorter, and the sentence is kept whole). */
const MIN_CLAUSE = 6;

export interface Clause {
  /** The clause that states it. */
  text: string;
  /** The marker's phrase is still in it, so its strip still applies. */
  keepsMarker: boolean;
}

/**
 * The settling clause of `sentence`, whose marker phrase starts at `at`; undefined when it is the
 * whole sentence.
 */
export function settlingClause(sentence: string, at: number): Clause | undefined {
  const back = POINTS_BACK.exec(sentence);
  if (back && back.index >= MIN_CLAUSE && at >= back.index)
    return { text: sentence.slice(0, back.index), keepsMarker: false };
  const standing = STANDING_THEN_MORE.exec(sentence);
  if (standing && standing.index >= MIN_CLAUSE && at >= standing.index)
    return { text: sentence.slice(0, standing.index), keepsMarker: false };
  let start = 0;
  for (const m of sentence.matchAll(ADDITIVE)) if (m.index! + m[0].length <= at) start = m.index! + m[0].length;
  if (start > 0 && Array.from(sentence.slice(start)).length >= MIN_CLAUSE)
    return { text: sentence.slice(start), keepsMarker: true };
  return undefined;
}
