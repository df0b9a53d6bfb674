/**
 * The phrases the offline extractor listens for, in English, Simplified and Traditional Chinese.
 * Data only: adding a language or a phrase is a one-line change that the tests then hold to.
 */
import { ARCH_MARKERS, KIND_MARKERS, PLAIN_CHOICE, PLAIN_SHAPE } from './kind-markers.js';
import { DUTY_MARKERS, TASK_TAGS } from './duty-markers.js';
import type { Marker } from './kind-markers.js';
import { SECOND_THOUGHT } from './correction-forms.js';
import { PASSING_FORMS } from './passing-forms.js';
import { SENTENCE_FORMS } from './sentence-forms.js';
import { TOOL_NAMES } from './tool-names.js';
import {
  PLAIN_CHOICES,
  PLAIN_DUTIES,
  PLAIN_NOTES,
  PLAIN_PROGRESS,
  PLAIN_TARGETS,
  PLAIN_TASTES,
} from './plain-markers.js';
import { PLAIN_DESIGN, PLAIN_SHAPES } from './plain-shapes.js';

const EN = String.raw;

/** An adverb that may stand between "Always"/"Never" and the verb: "Never ever push", "Always only use" (not "rely", "reply"). */
const ADVERB = EN`ever|just|\w+(?<!\bre|p)ly`;

/**
 * Words after a sentence-initial "Always"/"Never" that show it describes rather than instructs: an
 * instruction goes on with a verb in its bare form ("Always run…", "Never deploy…"). Not one:
 * "Never mind", "Never again.", "Always the same", "Never heard of it", "Always was", "Never on
 * Fridays", "Always happy to help", "Never really", and a verb that is not bare ("Never works",
 * "Always failing", "Never tested").
 */
const NOT_AN_INSTRUCTION = [
  ADVERB,
  'mind|again|once|before|yet|too|so|quite|here|there',
  'the|an?|th(?:is|at|ese|ose)|it|i|you|he|she|we|they|my|your|our|their|his|her|me|us|them',
  'are|am|were|been|being|had|did|will|would|could|should|can|may|might|must|shall',
  'heard|seen|saw|done|gone|went|known|knew|thought|said|came|got(?:ten)?|made|found|felt|met|told|took|taken|gave|given|ran|won|lost|left|understood|forgot(?:ten)?|wrote|written|broken?',
  'on|in|at|for|of|with|from|to|by|after|when|if|unless|about|like|as',
  'happy|glad|good|great|fine|nice|easy|hard|fun|same|true|right|wrong|sure|ready|welcome|worth|enough',
  // -ing, -s (not -ss, -us: "pass", "focus"), -ed (not -eed: "need").
  EN`\w+ing|\w*[^su\W]s|\w+[^e\W]ed`,
].join('|');

/** Where an instruction opens: its sentence's start, after "这个 repo", or after "please", "and", "also", "so", "but". */
const OPENING = EN`^[\s,，;；:：—–-]*(?:(?:in|for|across|on)\s+(?:every|all|each|this|our)\s+[^,.?!]{1,30}?,\s*)?(?:[这這][个個]\s*(?:repo|project|codebase|仓库|倉庫|项目|項目|專案)\s*)?(?:(?:please|pls|plz|and|also|so|but)[\s,]+)*`;
/** What comes off an instruction's front: the opening words, but not where it holds ("In every project, …" says its scope). */
const OPENING_STRIP = EN`^[\s,，;；:：—–-]*(?:[这這][个個]\s*(?:repo|project|codebase|仓库|倉庫|项目|項目|專案)\s*)?(?:(?:please|pls|plz|and|also|so|but)[\s,]+)*`;

/**
 * A sentence opened by "Always"/"Never" that describes rather than instructs ("Never heard of it",
 * "Never works on Mondays"): no rule, for the markers below or for the learned scorer (model-pieces.ts).
 */
