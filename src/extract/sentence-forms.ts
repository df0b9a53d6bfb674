/**
 * Settled statements recognised by the form of the sentence rather than by a marker phrase (issue 27,
 * the second held-out round): a target is a time frame or a target word with a measure and a modal
 * ("月底前测试覆盖率要到 75%", "target is zero sev1 incidents this half"); work under way is a first
 * person starting or doing it ("我开始弄导出 Excel 了", "正在 fix webhook retry 的 bug"); a part of the
 * system handled by, placed in or talking over something is its shape ("auth is handled by clerk",
 * "設定檔放在 Consul", "所有 request 先过 Envoy", "everything talks over grpc"); a taste is a bare
 * "prefer X", "X over Y", or a style said with "that's how I like it"; a root cause stated is a lesson.
 * Before, each of these needed one of the older phrases, and lower-case, unpunctuated messages the
 * rules had never seen landed nothing.
 *
 * All are `weak` (settled only when nothing in the message leaves them open, rules.ts) but the ones
 * with their own label ("target:", "root cause … was"). Data only, like markers.ts, which lists them
 * before the plainest Chinese shapes.
 */
import type { Marker } from './kind-markers.js';
import { EN_PARTS, ZH_FRAME, ZH_MEASURE, ZH_PARTS, ZH_REACH } from './form-words.js';
import { TOOL_NAMES } from './tool-names.js';

const EN = String.raw;

