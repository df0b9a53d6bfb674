/**
 * Everyday ways of settling things that carry none of the older markers' words (issue 27 item 4;
 * how the system is now is plain-shapes.ts): plain prohibitions and duties ("Don't merge without a green CI run", "No force-pushes on shared
 * branches", "Ask me before deleting any branch", "不要直接往 main 推"), choices said in passing
 * ("Tailwind it is", "Going with Zod", "We picked Sentry"), tastes said in a few words ("Tabs, not
 * spaces.", "I'm a fan of …", "Keep your answers short"), targets with a measure ("Let's aim for
 * 80%", "要把首屏时间降到 1 秒以内"), task progress ("I finished …", "… is done", "I'm stuck on …",
 * "卡關了") and notes ("Keep in mind: …"). Before, each of these landed nothing, or the wrong kind.
 *
 * Most are `weak`: said plainly, they are the user's word only when nothing in the message leaves
 * them open (a question, a hedge, a condition, someone else's voice: hedges.ts, rules.ts). Data only,
 * like markers.ts, which lists these after the older phrases.
 */
import type { Marker } from './kind-markers.js';

const EN = String.raw;

/** Verbs of a prohibition about work on the code ("Don't merge …"): not "don't worry", "don't know". */
const DEV_VERB = EN`mock|stub|comment\s+out|merge|push|force[\s-]push|commit|touch|edit|modify|deploy|release|ship|log|print|expose|hard[\s-]?code|store|delete|remove|drop|skip|disable|bypass|install|upgrade|bump|send|share|rename|rewrite|squash|rebase|amend|import|publish|leak|check\s+in|use|add|run|call|email|reply`;
/** A one-off, not a standing rule: "don't merge yet", "don't push for now". */
const ONE_OFF = EN`(?![^.?!]*\b(?:yet|for\s+now|right\s+now|today|this\s+time|until\b))`;