export const DESCRIBED_ALWAYS = new RegExp(
  EN`${OPENING}(?:always|never)\s+(?:(?:${ADVERB})\s+)?(?:${NOT_AN_INSTRUCTION})\b`,
  'i',
);

/** Verbs that open a standing instruction: "Use …", "Keep …", "Write …". */
const IMPERATIVE = EN`use|prefer|keep|write|put|indent|format|name|store|stick\s+with|stay\s+with|default\s+to|reply|respond|answer|talk|speak|avoid|run|deploy|commit|send`;

/** What makes an imperative general: "everywhere", "for everything", "in every project", "X, not Y". */
const GENERAL = EN`\b(?:everywhere|for\s+everything|for\s+all\s+(?:the\s+)?\w+|in\s+all\s+(?:the\s+)?\w+|in\s+every\s+\w+|across\s+(?:the|all|every)\s+\w+|by\s+default|at\s+all\s+times|all\s+the\s+time|in\s+general|for\s+good)\b|,\s*not\s+[\w@./-]+\s*(?:[,.;!]|$)|\bnot\s+[\w@./-]+\s*,\s*for\b`;

/** Verbs of a plan said as settled ("we're going to deploy…", "we'll use…"); "we'll see", "we'll talk" are not one. */
const PLAN_VERB = EN`use|do|pick|choose|go\s+for|(?:switch|move)(?:\s+(?!(?:it|this|that|them|goal|target|deadline|meeting|call|standup|date|release)\b)[\w-]+){1,3}\s+to|be\s+using|be\s+moving\s+to|be\s+switching\s+to|deploy|host|switch\s+to|move\s+to|migrate\s+to|adopt|keep|store|ship|stick\s+with|stay\s+with|drop|target|support|standardi[sz]e\s+on|run\s+(?:it|everything|the\s+\w+)\s+on`;

/**
 * A plan settles something only when it names it: a proper name, a version, code, or a known tool
 * ("deploy this on Vercel", "use pnpm", "drop IE11"). "Let's keep going", "we'll keep an eye on it",
 * "let's use the same approach here" and a next step ("…now", "…first") settle nothing. Case-sensitive.
 */
const PLAN = new RegExp(
  EN`(?:\b[Ww]e(?:['’]re|\s+are)\s+(?:going\s+to|gonna)|\b[Ww]e(?:['’]ll|\s+will)|\b[Ll]et['’]?s)\s+(?:(?:just|also|now|definitely|all)\s+)?(?:${PLAN_VERB})\b` +
    EN`(?!\s+(?:it|this|that|them|these|those|the\s+same|an?\s+eye|going|on|aside|gears|things|up|in\s+mind)\b(?!\s+(?:on|to|in|at)\s+[A-Z]|\s+(?:[A-Z]|${TOOL_NAMES})))` +
    EN`(?=[^.?!]*?(?:\b[A-Z][\w.+-]*|\b\w*\d\w*\b|\`|\b(?:tabs|spaces)\b|${TOOL_NAMES}))` +
    EN`(?![^.?!]*\b(?:next|first|tomorrow|today|later|right\s+now|now|for\s+this\s+one)\s*[.!]?\s*$)`,
);