export const SENTENCE_FORMS: Marker[] = [
  // Goal: "target is zero sev1 incidents this half", "goal for this quarter is …", "kpi: error rate under 0.5%".
  {
    kind: 'Goal',
    confidence: 0.8,
    re: /^[\s,]*(?:(?:the|our|my|main|team['’]?s?)\s+)?(?:goal|target|aim|objective|kpi|okr)s?\s+(?:for\s+[^.?!:：]{1,40}?\s+)?(?:is|are|=)\s+(?!(?:it|this|that|what|unclear|not)\b)\S/i,
    strip:
      /^[\s,]*(?:(?:the|our|my|main|team['’]?s?)\s+)?(?:goal|target|aim|objective|kpi|okr)s?\s+(?:for\s+[^.?!:：]{1,40}?\s+)?(?:is|are|=)\s+(?:to\s+)?/i,
  },
  // "we're shooting for a lighthouse score of 95+", "I want the docker image under 150mb before we go live".
  {
    kind: 'Goal',
    confidence: 0.8,
    weak: true,
    re: /\b(?:we['’]re|we\s+are|i['’]m|i\s+am)\s+(?:shooting|going|gunning)\s+for\b(?=[^.?!]*\d)|\b(?:i|we)\s+(?:want|need)\s+[^.?!]{1,40}?\b(?:under|below|above|over|at\s+least|at\s+most|down\s+to|up\s+to|within)\s+\d|\b(?:i|we)\s+(?:want|need)\s+\d+(?:\.\d+)?\s*%/i,
  },
  // "月底前测试覆盖率要到 75%", "下一版要讓首頁載入在 1.5 秒以內", "我们要在年底前拿到 1000 个付费用户", "本月 KPI：崩溃率低于 0.1%".
  {
    kind: 'Goal',
    confidence: 0.8,
    weak: true,
    re: new RegExp(
      `(?=[^。？?]*${ZH_MEASURE})(?:${ZH_FRAME}(?:前|之前|以前|[内內]|底前|的)?[^。？?]{0,30}?${ZH_REACH}|${ZH_REACH}[^。？?]{0,6}?${ZH_FRAME}(?:前|之前|以前|[内內]))|\\bKPI\\s*[:：]`,
      'i',
    ),
  },
  // Task under way: "我开始弄导出 Excel 的功能了", "正在 fix webhook retry 的 bug", "working on the flaky checkout test now".
  {
    kind: 'Task',
    confidence: 0.8,
    weak: true,
    re: /(?:^|[我们們\s，,]|已[经經]?)(?:[开開]始|着手|著手)(?:弄|做|写|寫|搞|[处處]理|修|改|重构|重構|接|整理|实现|實作)|正在\s*(?:修|做|弄|写|寫|改|搞|[处處]理|重构|重構|接|整|实现|實作|fix|debug|refactor|write|build|add|implement)|^[\s,]*(?:(?:i['’]?m|we['’]re|im|i\s+am|we\s+are)\s+)?(?:still\s+|now\s+|currently\s+)?working\s+on\s+(?:the|my|our|a)\s+(?!(?:assumption|premise|theory|idea)\b)\S/i,
  },
  // Shape: a part handled by, placed in or passing through something ("auth is handled by clerk", "設定檔放在 Consul",
  // "推播改成透過 Firebase 發送", "所有 request 先过 Envoy", "everything talks over grpc internally").
  {
    kind: 'Architecture',
    confidence: 0.75,
    weak: true,
    re: new RegExp(
      EN`\b(?:${EN_PARTS})\s+(?:is|are)\s+(?:now\s+|all\s+)?(?:handled|managed|done|served|provided|powered|backed|owned|run|stored|kept)\s+(?:by|through|via|in|on)\s+\S|\b(?:queue|broker|bus|proxy|gateway|cache|load\s+balancer)\s+between\s+the\b|\b(?:talks?|communicat\w+|speaks?)\s+(?:to\s+[\w-]+\s+)?(?:over|via|through|using)\s+(?:grpc|http|rest|graphql|events|websockets?|kafka|nats|rabbit\w*|sqs|a\s+queue|the\s+bus|messages?)\b`,
      'i',
    ),
  },
  {
    kind: 'Architecture',
    confidence: 0.75,
    weak: true,
    re: new RegExp(
      `^[^，,。？?]{0,6}?(?:所有|全部|每[个個])?\\s*${ZH_PARTS}[^，,。？?]{0,12}?(?:都|一律|改成|改为|改為|先|就|统一|統一)?\\s*(?:放在|放到|存在|存到|改放到?|改存到?|透[过過]|通[过過]|[经經][过過]|先[过過走]|走)\\s*[^，,。？?]{0,8}?[A-Za-z]`,
      'i',
    ),
  },
  // Data split by a key: "用户表按 user_id 分片", "orders are sharded by tenant".
  {
    kind: 'Architecture',
    confidence: 0.75,
    weak: true,
    re: /按\s*\S{1,20}?\s*(?:分片|分[库庫]|分表|分[区區])|\b(?:sharded|partitioned)\s+by\b/i,
  },
  // Work to do on a named day: "明天要處理退款流程", "下週要補測試"; work under way: "我在弄購物車".
  {
    kind: 'Task',
    confidence: 0.75,
    weak: true,
    re: /^[\s,，]*(?:我[们們]?)?(?:明天|今天|等下|等一下|待[会會]|回[头頭]|下[周週]|[这這][周週]|[周週][一二三四五六日])(?:我[们們]?)?(?:要|得|需要)(?:[处處]理|做|写|寫|修|弄|加|改|补|補|整理|实现|實作)|^[\s,，]*(?:我[们們]?)?(?:在|还在|還在)\s*(?:弄|做|写|寫|修|搞|debug|fix|refactor|重构|重構)/i,
  },
  // "訂單跟庫存現在是兩個服務", "登入改用 Auth0 處理": parts and who handles them.
  {
    kind: 'Architecture',
    confidence: 0.75,
    weak: true,
    re: /(?:是|成了?|分成)\s*[两兩二三四\d]\s*[个個]\s*(?:服[务務]|service|微服[务務])|(?:改用|交给|交給)\s*[A-Za-z][\w.-]*\s*(?:[处處]理|[负負][责責]|托管|託管)/i,
  },
  // Indentation said in a few words: "縮排兩格就好", "缩进用 4 个空格".
  {
    kind: 'Preference',
    confidence: 0.75,
    weak: true,
    re: /(?:縮排|缩进|縮進|indent)\s*(?:用|是|改成)?\s*(?:[两兩二四24]\s*(?:[格个個]|spaces?)|tabs?|空[格白])/i,
  },
  // Two sides of a system said at once: "前端 Next.js 部署在 edge，后端 Go service 在 k8s 上", "frontend is X, backend is Y".
  {
    kind: 'Architecture',
    confidence: 0.75,
    weak: true,
    re: /前端[^，,。？?]{1,30}[，,]\s*(?:后端|後端)|\bfront[\s-]?end\s+is\s+[^.?!]{1,40},\s*(?:and\s+)?(?:the\s+)?back[\s-]?end\s+is\b/i,
  },
  // Taste: "prefer named exports pls", "biome over prettier for formatting", "2 space indent, that's how I roll", "yarn not npm".
  {
    kind: 'Preference',
    confidence: 0.75,
    weak: true,
    re: /^[\s,]*(?:(?:def(?:initely)?|really|strongly|generally)\s+)?prefer\s+(?!(?:it|this|that|to\s+not)\b)\S|^[\s,]*[\w./+-]+(?:\s+[\w./+-]+)?\s+over\s+[\w./+-]+(?:\s+for\s+[\w\s-]{2,30})?\s*[.!]?$|,\s*(?:that['’]?s|that\s+is|this\s+is)\s+how\s+i\s+(?:roll|like\s+it|do\s+it|work)\b|^[\s,]*(?:(?:two|four|2|4)[\s-]spaces?|tabs|spaces|single\s+quotes|double\s+quotes|pnpm|npm|yarn|bun|prettier|biome)\b(?:\s+[\w-]+)?\s+not\s+[\w.-]+/i,
  },
  // Choice: a bare imperative naming a tool ("use vitest", "switch the logger to pino"), "we r using pnpm workspaces".
  {
    kind: 'Decision',
    confidence: 0.7,
    weak: true,
    topical: true,
    re: new RegExp(
      EN`^[\s,]*(?:(?:ok(?:ay)?|so|and|then|alright|k)[\s,]+)?(?:just\s+)?(?:use|go\s+with|stick\s+with|switch\s+(?:[\w-]+\s+){0,3}?to|move\s+(?:[\w-]+\s+){0,3}?to)\s+(?:\S+\s+){0,2}?(?:${TOOL_NAMES})(?![^.?!]*\b(?:for\s+(?:this|that|now|the\s+test|a\s+sec)|here|first|once|today)\b)[^.?!/]{0,40}$|\bwe\s+(?:r|are|['’]re)\s+(?:now\s+)?using\s+(?:${TOOL_NAMES})`,
      'i',
    ),
    strip:
      /^[\s,]*(?:(?:ok(?:ay)?|so|and|then|alright|k)[\s,]+)?(?:just\s+)?|^.*?\bwe\s+(?:r|are|['’]re)\s+(?:now\s+)?/i,
  },
  // Taste: "i like tabs", "i hate semicolons", "i want answers in bullet points".
  {
    kind: 'Preference',
    confidence: 0.75,
    weak: true,
    re: /\bi\s+(?:really\s+|kinda\s+)?(?:like|love|hate|dislike|can['’]?t\s+stand)\s+(?!(?:it|this|that|these|those|you|him|her|them|my|the\s+idea|to\s+think|how|what|when|where|if)\b)\S|\bi\s+(?:want|need)\s+(?:the\s+|your\s+|my\s+)?(?:answers?|replies|responses|explanations|summaries|commit\s+messages|comments|prs?)\s+(?:to\s+be\s+|in\s+|with\s+|kept\s+)?\S/i,
  },
  // Taste asked as a request without a question mark: "can u keep the explanations brief, i dont need the essay".
  {
    kind: 'Preference',
    confidence: 0.75,
    weak: true,
    re: /^[\s,]*(?:(?:can|could|would)\s+(?:you|u)\s+(?:please\s+|pls\s+)?)(?:keep|make)\s+(?:the\s+|your\s+)?(?:answers?|replies|responses?|explanations?|messages?|summaries)\b/i,
    strip: /^[\s,]*(?:can|could|would)\s+(?:you|u)\s+(?:please\s+|pls\s+)?/i,
  },
  // Rule: "make sure migrations are reversible", "keep functions under 50 lines", "stop adding comments everywhere".
  {
    kind: 'Rule',
    confidence: 0.75,
    weak: true,
    topical: true,
    re: /^[\s,]*(?:(?:pls|please|and|also)[\s,]+)?(?:make\s+sure|ensure)\s+(?:all\s+|every\s+|each\s+|the\s+|our\s+)?[\w-]+s\s+(?:are|have|get|stay|always)\b|^[\s,]*(?:(?:pls|please|and|also)[\s,]+)?(?:keep|limit|cap)\s+(?:all\s+|every\s+|each\s+|the\s+|our\s+)?[\w-]+s\s+(?:under|below|to|at)\s+\d|^[\s,]*(?:(?:pls|please|and|also)[\s,]+)?stop\s+[a-z]+ing\b(?![^.?!]*\b(?:for\s+now|now|for\s+a\s+sec|this)\b)/i,
  },
  // Lesson: "lesson: …", a cause and what was done about it ("the outage was caused by an expired cert, we added a renewal alert").
  {
    kind: 'Lesson',
    confidence: 0.8,
    re: /^[\s,，]*(?:lesson|learning|learned|[学學]到一[课課]|[学學]到了|心得)\s*[:：—–-]|(?:查到|找到|知道)(?:原因|[问問]题|[問]題)了?[^。]*(?:就好了|就正常|解[决決]|修好|就[过過]了)|\b(?:was|were)\s+(?:caused\s+by|due\s+to|because\s+of)\b[^.?!]*[,;]\s*(?:so\s+)?(?:(?:we|i)\s+)?(?:added|switched|moved|bumped|pinned|set|changed|removed|now|started|replaced|upgraded|downgraded|rewrote|dropped)\b/i,
    strip: /^[\s,，]*(?:lesson|learning|learned|[学學]到一[课課]|[学學]到了|心得)\s*[:：—–-]\s*/i,
  },
  // Shape: "由 Fluent Bit 收集", "由 notification service 發送", "订单服务只负责下单".
  {
    kind: 'Architecture',
    confidence: 0.75,
    weak: true,
    re: /由\s*[A-Za-z][\w .-]{0,20}?\s*(?:收集|[处處]理|[负負][责責]|消[费費]|托管|託管|[转轉][发發]|接管|[发發]送|推送|[产產]生|生成|[调調]度|[执執]行)|(?:服[务務]|service)\s*只?(?:负责|負責)/i,
  },
  // Choice: "…we agreed, postgres it is for the analytics db".
  {
    kind: 'Decision',
    confidence: 0.75,
    re: new RegExp(
      EN`(?:^|[,;:]\s*)(?:${TOOL_NAMES}|[A-Z][\w.+-]*)(?:\s+[A-Z0-9][\w.+-]*)?\s+it\s+is\b(?:\s+for\s+[^.?!]{1,40})?\s*[.!]*$`,
      'i',
    ),
  },
  // Taste in a few words about how the agent answers: "keep the tone casual pls", "answers in english pls".
  {
    kind: 'Preference',
    confidence: 0.75,
    re: /^[\s,]*(?:(?:pls|please)\s+)?(?:keep|make)\s+(?:the|your)\s+(?:tone|language|style|wording)\b|^[\s,]*(?:answers?|replies|responses)\s+in\s+(?:english|chinese|mandarin|traditional\s+chinese|simplified\s+chinese)\b/i,
  },
  // Progress said bare: "finished migrating the users table", "started the stripe integration", "blocked: waiting for …".
  {
    kind: 'Task',
    confidence: 0.8,
    re: /^[\s,]*(?:just\s+)?(?:finished|completed|wrapped\s+up)\s+[a-z]+ing\s+\S|^[\s,]*(?:just\s+)?started\s+(?:on\s+)?(?:the|our|my)\s+\S|^[\s,]*blocked\s*[:：—–-]/i,
  },
  // Target said bare: "aiming for 1s page loads".
  {
    kind: 'Goal',
    confidence: 0.8,
    weak: true,
    re: /^[\s,]*(?:aiming|shooting)\s+(?:for|at|to)\b(?=[^.?!]*\d)/i,
    strip: /^[\s,]*(?:aiming|shooting)\s+(?:for|at|to)\s+/i,
  },
  // Lesson: "figured out the flaky test, it was a race in the setup, added an await".
  { kind: 'Lesson', confidence: 0.8, re: /\bfigured\s+(?:it\s+)?out\b[^.?!]*\b(?:it\s+was|was|were|because)\b/i },
  // A choice said as what is not (or no longer) done: "we're not using redux", "no more jquery", "we dropped the graphql layer",
  // "dont bother with IE support", "lets not add any new deps this sprint", "we're moving off heroku to fly".
  {
    kind: 'Decision',
    confidence: 0.7,
    weak: true,
    re: /\b(?:we['’]re|we\s+are)\s+not\s+(?:using|doing|adding|supporting|going\s+with|shipping)\s+(?!(?:it|this|that|them)\b)\S|^[\s,]*no\s+more\s+(?!(?:questions|worries|excuses)\b)[\w.+-]+\s*[.!]*$|\bwe(?:['’]ve|\s+have)?\s+(?:dropped|ditched|removed|killed|scrapped)\s+(?:the\s+|our\s+)?(?!ball\b)\S|^[\s,]*(?:don['’]?t|do\s+not)\s+bother\s+with\b|^[\s,]*let['’]?s\s+not\s+[a-z]+\s+\S|\b(?:we['’]re|we\s+are|we\s+will|we['’]ll)\s+mov(?:e|ing)\s+off\s+(?:of\s+)?\S/i,
  },
  // A standing rule said with a modal and always/never: "we should always pin dependency versions", "we must never store raw card numbers",
  // "let's always squash when merging", "typescript strict mode on, always".
  {
    kind: 'Rule',
    confidence: 0.8,
    topical: true,
    re: /\b(?:we|you)\s+(?:should|must|need\s+to|have\s+to|gotta)\s+(?:always|never)\s+(?!be\b)[a-z]|\blet['’]?s\s+(?:always|never)\s+(?!be\b)[a-z]|[,;]\s*always\s*[.!]*$/i,
    strip:
      /^.*?\b(?:we|you)\s+(?:should|must|need\s+to|have\s+to|gotta)\s+(?=always|never)|^.*?\blet['’]?s\s+(?=always|never)/i,
  },
  // A plan or stack said under a label: "so the plan: api on fly, db on neon", "our stack: next.js + trpc + prisma".
  {
    kind: 'Decision',
    confidence: 0.75,
    re: /^[\s,]*(?:so\s+|ok\s+)?(?:the\s+)?plan\s*(?:is)?\s*[:：]\s*\S/i,
    strip: /^[\s,]*(?:so\s+|ok\s+)?(?:the\s+)?plan\s*(?:is)?\s*[:：]\s*/i,
  },
  { kind: 'Architecture', confidence: 0.75, re: /^[\s,]*(?:our|the)\s+(?:tech\s+)?stack\s*(?:is)?\s*[:：]\s*\S/i },
  // Taste: "esbuild > webpack for this repo".
  {
    kind: 'Preference',
    confidence: 0.7,
    weak: true,
    re: /^[\s,]*[\w.+-]+\s*>\s*[\w.+-]+(?:\s+for\s+[\w\s-]{2,30})?\s*[.!]?$/i,
  },
  // Lesson: a root cause said ("root cause of the double charges was a missing idempotency key"), a summary of a cause.
  {
    kind: 'Lesson',
    confidence: 0.8,
    re: /\b(?:root|real|actual)\s+cause\b(?:\s+of\s+[^.?!]{1,60}?)?\s+(?:was|is)\b(?!\s+(?:unknown|unclear|not|still|yet|tbd|\w+ed)\b)|^[\s,，]*(?:总结|總結|结论|結論|summary|conclusion)(?:一下)?\s*[:：][^。？?]*(?:是因[为為]|因[为為]|because|due\s+to|caused\s+by)/i,
    strip: /^[\s,，]*(?:总结|總結|结论|結論|summary|conclusion)(?:一下)?\s*[:：]\s*/i,
  },
  {
    kind: 'Lesson',
    confidence: 0.8,
    weak: true,
    re: /(?:慢|失[败敗]|[挂掛]了?|[报報][错錯]|崩|bug|[问問]题|[問]題|[泄洩]漏|超[时時]|timeout)\s*(?:的原因)?是[^，,。]{2,40}[，,][^。]{0,30}?(?:之[后後]|以[后後]|[后後])[^。，,]{0,10}?(?:快了|好了|正常|就[没沒]|解[决決]|修好|[过過]了)/i,
  },
  {
    kind: 'Lesson',
    confidence: 0.8,
    weak: true,
    re: /(?:是因[为為]|因[为為]|造成的|[导導]致的|引起的).*(?:就[过過]了|就好|就[没沒](?:再)?|之[后後]就[没沒]|就不再|就消失|就[顺順]了|就可以了)/,
  },
];