export const PLAIN_DUTIES: Marker[] = [
  {
    kind: 'Rule',
    confidence: 0.8,
    weak: true,
    topical: true,
    re: new RegExp(
      [
        EN`^[\s,]*(?:(?:please|and|also|but|so|oh|ok(?:ay)?)[\s,]+)*(?:don['’]?t|do\s+not)\s+(?:(?:ever|ever\s+again|directly|just)\s+)?(?:${DEV_VERB})\b${ONE_OFF}`,
        EN`^[\s,]*no\s+(?!(?:worries|problem|thanks|idea|way|need|rush|clue|doubt|luck|one|matter|more|longer)\b)[\w.-]+(?:\s+[\w.-]+)?\s+(?:on|to|in|into|without|before|after|during|outside|from)\b`,
        EN`\bmake\s+sure\s+(?:to\s+always|(?:that\s+)?(?:every|each|all|any)|you\s+always)\b`,
        EN`^[\s,]*(?:please\s+)?(?:always\s+)?(?:ask|check\s+with|ping|show|tell|email|e-mail|message|text|slack|dm|notify|warn)\s+me\b[^.?!]{0,30}?\bbefore\b`,
        EN`\b(?:are|is|get|gets)\s+(?:\w+\s+)?(?:cut|frozen|released|deployed|tagged|merged|shipped|published|reviewed)\s+(?:every|each|on)\s+(?:(?:mon|tues|wednes|thurs|fri|satur|sun)days?|morning|evening|night|week|sprint|release)\b`,
        EN`^[\s,]*(?:please\s+)?only\s+(?:${DEV_VERB}|deploy|merge|release)\b`,
        EN`^[\s,]*only\s+(?:the\s+)?[\w-]+(?:\s+[\w-]+)?\s+(?:can|may|gets?\s+to|is\s+allowed\s+to|(?!is\b|was\b|has\b)[a-z]+s)\b`,
        EN`^[\s,]*(?:nobody|no\s+one)\s+(?:ever\s+)?[a-z]+s\b|[,;]\s*(?:but\s+|and\s+)?never\s+(?:in|on|to|into|from|with)\b`,
        EN`^[\s,]*(?:please\s+)?(?:avoid|stop\s+using|quit\s+using)\s+(?!(?:this|that|it|here)\b)\S${ONE_OFF}`,
        EN`^[\s,]*you\s+(?:must(?!\s+(?:be|have)\b)|should\s+always|must\s+always|always\s+have\s+to)\b|^[\s,]*you\s+(?:have|need)\s+to\b(?=[^.?!]*\b(?:before|after|every|each|always|whenever)\b)`,
        EN`^[\s,]*(?:all\s+|the\s+)?(?:[\w-]+\s+)?[\w-]+s\s+(?:must|should\s+always)\s+(?!have\s+been|be\s+(?:broken|wrong|confused|tired|down)\b)|^[\s,]*(?:all\s+|the\s+)?(?:[\w-]+\s+)?[\w-]+s\s+(?:have\s+to|need\s+to)\b(?=[^.?!]*\b(?:before|after|every|each|always|whenever)\b)`,
      ].join('|'),
      'i',
    ),
  },
  // "不要直接往 main 推", "PR 不要超过 500 行", "提交之前先跑一遍单元测试", "不要在週五下午上線".
  {
    kind: 'Rule',
    confidence: 0.8,
    weak: true,
    re: /^[\s,，]*(?:[^，,。？?!！]{0,14}?)(?<![我你他她要])(?:[请請]?不要|[请請]?[别別](?!人|的))(?=\s*[\p{sc=Han}A-Za-z])(?![^，,。]*(?:了|吧)\s*[。！!]?$)|^[\s,，]*[^，,。？?]{1,12}?(?:之前|以前|前)(?:先|都要|一定要|要先|得先|要|得|必[须須])(?![^，,。]*(?:了|吧)\s*[。！!]?$)|(?:都|也)?要(?:跟|和|同)[^，,。？?]{1,12}(?:一起|同步)|(?:[谁誰]|任何人)都(?:不能|不准|不可以|[别別])|只能(?:通过|通過|经过|經過|走|用|透過|透过)|都(?:要|得|需要|必[须須])(?:走|[经經]过|[經]過|先|有|[写寫]|加)|不(?:能|准|可以)跳[过過]|[也都]要[写寫加跑]/u,
  },
];