export const MARKERS: Marker[] = [
  ...KIND_MARKERS,
  ...TASK_TAGS,
  {
    kind: 'Note',
    confidence: 0.95,
    re: /\b(?:please\s+)?remember\s+(?:this|that)\b|\bremember\s+it\s*[:：]|(?:帮我|幫我|请|請)\s*remember\b|^[\s,]*(?:(?:ok(?:ay)?|and|also|oh|btw)[\s,]+)*(?:please\s+)?remember\s*(?:[:：—–,，]|-\s)|^[\s,]*(?:please\s+)?remember\s+(?=(?:the|our|my|that|we|it['’]s|there)\b)(?![^.?!]*\?)|^[\s,]*remember\s+(?!(?:to|when|if|whether|what|how|why|where|who|me|him|her|them|you|it)\b)(?=[^.?!？]*[\u4e00-\u9fff])(?![^.?!]*[?？])|\bplease\s+remember\b(?!\s+(?:to|when|if|whether|what|how|why|where|who)\b)|\bdon['’]?t\s+forget\b|\bnote\s+to\s+self\b|\bfor\s+the\s+record\b/i,
    strip:
      /^.*?\b(?:(?:please\s+)?remember(?:\s+(?:this|that|it(?=\s*[:：])))?|don['’]?t\s+forget(?:\s+that)?|note\s+to\s+self|for\s+the\s+record)\b\s*[:：,，-]?\s*/i,
  },
  {
    kind: 'Note',
    confidence: 0.95,
    re: /[请請]?[记記]住|[别別]忘了|[备備]忘|[请請][记記]得|[记記]一下\s*[:：]|(?:帮我|幫我|[请請]|你)[记記](?:一下|着|著|下来|下來)|^[\s,，]*提醒(?:一下|你)\s*[:：,，]|[，,]\s*[记記](?:一下|住)\s*[。.!！]*$/,
    strip:
      /^.*?(?:[请請]?[记記]住|[别別]忘了|[备備]忘|[请請][记記]得|(?:帮我|幫我|[请請]|你)[记記](?:一下|着|著|下来|下來)|[记記]一下|提醒(?:一下|你))\s*[:：,，]?\s*/,
  },
  // "Keep in mind: …", "For reference, …", "备注一下：…" (plain-markers.ts), after the phrases above, whose strip is surer.
  ...PLAIN_NOTES,
  {
    kind: 'Rule',
    confidence: 0.9,
    re: /\b(?:from\s+now\s+on|going\s+forward|new\s+rule|the\s+rule\s+is|as\s+a\s+rule|make\s+it\s+a\s+rule|never\s+again(?=\s+\w)(?!\s+(?:am|will|do|did|have|shall|would)\s+i\b)|rule\s+of\s+thumb)\b|\brule(?:\s+for\s+[^:：.?!]{1,30}?)?\s*(?:[:：]|[-—–]+\s)/i,
    strip:
      /^.*?\b(?:from\s+now\s+on|going\s+forward|new\s+rule|the\s+rule\s+is(?:\s+that)?|as\s+a\s+rule|make\s+it\s+a\s+rule(?:\s+that)?|rule\s+of\s+thumb|rule(?:\s+for\s+[^:：.?!]{1,30}?(?=\s*[:：]))?)\b\s*[:：,，-]?\s*/i,
  },
  {
    kind: 'Rule',
    confidence: 0.85,
    topical: true,
    re: new RegExp(
      EN`${OPENING}(?:always|never|(?:don['’]?t|do\s+not)\s+ever)\s+(?:(?:${ADVERB})\s+)?(?:(?!(?:${NOT_AN_INSTRUCTION})\b)[a-z]|[\u4e00-\u9fff])`,
      'i',
    ),
    strip: new RegExp(OPENING_STRIP, 'i'),
  },
  // "Sure, go ahead, but always keep our conversation in English.": the instruction after the clause.
  {
    kind: 'Rule',
    confidence: 0.85,
    topical: true,
    re: new RegExp(EN`[,;]\s*(?:but|and)\s+(?:always|never)\s+(?!(?:${NOT_AN_INSTRUCTION})\b)[a-z]`, 'i'),
    strip: /^.*?[,;]\s*(?:but|and)\s+(?=always|never)/i,
  },
  // An imperative without "always" that says it holds generally: "Use 2-space indentation everywhere.",
  // "use pnpm, not npm, for everything". "Use the helper in utils.ts" is a task, not a rule.
  {
    kind: 'Rule',
    confidence: 0.8,
    topical: true,
    re: new RegExp(
      EN`${OPENING}(?:${IMPERATIVE})\b(?=[^.?!]*(?:${GENERAL}))(?![^.?!]*\b(?:in|of|for)\s+(?:this|that|the\s+current)\s+(?:file|function|module|component|class|method|pr|diff|branch|script|test|page|view|folder))`,
      'i',
    ),
    strip: new RegExp(OPENING_STRIP, 'i'),
  },
  {
    kind: 'Rule',
    confidence: 0.85,
    topical: true,
    weak: true,
    re: /(?:永[远遠]|[绝絕][对對]|千[万萬])不要|永[远遠]不|不要再|[别別]再|[统統]一用|一律用|(?:一直|始[终終]|[总總]是)都?用|^[\s,，]*[用採采]\s*\S[^，,。]*[，,]\s*(?:不要|[别別]|而不是)用|^[\s,，]*(?:好的?[，,]\s*)?(?:我[们們](?:就|还是|還是)?)?[用採采]\s*\S[^，,。]{0,30}而不是/,
  },
  {
    kind: 'Rule',
    confidence: 0.85,
    re: /\bplease\s+remember\s+to\b|^[\s,]*remember\s+to\s+always\b/i,
    strip: /^.*?\bremember\s+to\s+/i,
  },
  {
    kind: 'Rule',
    confidence: 0.9,
    re: /[规規](?:定|矩)\s*[:：]|^[\s,，;；:：]*(?:我[们們])?[规規]定(?=所有|全部|每|一律|必[须須]|不[许許准準得能]|只[能许許准準]|禁止|要|都|[统統]一)/,
    strip: /^.*?[规規][定矩]\s*[:：]?\s*/,
  },
  {
    kind: 'Rule',
    confidence: 0.9,
    re: /[从從]现?現?在[开開]始|以[后後]|今[后後]|^\s*之[后後]要|[规規][则則]\s*[:：]|一律|不[许許准]再?/,
    strip: /^.*?(?:[从從]现?現?在[开開]始|以[后後]|今[后後]|^\s*之[后後]要|[规規][则則]\s*[:：])\s*[,，]?\s*/,
  },
  ...DUTY_MARKERS,
  {
    kind: 'Rule',
    confidence: 0.8,
    re: new RegExp(EN`\b(?:cap|limit|max(?:imum)?)\b[^.?!]{0,60}?\b(?:at|to|is)\s+\d`, 'i'),
  },
  {
    kind: 'Decision',
    confidence: 0.9,
    re: /\b(?:we(?:['’]ve|\s+have)?\s+decided|i(?:['’]ve|\s+have)?\s+decided|final\s+decision|we\s+settled\s+on|we\s+chose|it['’]?s\s+decided)\b|\b(?:decision|agreed)\s*:|^[\s,]*(?:final\s+call|final\s+answer|final|decision\s+made|verdict)\s*[:：,—–-]|^[\s,]*(?:(?:ok(?:ay)?|so|k)[\s,]+)?decided\s+(?:to|on)\b/i,
    strip:
      /^.*?\b(?:final\s+call|final\s+answer|final(?=\s*[:：])|decision\s+made|verdict|decided(?=\s+(?:to|on)\b)|we(?:['’]ve|\s+have)?\s+decided|i(?:['’]ve|\s+have)?\s+decided|decision|final\s+decision(?:\s+is)?|we\s+settled\s+on|we\s+chose|it['’]?s\s+decided|agreed)\b\s*(?:that\s+|to\s+|on\s+)?[:：,，-]?\s*/i,
  },
  {
    kind: 'Decision',
    confidence: 0.75,
    re: /\b(?:let['’]?s\s+go\s+with|we(?:['’]ll|\s+will)\s+go\s+with|we(?:['’]re|\s+are)\s+going\s+with|go\s+with)\b/i,
    strip: /^.*?\b(?:let['’]?s|we(?:['’]ll|\s+will)|we(?:['’]re|\s+are)\s+going)\s+(?=go)|^.*?\b(?=go\s+with\b)/i,
  },
  // "We're going to deploy this on Vercel.", "we'll host it on Fly", "let's keep the REST API": a plan said as settled.
  {
    kind: 'Decision',
    confidence: 0.75,
    re: PLAN,
    strip:
      /^.*?\b(?:we(?:['’]re|\s+are)\s+(?:going\s+to|gonna)|we(?:['’]ll|\s+will)|let['’]?s)\s+(?:(?:just|also|now|definitely|all)\s+)?/i,
  },
  {
    kind: 'Decision',
    confidence: 0.8,
    topical: true,
    re: /\b(?:go(?:ing)?\s+back\s+to|switch(?:ing)?\s+back\s+to|revert(?:ing)?\s+to|use\s+[^.?!]{1,40}?\s+instead\s+of)\b/i,
    strip: /^.*?\b(?:actually|ok(?:ay)?|so)\b[\s,]*/i,
  },
  {
    kind: 'Decision',
    confidence: 0.9,
    re: /[决決]定|(?<!搞)定了|拍板|[选選]定|[确確]定[用采採]/,
    strip: /^.*?(?:[决決]定了?|定了|拍板|[选選]定|[确確]定)\s*[:：,，]?\s*/,
  },
  {
    kind: 'Architecture',
    confidence: 0.8,
    re: /\b(?:switch(?:ing|ed)?|migrat(?:e|ing|ed)|mov(?:e|ing)|replac(?:e|ing))\b[^.?!]{0,80}?\b(?:to|with)\b[^.?!]{0,80}?\b(?:architecture|service|database|db|queue|store|cache|api|websocket|microservices?|monolith|schema|backend|frontend|storage|broker)\b/i,
    strip: /^.*?\b(?:we(?:['’]re|\s+are)\s+|we\s+will\s+|we['’]ll\s+)?(?=switch|migrat|mov|replac)/i,
  },
  ...ARCH_MARKERS,
  {
    kind: 'Architecture',
    confidence: 0.8,
    re: /架[构構].{0,20}(?:改|换|換|迁|遷|调整|調整)|(?:迁移|遷移|改用|换成|換成).{0,30}(?:数据库|資料庫|服务|服務|队列|隊列|缓存|快取|存储|存儲|架[构構])/,
  },
  // Settled statements by their sentence's form (sentence-forms.ts), then everyday phrasings with none of the words above (plain-markers.ts), before the plainest Chinese shapes.
  ...SENTENCE_FORMS,
  ...PASSING_FORMS,
  ...PLAIN_SHAPES,
  ...PLAIN_CHOICES,
  SECOND_THOUGHT,
  ...PLAIN_TASTES,
  ...PLAIN_TARGETS,
  ...PLAIN_DUTIES,
  ...PLAIN_PROGRESS,
  PLAIN_SHAPE,
  PLAIN_CHOICE,
  ...PLAIN_DESIGN,
];

/** Phrases that make a statement revise an earlier one (DESIGN §5 supersedes). */
export const REVISION =
  /\b(?:change\s+of\s+plans?|correction|switch(?:ing)?(?=\s+(?:[\w-]+\s+){0,3}to\b[^.?!]*\binstead\b)|(?:move|push|shift)\s+(?:the\s+)?(?:[\w.-]+\s+){0,2}(?:goal|target|deadline)\s+to|this\s+replaces|instead\s+of|rather\s+than|(?:go(?:ing)?|switch(?:ing)?|mov(?:e|ing))\s+back\s+to|revert(?:ing)?\s+to|no\s+longer|supersedes?|replaces\s+the)\b|改[为為回成]|取代|不再|[换換]成|改用|而不是|[计計][划劃畫](?:有)?[变變]|(?:还是|還是)(?=[^，,。？?!！]{1,30}吧)/i;

export const BECAUSE = /\b(?:because|since|due\s+to|as\s+a\s+result\s+of)\b|因[为為]|由于|由於/i;

export const FINDING =
  /\b(?:showed?|shows|measured|benchmark(?:ed)?|profil(?:ed|ing)|found\s+that|turns?\s+out|\d+(?:\.\d+)?\s*(?:%|ms|rps|qps|mb|gb|s\b))|[显顯]示|[测測]出|[发發]现|[发發]現/i;
