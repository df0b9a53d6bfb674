/**
 * The phrases of the four kinds beyond Decision, Rule, Architecture and Note (issue 27): Preference,
 * Goal, Task and Lesson, in English, Simplified and Traditional Chinese. Data only, like markers.ts,
 * which tries these first: "Lesson learned: always pin versions" is a lesson, not a rule.
 */
import type { Kind } from '../entries/model.js';

export const KIND_MARKERS: Marker[] = [
  // Lesson: what was learned fixing something; "what didn't work" is one too.
  {
    kind: 'Lesson',
    confidence: 0.85,
    re: /\blessons?\s+learned\b|\bthe\s+lesson\s+(?:is|was|here)\b|\bwhat\s+(?:didn['’]?t|did\s+not)\s+work\b|^[\s,]*(?:gotcha|pitfall|footgun)(?:\s+\w+){0,3}\s*[:：—–-]|^[\s,]*(?:what\s+went\s+wrong|post[\s-]?mortem|retro|til|learned\s+(?:today|this\s+week))\s*[:：—–-]|\btoday\s+i\s+learned\b|\bnote\s+for\s+next\s+time\b/i,
    strip:
      /^.*?\b(?:lessons?\s+learned|the\s+lesson\s+(?:is|was|here)(?:\s+is)?(?:\s+that)?|note\s+for\s+next\s+time|(?:gotcha|pitfall|footgun)(?:\s+\w+){0,3}(?=\s*[:：—–-])|what\s+went\s+wrong|post[\s-]?mortem|retro|til|learned\s+(?:today|this\s+week)|today\s+i\s+learned)\b\s*[:：,，—–-]?\s*/i,
  },
  {
    kind: 'Lesson',
    confidence: 0.8,
    re: /\b(?:the\s+(?:problem|issue|bug)|root\s+cause)\s+(?:was|is)\b(?=.*\b(?:because|caused\s+by|fixed\s+(?:it\s+)?by|the\s+fix\s+(?:was|is)|solved\s+by)\b)/i,
  },
  {
    kind: 'Lesson',
    confidence: 0.85,
    re: /踩坑|踩了[个個]?坑|踩[到了]?[一1]?[个個]?雷|教[训訓]|[经經][验驗]教[训訓]|[问問]题(?:出)?在.*(?:因为|因為|原因|修复|修復|解决|解決)|根因是/,
    strip: /^.*?(?:[经經][验驗]教[训訓]|教[训訓]|踩坑(?:记录|記錄)?)\s*(?:是)?\s*[:：,，]?\s*/,
  },
  // A cause and its fix said together, or a takeaway: "the cause was X; Y fixed it", "Postmortem takeaway: …", "复盘结论：…".
  {
    kind: 'Lesson',
    confidence: 0.8,
    re: /\b(?:postmortem\s+takeaway|takeaway\s+from\s+[^:：,.]{1,30}?|(?:the\s+)?takeaway|learned\s+the\s+hard\s+way|keep\s+(?:that|this|it)\s+as\s+a\s+lesson)\b\s*[:：,，—–.-]|\bkeep\s+(?:that|this|it)\s+as\s+a\s+lesson\b|(?=.*\b(?:fix(?:ed|es)?|solved|resolved)\b)\b(?:because|(?:root|real|actual)\s+(?:cause|problem|issue|culprit)\s+(?:was|is)|(?:was|were)\s+due\s+to|came\s+from|caused\s+by)\b|复盘结论|複盤結論|(?:真正的)?原因是.*(?:之后|之後|以后|以後|就好了|就正常|修复|修復|解决|解決)/i,
    strip:
      /^.*?(?:\b(?:postmortem\s+takeaway|takeaway\s+from\s+[^:：,.]{1,30}?|(?:the\s+)?takeaway|learned\s+the\s+hard\s+way|keep\s+(?:that|this|it)\s+as\s+a\s+lesson)\b|复盘结论|複盤結論)\s*[:：,，—–.-]?\s*/i,
  },
  // A cause and its fix in one Chinese or mixed sentence, under any label ("今天的收获：构建慢是因为…，把 COPY 挪到后面就好了",
  // "踩雷紀錄：部署失敗是因為…，解法是…", "Root cause 是…，统一成 UTC 之后就正常了").
  {
    kind: 'Lesson',
    confidence: 0.8,
    weak: true,
    re: /(?:是因[为為]|造成的|[导導]致的|引起的|原[来來]是|\broot\s+cause\s*是).*(?:就好了|就正常|解法是|解[决決]|修好|修[复復]|之[后後]就)/i,
    strip: /^[^：:，,。.]{1,8}[：:]\s*/,
  },
  // Task: a TODO, a next step someone has to take, a task's state.
  {
    kind: 'Task',
    confidence: 0.85,
    re: /^[\s,]*(?:new\s+)?(?:todo|to-do)\s*[:：—–-]|^[\s,]*(?:todo|to-do)\s+(?=[a-z])|\badd\s+(?:a\s+)?(?:task|todo)\b|\b(?:next|then)[\s,]+we\s+(?:still\s+)?need\s+to\b|\bwe\s+still\s+need\s+to\b|\b(?:task|todo|ticket)\s+(?:is|was)\s+(?:now\s+)?(?:done|finished|complete[d]?|blocked)\b|\bis\s+(?:now\s+)?blocked\s+(?:on|by)\b|\bmark\s+.{1,60}?\s+as\s+(?:done|blocked|in\s+progress)\b/i,
    strip:
      /^.*?\b(?:todo|to-do|add\s+(?:a\s+)?(?:task|todo)(?:\s+to)?|(?:next|then)[\s,]+we\s+(?:still\s+)?need\s+to|we\s+still\s+need\s+to|mark)\b\s*[:：,，—–-]?\s*/i,
  },
  {
    kind: 'Task',
    confidence: 0.85,
    re: /^[\s,，]*(?:待[办辦]|TODO)(?:(?:加|添|新增)[一1]?[条條个個项項])?\s*[:：]|加[个個一]?(?:任[务務]|待[办辦])|接下[来來](?:我[们們])?(?:要|需要)|下一步(?:要|是)|(?:任[务務]|待[办辦]).{0,20}(?:已[经經]?完成|做完了|卡住了|被阻塞|阻塞了)/,
    strip:
      /^.*?(?:待[办辦]|TODO|加[个個一]?(?:任[务務]|待[办辦])|接下[来來](?:我[们們])?(?:要|需要)|下一步(?:要|是))\s*[:：,，]?\s*/,
  },
  // "New task: X", "Put this on the task list: X", "I'm blocked on the SSO task": a task said as one.
  {
    kind: 'Task',
    confidence: 0.85,
    re: /^[\s,]*(?:new\s+)?task\s*[:：—–-]|\b(?:put|add)\s+(?:this|that|it)\s+(?:on|to)\s+(?:the|my|our)\s+(?:task|todo|to-do)\s+list\b|\b(?:i['’]?m|i\s+am|we['’]?re|we\s+are)\s+(?:still\s+)?blocked\s+on\b|^[\s,，]*(?:新)?任[务務]\s*[:：]|(?:加到|放到|记到|記到)(?:任[务務]|待[办辦])(?:清[单單]|列表)?/i,
    strip:
      /^.*?(?:\b(?:new\s+)?task\s*[:：—–-]|\b(?:put|add)\s+(?:this|that|it)\s+(?:on|to)\s+(?:the|my|our)\s+(?:task|todo|to-do)\s+list\b\s*[:：—–-]?|^[\s,，]*(?:新)?任[务務]\s*[:：])\s*/i,
  },
  // "deadline 是 5 月 20 号", "Deadline: June 1": a date the work is held to.
  {
    kind: 'Goal',
    confidence: 0.85,
    re: /^[\s,，]*(?:(?:the|our)\s+)?(?:deadline|截止(?:日期|时间|時間))\s*(?:是|is|[:：=])/i,
  },
  // "Goal: X", "The objective for the hackathon is X", "… That is the target.", "Set that as the goal."
  {
    kind: 'Goal',
    confidence: 0.85,
    re: /^[\s,]*(?:our\s+|the\s+|main\s+)?goal\s*[:：—–-]|\b(?:the|our|main)\s+(?:goal|objective|target)\s+for\s+[^.?!]{1,40}?\s+is\b|\b(?:the|our|main)\s+objective\s+is\b|^(?:that|this)(?:['’]s|\s+is)\s+(?:the|our)\s+(?:target|goal|objective)\b|\bset\s+(?:that|this|it)\s+as\s+(?:the|our|a)\s+(?:goal|target)\b/i,
    strip:
      /^.*?(?:\bgoal\s*[:：—–-]|\b(?:goal|objective|target)\s+for\s+[^.?!]{1,40}?\s+is\b(?:\s+to)?|\bobjective\s+is\b(?:\s+to)?|^(?:that|this)(?:['’]s|\s+is)\s+(?:the|our)\s+(?:target|goal|objective)|\bset\s+(?:that|this|it)\s+as\s+(?:the|our|a)\s+(?:goal|target))\s*/i,
  },
  // A goal said and then named one: "…，这是我们的目标", "…，把這個訂為目標", "…，that's the goal", "Goal 很简单：…", "这个 quarter 的 goal 是…".
  {
    kind: 'Goal',
    confidence: 0.85,
    weak: true,
    re: /[，,]\s*(?:[这這](?:就)?是(?:我[们們]的)?目[标標]|把[这這][个個]?(?:定|訂|设|設)(?:为|為|成)目[标標]|(?:that['’]s|this\s+is)\s+(?:the|our)\s+(?:goal|target)|set\s+(?:that|this|it)\s+as\s+(?:the|our|a)\s+(?:goal|target))|(?:目[标標]|\bgoal\b)\s*(?:很[简簡][单單]\s*[:：]|是)/i,
    strip: /^.*?(?:目[标標]|\bgoal\b)\s*(?:很[简簡][单單]\s*[:：]|是)\s*/i,
  },
  // Goal: what the work is for.
  {
    kind: 'Goal',
    confidence: 0.85,
    re: /\b(?:our|the|my|main|project['’]?s?)\s+goal\s+(?:is|for\s+\w+\s+is)\b|\bwe\s+(?:want|aim|plan)\s+to\s+(?:reach|hit|get\s+to|achieve|be\s+under|be\s+below|stay\s+under)\b|\bthe\s+target\s+is\b/i,
    strip:
      /^.*?\b(?:goal\s+(?:for\s+\w+\s+)?is|we\s+(?:want|aim|plan)\s+to|the\s+target\s+is)\b\s*(?:to\s+)?[:：,，]?\s*/i,
  },
  // "目标改成三季度…", "goal 改成 Q1…": the goal moved.
  {
    kind: 'Goal',
    confidence: 0.85,
    re: /(?:目[标標]|\bgoal\b|\btarget\b)\s*(?:改成|改为|改為|调整为|調整為|换成|換成)/i,
    strip: /^.*?(?:目[标標]|\bgoal\b|\btarget\b)\s*(?=改|调|調|换|換)/i,
  },
  {
    kind: 'Goal',
    confidence: 0.85,
    weak: true,
    re: /目[标標](?:是|为|為|[:：])|我[们們]要[达達]到|[争爭]取[达達]到/,
    strip: /^.*?(?:目[标標](?:是|为|為|[:：])|我[们們]要|[争爭]取)\s*[:：,，]?\s*/,
  },
  // Preference: how the user likes things done.
  {
    kind: 'Preference',
    confidence: 0.85,
    re: /\bi\s+(?:(?:really|strongly|generally|always)\s+)?prefer\b(?![?？])|\bi['’]?d\s+(?:rather|prefer)\b(?!\s+(?:be|not|stay|go\s+home)\b)|\bi\s+like\s+(?!(?:it|this|that|these|those|them|him|her)\s)\S.{0,60}?\s+better\b|\bmy\s+preference\s+is\b/i,
    strip:
      /^.*?\b(?:i\s+(?:(?:really|strongly|generally|always)\s+)?(?=prefer)|i['’]?d\s+(?=rather|prefer)|i\s+(?=like)|my\s+preference\s+is(?:\s+that)?\s*[:：]?)/i,
  },
  // "我比較喜歡…", "我更想用 Vitest", "我 prefer 用 node:test".
  {
    kind: 'Preference',
    confidence: 0.85,
    weak: true,
    re: /我(?:比[较較]|更|还是|還是|一般)?(?:不|不太)?(?:喜[欢歡]|偏好|倾向|傾向|习惯|習慣|想用|想要用|\s*prefer\b)|我(?:很|最)?(?:讨厌|討厭|受不了)/i,
    strip: /^.*?我\s*(?=(?:比[较較]|更|还是|還是|一般)?(?:喜[欢歡]|偏好|倾向|傾向|习惯|習慣|想用|想要用|prefer\b))/i,
  },
];

/**
 * User-level style and tools (language, tone, indentation, package manager, formatter, commit
 * style): an instruction about one of them, said without the word "rule", is a preference.
 */
export const STYLE_TOPIC =
  /\b(?:indent(?:ation|ed)?|tabs?|spaces|pnpm|npm|yarn|bun|package\s+manager|prettier|formatter|semicolons?|single\s+quotes|double\s+quotes|commit\s+messages?|tone|emojis?|in\s+(?:english|chinese|french|german|spanish|japanese)|(?:english|chinese)\s+only|language|verbose|concise|terse)\b|缩进|縮進|縮排|空格|空白|中文|英文|繁[体體]|[简簡][体體]|语气|語氣|提交信息|提交訊息|包管理/i;

/**
 * Words that only a system's shape uses (event sourcing, a gateway, a queue between services, 网关,
 * 事件溯源, 轮询): a decision or rule saying one of them is an Architecture entry.
 */
export const ARCH_SHAPE =
  /\b(?:event[\s-]sourc\w*|cqrs|microservices?|monolith|gateway|pub\/?sub|message\s+(?:queue|bus)|job\s+queue|(?:behind|through|via)\s+a\s+queue|(?:its\s+own|their\s+own|separate|dedicated|independent)\s+(?:[\w.-]+\s+)?(?:service|cluster|database|db|schema)|inter-service|service-to-service|mtls|over\s+grpc|(?:through|via|behind)\s+(?:the\s+|a\s+|an\s+)?(?:[\w-]+\s+)?(?:gateway|proxy|load\s+balancer|cdn|kong|envoy|nginx|traefik)|schema\s+per\s+tenant|per[\s-]tenant|read\s+models?|projections?|listen\/notify|poll(?:s|ing)?)\b|事件溯源|网关|閘道|[消訊][息][队佇隊][列]|任[务務][队隊佇]列|工作佇列|[发發]布[订訂]阅|[发發]布[订訂]閱|[订訂][阅閱]事件|[轮輪][询詢]|[独獨]立(?:的)?(?:服[务務]|[数資][据料]?[库庫]|集群|叢集)|[独獨]立(?:的)?\s*(?:[\w.-]+\s+)?(?:service|cluster|database|db)\b|[租][户戶].{0,8}schema|集群|叢集/i;

/**
 * A statement of a system's shape said without "we decided": a structural verb and a shape word
 * ("We're splitting billing into its own service behind a queue", "Search moves into a dedicated
 * cluster", "结算模块拆成独立服务", "架构上定了：…").
 */
export const ARCH_MARKERS: Marker[] = [
  {
    kind: 'Architecture',
    confidence: 0.8,
    re: /\b(?:architecture\s+decision|(?:the\s+)?(?:design|architecture)\s+is\s+(?:settled|decided))\s*[:：—–-]/i,
    strip:
      /^.*?\b(?:architecture\s+decision|(?:the\s+)?(?:design|architecture)\s+is\s+(?:settled|decided))\s*[:：—–-]\s*/i,
  },
  {
    kind: 'Architecture',
    confidence: 0.8,
    re: new RegExp(
      String.raw`(?<!\b(?:to|should|could|might|would|can)\s+)\b(?:split(?:s|ting)?|mov(?:e|es|ing)|put(?:s|ting)|isolated|subscribes?|runs?\s+(?:on|through))\b[^.?!]{0,80}?(?:${ARCH_SHAPE.source})|\bwill\s+poll\b`,
      'i',
    ),
    strip: /^.*?\b(?:we(?:['’]re|\s+are)\s+|we\s+will\s+|we['’]ll\s+)(?=split|mov|put)/i,
  },
  {
    kind: 'Architecture',
    confidence: 0.8,
    re: /架[构構]上?(?:定了|[确確]定了?|定案)|方案定了|[设設][计計](?:上)?(?:定案|定了)|(?:拆成|拆出|拆分|放到|放在|[挪搬]到|走)[^，,。]{0,30}?(?:事件溯源|网关|閘道|[消訊]息[队佇隊]列|任[务務][队隊佇]列|工作佇列|[独獨]立(?:的)?\s*(?:服[务務]|集群|叢集|app|service|[应應]用)|集群|叢集)/,
    strip: /^.*?(?:架[构構]上?(?:定了|[确確]定了?|定案)|方案定了|[设設][计計](?:上)?(?:定案|定了))\s*[:：,，]?\s*/,
  },
];

/**
 * A choice said plainly in Chinese, with no "we decided": a subject, then 用/采用/改用 and a named
 * tool ("接口文档先用 Swagger 生成", "文档站我们用 Docusaurus 搭", "Integration tests 就用 pytest").
 * Only a named tool: Latin-script, or one of the Chinese-named clouds and platforms of HAN_NAMED
 * ("短信用阿里云", "通知改成飞书"); never after a negation ("不用 X", "别用 X" say what not to use).
 * A question, a hedge, a quote or someone else's words still settle nothing (rules.ts).
 */
const HAN_NAMED =
  '阿里云|阿里雲|腾讯云|騰訊雲|华为云|華為雲|百度云|百度雲|七牛云?|七牛雲|又拍云|又拍雲|金山云|金山雲|京东云|京東雲|火山引擎|天翼云|天翼雲|钉钉|釘釘|飞书|飛書|企业微信|企業微信|微信支付|支付宝|支付寶|宝塔|寶塔|云效|雲效|码云|碼雲|极狐|極狐';

export const PLAIN_CHOICE: Marker = {
  kind: 'Decision',
  confidence: 0.7,
  topical: true,
  weak: true,
  re: new RegExp(
    String.raw`(?<![不别別没沒])(?:先|就|还是|還是|都|只|统一|統一)?(?:用|采用|採用|使用|改用|换成|換成|改成|[换換]回|改回|[换換](?=\s*[A-Za-z])|[丢丟](?=\s*[A-Za-z])|上(?=\s+[A-Z])|部署到|部署在|deploy\s*[到在]|迁到|遷到|搬到|放在|放到)\s*(?:(?:[\p{sc=Han}]{0,6}?的\s*|[\p{sc=Han}]{1,4}\s*)?[A-Za-z][\w.+-]*|(?:${HAN_NAMED}))`,
    'u',
  ),
};

/**
 * A system's shape said plainly, in a sentence with Chinese in it: a shape word (轮询, 网关, a queue,
 * poll) and a schedule or a placement ("通知服务每 5 秒轮询一次任务表", "Sync job 每 10 分钟 poll 一次").
 */
export const PLAIN_SHAPE: Marker = {
  kind: 'Architecture',
  confidence: 0.7,
  weak: true,
  re: new RegExp(
    `(?:[从從][^。？?，,]{1,30}?(?:拆出|拆分出|剥离|剝離|分离出|分離出))|(?=[^。？?]*\\p{sc=Han})(?:每\\s*\\d+\\s*(?:秒|分[钟鐘]|小[时時])|放到|放在|丟到|丢到|走|通[过過]|拆成|拆出)[^。？?]{0,30}?(?:${ARCH_SHAPE.source})`,
    'iu',
  ),
};

/** The fix of a lesson, said in the sentence after its cause: "Adding the index fixed it.", "加上索引就好了". */
export const FIXED = /\b(?:fix(?:ed|es)?|solved|resolved|did\s+the\s+trick)\b|就好了|就正常|修好|解决了|解決了/i;

/** The cause of a problem: a note saying one and then its fix is a lesson. */
export const CAUSE = /\b(?:because|due\s+to|caused\s+by|came\s+from|(?:root|real)\s+cause)\b|因[为為]|[导導]致|原因是/i;

export interface Marker {
  kind: Kind;
  re: RegExp;
  /** How explicit the phrase is: becomes the entry's confidence. */
  confidence: number;
  /** Removed from the front of the statement to make its title ("We decided to X" → "X"). */
  strip?: RegExp;
  /**
   * Recognised by its words alone, with no phrase of deciding, moving or putting (plain-markers.ts): never
   * turns a decision into architecture, since a decision names the same parts ("we decided to use Redis for the cache").
   */
  broad?: boolean;
  /** An instruction said without the word "rule": about a user-level style or tool (STYLE_TOPIC), it is a Preference. */
  topical?: boolean;
  /**
   * Said plainly, with no word of deciding or of a standing rule ("缓存用 Redis", "目标是…", "我更想用
   * Bun", "必须…"): settled only when nothing in its message leaves it open (hedges.ts, rules.ts).
   */
  weak?: boolean;
}
