/**
 * What a sentence does besides stating something (issue 27): reports someone else's words, cancels
 * what was just said, asks for something as a question, corrects the agent, retracts a named fact,
 * or says that the statement before it replaces an earlier one. Data and small tests only.
 */

const EN = String.raw;

/**
 * Someone else's words: "Alice said we decided…", "he told me from now on…", "张三说以后…". The
 * speaker is anyone but the user ("I said", "we said" are the user's own). Decides nothing.
 */
export const REPORTED = new RegExp(
  [
    EN`(?:^|[\s,;:(])(?!(?:[Ii]|[Ww]e)\b)(?:[A-Z][a-z]+|he|she|they|someone|somebody|everyone|people|[Mm]y\s+\w+|[Oo]ur\s+\w+|[Tt]he\s+(?:team|client|customer|boss|manager|docs?|article|blog|post|readme|vendor|consultant|other\s+team))\s+(?:said|says|told\s+(?:me|us)|tells\s+(?:me|us)|claims?|claimed|mentioned|wrote|thinks|thought|suggested|suggests|reckons|insists|asked|prefers|likes|wants|recommends|recommended|proposed|proposes|would\s+like)\b`,
    EN`\baccording\s+to\b`,
    '(?:他|她|他[们們]|她[们們]|老[板闆]|同事|[经經]理|客[户戶]|有人|[A-Z][a-z]+|[小老阿][\\u4e00-\\u9fff])\\s*(?:[说說]|表示|[觉覺]得|[认認][为為]|提到|建[议議]|推[荐薦]|提[议議]|主[张張]|希望|(?:比[较較]|更)?(?:喜[欢歡]|偏好|想要|想用)|[习習][惯慣]|偏向|[倾傾]向|[爱愛]用|堅持|坚持)',
  ].join('|'),
);