export const PLAIN_CHOICES: Marker[] = [
  // "OK, Tailwind it is." (case-sensitive: a name), "Going with Zod", "We picked Sentry", "Decided: …".
  {
    kind: 'Decision',
    confidence: 0.75,
    re: /^[\s,]*(?:(?:OK|Ok|ok|Okay|okay|Alright|alright|Fine|fine|Right|right|So|so|Then|then)[\s,]+)?(?:[A-Z][\w.+-]*|pnpm|npm|yarn|bun|tabs|spaces)(?:\s+[A-Z0-9][\w.+-]*)?\s+it\s+is(?:,?\s*then)?\s*[.!]*$/,
    strip: /^[\s,]*(?:(?:ok(?:ay)?|alright|fine|right|so|then)[\s,]+)?|\s+it\s+is(?:,?\s*then)?\s*[.!]*$/gi,
  },
  // "Invoices will be generated with Typst.": how a thing will be made, with a named tool (case-sensitive: a name).
  {
    kind: 'Decision',
    confidence: 0.7,
    weak: true,
    re: /^[\s,]*(?:[Tt]he\s+|[Oo]ur\s+|[Aa]ll\s+)?[A-Za-z][\w\s-]{1,40}?\s+will\s+(?:now\s+|all\s+)?be\s+(?:generated|built|written|hosted|deployed|stored|run|handled|rendered|served|kept|sent|managed|tested|bundled|scheduled)\s+(?:with|in|on|by|using|via|through)\s+(?:[A-Z][\w.+-]*|pnpm|npm|yarn|bun)/,
  },
  // "We're using pnpm workspaces for the monorepo.": what is in use for a purpose.
  {
    kind: 'Decision',
    confidence: 0.7,
    weak: true,
    re: /^[\s,]*(?:we['’]re|we\s+are)\s+(?:now\s+)?using\s+\S[^.?!]*?\s+for\s+\S/i,
    strip: /^[\s,]*(?:we['’]re|we\s+are)\s+(?:now\s+)?(?=using)/i,
  },
  {
    kind: 'Decision',
    confidence: 0.8,
    re: /\b(?:i['’]?m|i\s+am|we['’]re|we\s+are)\s+(?:choosing|picking|adopting)\b|\b(?:we|i)\s+ended\s+up\s+(?:choosing|picking|going\s+with|using|with)\b|^[\s,]*(?:(?:ok(?:ay)?|so|alright)[\s,]+)?going\s+with\s+(?!the\s+flow|it\b|that\b|this\b)|\b(?:we|i)(?:['’]ve|\s+have)?\s+(?:picked|went\s+with|gone\s+with|opted\s+for|landed\s+on|agreed\s+on|settled\s+on)\b|^[\s,]*decided\s*[:：]/i,
    strip:
      /^.*?\b(?:going\s+with|(?:we|i)(?:['’]ve|\s+have)?\s+(?:picked|went\s+with|gone\s+with|opted\s+for|landed\s+on|agreed\s+on|settled\s+on)|decided\s*[:：]|(?:i['’]?m|i\s+am|we['’]re|we\s+are)\s+(?=choosing|picking|adopting)|(?:we|i)\s+ended\s+up\s+(?:(?:going\s+)?with\s+)?)\s*/i,
  },
  // "Sure, Plausible for analytics then.": a named tool for a purpose, said as the answer (case-sensitive: a name).
  {
    kind: 'Decision',
    confidence: 0.75,
    weak: true,
    re: /^[\s,]*(?:(?:[Ss]ure|OK|Ok|[Oo]kay|[Ff]ine|[Aa]lright|[Yy]es|[Yy]eah|[Ss]o)[\s,]+)?[A-Z][\w.+-]*(?:\s+[A-Z][\w.+-]*)?\s+for\s+(?:the\s+|our\s+)?[a-z][\w\s-]{1,30}?(?:,?\s*then)?\s*[.!]?$/,
    strip: /^[\s,]*(?:(?:sure|ok(?:ay)?|fine|alright|yes|yeah|so)[\s,]+)?|,?\s*then\s*[.!]?$/gi,
  },
  // "最后选了 Supabase", "最後選了 Firebase", "後端框架就選 FastAPI", "就定 Ant Design 了".
  {
    kind: 'Decision',
    confidence: 0.8,
    weak: true,
    re: /(?:选了|選了|挑了|选的是|選的是|(?<![不没沒要])(?:就|都)[选選定]|(?:框架|方案|工具|[库庫]|平台|ORM|CI|CD)\s*[选選](?:用|定)?)\s*[A-Za-z]|^[\s，,]*(?:(?:嗯|好|行|那|ok)[，,\s]*)*就\s*[A-Za-z][\w.+ -]{1,30}?\s*吧\s*[。！!]?$/i,
    strip: /^.*?(?:最[后後]|最[终終])?\s*(?=选|選|挑)/,
  },
];

/** The user's taste in a few words, or about how the agent answers. */
export const PLAIN_TASTES: Marker[] = [
  {
    kind: 'Preference',
    confidence: 0.8,
    re: /^[\s,]*i\s+(?:want|like|expect)\s+(?:small|short|clear|clean|concise|detailed|descriptive|tiny|atomic|focused|fewer|more|one|plain|simple)\b|\bi['’]?m\s+(?:a\s+(?:big\s+|huge\s+)?|not\s+a\s+)fan\s+of\b|\bi\s+like\s+my\b|\bi['’]?d\s+like\s+you\s+to\b|\bi\s+want\s+you\s+to\s+(?:always|never)\b|\bmy\s+preference\s*[:：]|^[\s,]*(?:please\s+)?(?:always\s+)?prefer\s+\S[^.?!]{0,60}?\s+(?:over|to|instead\s+of)\b|^[\s,]*(?:please\s+)?(?:use|write|stick\s+to)\s+[^.?!]{0,30}?\b(?:spelling|quotes|indentation|semicolons|naming|camel\s*case|snake_case|kebab-case)\b|\bi\s+(?:really\s+)?like\s+(?!(?:it|this|that|these|those|them|him|her|you)\b)[\w-]+(?:\s+[\w-]+){0,2}\s+(?:next\s+to|as|over|without|to\s+be|kept|written|named)\b|^[\s,]*(?:please\s+)?(?:keep|make)\s+(?:your\s+|the\s+)?(?:answers?|replies|responses?|explanations?|messages?|summaries)\b|^[\s,]*(?:please\s+)?(?:always\s+)?(?:reply|respond|answer|talk\s+to\s+me|speak\s+to\s+me|write\s+to\s+me)\s+in\s+(?:english|chinese|mandarin|traditional|simplified|japanese|french|german|spanish)\b/i,
    strip:
      /^.*?\bmy\s+preference\s*[:：]\s*|^[\s,]*(?:please\s+)?|^.*?\bi\s+(?=like\s+my)|^.*?\bi['’]?m\s+(?=(?:a\s+|not\s+a\s+))/i,
  },
  // "Tabs, not spaces.", "pnpm please, not npm.", "Single quotes in TypeScript, please.": a style said in a few words.
  {
    kind: 'Preference',
    confidence: 0.75,
    re: /^[\s,]*(?:(?:two|four|2|4)[\s-]spaces?|tabs|spaces|single\s+quotes|double\s+quotes|semicolons|no\s+semicolons|trailing\s+commas|pnpm|npm|yarn|bun|prettier|biome|british\s+spelling|american\s+spelling)\b[^.?!]{0,40}?(?:,?\s*please\b|,\s*not\s+[\w.-]+)/i,
  },
  // "回答尽量简短一点", "回覆請用繁體中文": how the agent answers.
  {
    kind: 'Preference',
    confidence: 0.8,
    weak: true,
    re: /^[\s,，]*(?:你的?)?(?:回答|回覆|回复|答案|解[释釋]|回[应應])(?:[请請]|都|尽量|盡量|一律)*(?:[简簡][短洁潔]|短一[点點]|[详詳]细|[详詳]細|用)/,
  },
];

/** Targets with a measure: "Let's aim for 80% coverage", "Target: 99.9% uptime", "要把首屏时间降到 1 秒以内". */
export const PLAIN_TARGETS: Marker[] = [
  {
    kind: 'Goal',
    confidence: 0.8,
    re: /\b(?:we['’]re|we\s+are)\s+targeting\b(?=[^.?!]*\d)|^[\s,]*(?:hit|reach|get\s+to|ship|launch)\b(?=[^.?!]*\d)[^.?!]*\b(?:by|before)\s+(?:(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)\w*|q[1-4]|end\s+of|the\s+end\s+of|next\s+\w+|this\s+\w+)\b|\b(?:the|our)\s+(?:goal|target|objective)\s+for\s+[^:：.?!]{1,30}?\s*[:：]|\b(?:we['’]re|we\s+are|i['’]m)\s+aiming\s+(?:for|to|at)\b(?=[^.?!]*\d)|(?:\btarget\b|\bgoal\b)\s*(?:是|为|為)|^[\s,]*(?:target|aim|objective|north\s+star(?:\s+for\s+[^:：]{1,30})?)\s*[:：—–-]|\bthe\s+aim\s+is\b|\b(?:let['’]?s|we(?:['’]ll|\s+will)?)\s+aim\s+(?:for|to)\b/i,
    strip:
      /^.*?\b(?:we['’]re|we\s+are)\s+targeting\s+|^.*?(?:\b(?:goal|target|objective)\s+for\s+[^:：.?!]{1,30}?\s*[:：]|\baiming\s+(?:for|to|at)|(?:\btarget\b|\bgoal\b)\s*(?:是|为|為)|\b(?:target|aim|objective|north\s+star(?:\s+for\s+[^:：]{1,30})?)\s*[:：—–-]|\bthe\s+aim\s+is(?:\s+to)?|\baim\s+(?:for|to))\s*/i,
  },
  {
    kind: 'Goal',
    confidence: 0.8,
    weak: true,
    re: /\b(?:we\s+(?:need|want|have)\s+to|let['’]?s)\s+(?:get|bring|keep|cut|reduce|push|hit|reach)\b[^.?!]*\b(?:under|below|above|over|to|at\s+least)\s+\d|\bwe\s+want\s+[^.?!]{0,40}?\b(?:under|below|above|over|at\s+least|at\s+most|down\s+to|up\s+to)\s+\d|\b(?:move|push|shift)\s+the\s+(?:[\w.-]+\s+){0,2}(?:goal|target|deadline)\s+to\b|\bwe\s+(?:want|need|plan|aim|hope)\s+to\s+(?:launch|ship|release|finish|reach|hit|have|get|go\s+live|open)\b[^.?!]*\b(?:by|before)\s+(?:the\s+end\s+of\s+|end\s+of\s+)?(?:(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|mon|tue|wed|thu|fri)\w*|christmas|new\s+year|launch|release|summer|spring|fall|autumn|winter|q[1-4]|\d|next\s+\w+|this\s+(?:week|month|quarter|year)|the\s+(?:demo|conference|deadline))\b/i,
  },
  {
    kind: 'Goal',
    confidence: 0.8,
    weak: true,
    re: /^[\s,]*(?:by|before)\s+(?:the\s+)?(?:end\s+of\s+)?(?:the\s+|this\s+|next\s+)?(?:month|quarter|year|sprint|week|q[1-4]|launch|release|\w+day)\b[^.?!]*\b(?:should|must|needs?\s+to|will|has\s+to|have\s+to)\b/i,
  },
  {
    kind: 'Goal',
    confidence: 0.8,
    weak: true,
    re: /(?:要|争取|爭取|力争|力爭)[^，,。？?]{0,8}?(?:把|[让讓])[^，,。？?]{1,30}?(?:(?:降到|降低到|提高到|提升到|提到|[压壓]到|控制在|做到|[达達]到)\s*[\d一二三四五六七八九十百千万萬两兩]|[减減]半|翻倍)/,
  },
];

/** Task progress said plainly: "I finished the login page", "The X work is done", "I'm stuck on X", "Next up: X". */
export const PLAIN_PROGRESS: Marker[] = [
  {
    kind: 'Task',
    confidence: 0.8,
    re: /^[\s,]*(?:i|we)(?:['’]ve|\s+have)?\s+(?:just\s+)?(?:finished|completed|wrapped\s+up)\s+(?:the|our|my)\s+\S|\b(?:i['’]?m|i\s+am|we['’]re|we\s+are)\s+(?:still\s+)?stuck\s+on\b|^[\s,]*(?:(?:i|we)(?:['’]ve|\s+have)?\s+)?started\s+(?:on|working\s+on)\b|^[\s,]*(?:next\s+up|up\s+next|next\s+step|next)\s*[:：—–-]|^[\s,]*(?:todo|to-do)\s+for\s+\w+\s*[:：—–-]|\bwe\s+still\s+have\s+to\b|^[\s,]*(?:just\s+)?(?:finished|completed|wrapped\s+up|done\s+with|shipped)\s+(?:the|our|my)\s+\S|\b(?:i['’]?m|i\s+am|we['’]re|we\s+are)\s+(?:now\s+|currently\s+)?working\s+on\s+(?:the|our|my)\s+(?!(?:assumption|premise|theory|idea)\b)\S|^[\s,]*(?:(?:we|i)\s+)?still\s+(?:need|have)\s+to\b|^[\s,]*(?:i|we)(?:['’]ve|\s+have)?\s+started\s+(?:on\s+|working\s+on\s+)?(?:the|our|my)\s+\S|^[\s,]*(?:please\s+)?(?:add|put)\s+.{3,60}?\s+(?:to|on)\s+(?:the|my|our)\s+(?:todo\s+|to-do\s+|task\s+)?list\b|^[\s,]*(?:still\s+)?blocked\s+on\b|^[^:：.?!]{3,40}[:：—–-]\s*(?:done|finished|blocked|in\s+progress|shipped)\s*[.!]?$/i,
    strip:
      /^.*?\b(?:next\s+up|up\s+next|next\s+step|next|to-?do\s+for\s+\w+)\s*[:：—–-]\s*|^.*?\b(?:we\s+|i\s+)?still\s+(?:need|have)\s+to\s+|^[\s,]*(?:please\s+)?(?:add|put)\s+(?=.{3,60}?\s+(?:to|on)\s+(?:the|my|our)\s+(?:todo\s+|to-do\s+|task\s+)?list\b)/i,
  },
  {
    kind: 'Task',
    confidence: 0.8,
    weak: true,
    re: /^[\s,]*(?!(?:it|that|this|the\s+build|the\s+test\s+run)\b)(?:the\s+)?[\w./-]+(?:\s+[\w./-]+){0,6}\s+(?:work|task|page|feature|migration|export|import|integration|endpoint|fix|refactor|ticket)?\s*(?:is|are)\s+(?:now\s+|all\s+)?(?:done|finished|complete|completed)\b/i,
  },
  // "把优惠券提醒加到待办里", "幫我把會員頁面加進待辦", "把 dark mode 加到 todo list": a task put on the list.
  {
    kind: 'Task',
    confidence: 0.8,
    re: /^[\s,，]*(?:帮我|幫我|请|請)?把.{2,30}?(?:加|放|记|記|列)(?:到|进|進|在|入)(?:我的)?\s*(?:待[办辦]|todo(?:\s*list)?|to-do|清[单單]|list|backlog)/i,
    strip: /^[\s,，]*(?:帮我|幫我|请|請)?把\s*/,
  },
  {
    kind: 'Task',
    confidence: 0.8,
    weak: true,
    re: /(?:已[经經]?)?(?:[做写寫改修弄搞][完好]|搞定)了|(?<![没沒未])完成了|\b(?:renew|fix|deploy|update|upgrade|migrate|merge|ship|set\s*up|config)(?:ed)?\s*好了|\bstart(?:ed)?\s*了|[还還]在做|正在做|[开開]始做了|已[经經]\s*(?:ship|done|merge|上[线線])|卡在|已[经經]?完成|已[经經]\s*done|卡住了|卡[关關]了?|被卡住/,
  },
];

export const PLAIN_NOTES: Marker[] = [
  {
    kind: 'Note',
    confidence: 0.9,
    re: /^[\s,]*(?:fyi(?:\s+for\s+later)?|keep\s+in\s+mind|make\s+a\s+note|worth\s+remembering|good\s+to\s+know|please\s+note(?:\s+that)?|save\s+this(?:\s+for\s+later)?|jot\s+(?:this|that)\s+down|for\s+(?:future\s+)?reference|heads[\s-]up|(?:just\s+)?so\s+you\s+know(?:\s+for\s+later)?)\b\s*[:：,—–-]?|^[\s,]*note(?:\s+(?:for\s+(?:later|the\s+future|future\s+me)|to\s+self))?\s*[:：]|^[\s,，]*(?:[备備][注註]一下|[备備][注註])\s*[:：]/i,
    strip:
      /^[\s,，]*(?:fyi(?:\s+for\s+later)?|keep\s+in\s+mind|make\s+a\s+note|worth\s+remembering|good\s+to\s+know|please\s+note(?:\s+that)?|save\s+this(?:\s+for\s+later)?|jot\s+(?:this|that)\s+down|for\s+(?:future\s+)?reference|heads[\s-]up|(?:just\s+)?so\s+you\s+know(?:\s+for\s+later)?|note(?:\s+(?:for\s+(?:later|the\s+future|future\s+me)|to\s+self))?|[备備][注註]一下|[备備][注註])\b\s*(?:that\s+)?[:：,—–-]?\s*/i,
  },
];