/** A statement taken back right after it: "…, but I disagree", "not settled", "還沒定". */
export const CANCEL =
  /\b(?:but\s+)?i\s+(?:disagree|don['’]?t\s+agree)\b|\bnot\s+a\s+(?:goal|rule|decision)\b|不算目[标標]|不是目[标標]|\bnot\s+(?:settled|final|agreed)(?:\s+yet)?\b|\bnothing\s+(?:is\s+)?(?:settled|final)\b|[还還][没沒]定|未定|[还還][没沒][确確]定|不同意|有待商[榷量]/i;

/**
 * A question that is really a request: "from now on could you send me a note first?". Only with a
 * standing marker (from now on, always, going forward): "could you look at this?" is a one-off.
 */
export const REQUEST =
  /^(?:(?:from\s+now\s+on|going\s+forward|please|and|also|so)[\s,]+)*(?:could|can|would|will)\s+you\s+(?:please\s+)?/i;
export const STANDING =
  /\b(?:from\s+now\s+on|going\s+forward|always|never|every\s+time|each\s+time)\b|以后|以後|今[后後]|[从從][现現]在[开開]始|每次|[总總]是/i;

/** A request to track something: "Can you put upgrading Django on the list?" asks for a task, not a yes. */
/** A request about how the agent answers: "can u keep the explanations brief?", "could you reply in English?". */
const TASTE_ASK =
  /\b(?:keep|make)\s+(?:the\s+|your\s+)?(?:answers?|replies|responses?|explanations?|messages?|summaries)\b|\b(?:reply|respond|answer|talk\s+to\s+me|write)\s+in\s+(?:english|chinese|mandarin|traditional|simplified)\b/i;
const LISTED = /\b(?:put|add)\s+.{3,60}?\s+(?:on|to)\s+(?:the|my|our)\s+(?:todo\s+|to-do\s+|task\s+)?list\b/i;

/** "之後要…" opening a sentence: from now on, in Taiwan wording. */
const ZH_LATER = /^(?:之[后後]|以[后後]|今[后後])/;
/** The asking words of a Chinese request: 能不能, 可不可以, 可以…吗, 能否, 麻烦你. */
const ZH_ASK = /(?:你)?(?:能不能|可不可以|能否|可以|麻[烦煩]你?)(?=[^？?]*[吗嗎]?\s*[?？]\s*$)/;

/** "Could you … ?" said as a standing request, with the asking words and the question mark gone. */
export function asRequest(sentence: string): string | undefined {
  if (
    !/[?？]\s*$/.test(sentence) ||
    !(STANDING.test(sentence) || ZH_LATER.test(sentence) || LISTED.test(sentence) || TASTE_ASK.test(sentence))
  )
    return undefined;
  const zh = ZH_ASK.exec(sentence);
  // "以后开始压缩上下文之前，能不能先跟我说一声？" → "以后开始压缩上下文之前，先跟我说一声。"
  if (zh)
    return `${sentence.slice(0, zh.index)}${sentence.slice(zh.index + zh[0].length)}`.replace(
      /\s*[吗嗎呢]?\s*[?？]+\s*$/,
      '。',
    );
  const m = /\b(?:could|can|would|will)\s+(?:you|u)\s+(?:please\s+|pls\s+)?/i.exec(sentence);
  if (!m) return undefined;
  const before = sentence.slice(0, m.index);
  if (!/^(?:(?:from\s+now\s+on|going\s+forward|please|and|also|so|ok(?:ay)?|hey)[\s,]*)*$/i.test(before))
    return undefined;
  const asked = sentence.slice(m.index + m[0].length).replace(/[?？]+\s*$/, '');
  // "Can you always do that?" names nothing to do: a request says what.
  if (
    asked
      .replace(STANDING, ' ')
      .split(/\s+/)
      .filter((w) => w && !/^(?:that|this|it|so)$/i.test(w)).length < 3
  )
    return undefined;
  return `${before}${asked}.`;
}

/**
 * The user correcting the agent: "no, use X", "actually, make it X", "nope — X instead", "不对，改成X".
 * The rest after the opener is the corrected statement; it revises what came before.
 */
export const CORRECTION =
  /^\s*(?:(?:no|nope|nah|actually|wait|hold\s+on|hmm+|never\s*mind|scratch\s+that|correction)[\s,.!:;—–-]+)+(?=(?:use|go\s+with|switch\s+(?:back\s+)?to|go\s+back\s+to|make\s+(?:it|that)|keep|stick\s+with|let['’]?s|we(?:['’]ll|\s+will)|it\s+should\s+be|move|put|deploy|host|store|run|split)\b|[\w.+-]+\s+instead\b|it\s+(?:goes|runs|uses|should)\b)|^\s*(?:change\s+of\s+plans?|change\s+that|correction|on\s+second\s+thought|改一下|更正|修正|[计計][划劃畫]有[变變]|改[个個]主意)\s*[:：,，—–-]\s*(?=\S)|^\s*(?:不[对對]|不是|算了)[，,。\s]*(?=(?:还是|還是)?\s*(?:改[成为為用回]|[换換][成回]|用|switch|use|go\s+back))/i;

/**
 * A named fact taken back: "forget the Redis decision", "scrap the Friday rule", "drop that caching
 * decision", "撤回关于 Redis 的决定", "算了，不要用 Redis 了". Group 1 is what is named.
 */
export const RETRACT_NAMED =
  /\b(?:forget|scrap|scratch|drop|retract|cancel|undo|ignore)\s+(?:about\s+)?(?:the|that|our|my)\s+(.{2,60}?)\s+(decision|rule|note|preference|goal|task|lesson|plan|idea)\b|撤回(?:关于|關於)?\s*(.{1,30}?)(?:的)?(决定|決定|规则|規則|)[。！!.]?$|^\s*算了[，,]\s*(?:不要|[别別])(.{1,30}?)了?[。！!.]?$|把\s*(.{1,30}?)\s*(?:那[个個]|[这這][个個]|的)?\s*(决定|決定|规则|規則)\s*(?:撤回|取消|作废|作廢)/i;

export interface NamedRetraction {
  /** The words naming the fact: "Redis", "用 Redis". */
  named: string;
  /** The kind named ("the Redis decision"), when one is. */
  kindWord?: string;
}

export function namedRetraction(sentence: string): NamedRetraction | undefined {
  const m = RETRACT_NAMED.exec(sentence);
  if (!m) return undefined;
  const named = (m[1] ?? m[3] ?? m[5] ?? m[6] ?? '').trim();
  if (!named || /^(?:it|this|that|these|those|last|previous|other)$/i.test(named)) return undefined;
  const kindWord = (m[2] ?? m[4] ?? m[7] ?? '').toLowerCase() || undefined;
  return { named, ...(kindWord ? { kindWord } : {}) };
}

/**
 * A sentence of its own saying the statement before it replaces an earlier fact: "This replaces
 * Monday's decision.", "That supersedes the old rule.", "这取代了周一的决定。".
 */
export const REPLACES_EARLIER = new RegExp(
  EN`^(?:(?:this|that|it)\s+(?:replaces|supersedes|overrides|reverses|undoes)|(?:this|that|it)\s+(?:is|was)\s+(?:a\s+)?(?:change|reversal)\s+(?:from|of))\b|^(?:这|這|此|它)(?:个|個)?(?:取代|替代|替[换換]|推翻|覆盖|覆蓋)`,
  'i',
);
