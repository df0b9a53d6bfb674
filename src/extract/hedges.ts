/**
 * What in a message leaves a plain statement unsettled. A weak statement (one said without "we
 * decided", "from now on", "remember", "rule:": "缓存用 Redis", "目标是…", "我更想用 Bun") is the
 * user's settled word only when nothing in the same message says otherwise: a question, a hedge
 * ("还没定", "再看看", "先这样试试", "maybe", "we'll see"), a condition, options side by side, someone
 * else's voice, or a wait for someone's approval. Before, only the statement's own sentence was read,
 * so "有点纠结。日志用 pino，先这样试试" landed "日志用 pino".
 *
 * One compact lexicon, in Simplified Chinese and lower-case English, matched against text folded by
 * han-fold.ts (Traditional → Simplified, full-width → ASCII, lower case): 繁體 shares it. Data and
 * small pure functions only; rules.ts decides which statements are weak.
 */
import { foldHan } from './han-fold.js';

const EN = String.raw;

/** Phrases read on folded text: full-width punctuation is ASCII there ("？" is "?", "，" is ","). */
const LEXICON = {
  /** A question: a question mark, or a Chinese question particle ending the sentence. */
  question:
    /[?]\s*$|[吗么呢]\s*[.!。~…]*\s*$|了?没有?\s*[.!。~…]*\s*$|(?:会不会|能不能|行不行|好不好|要不要|是不是|可不可以|有没有必要|怎么样)(?=[^,.;。]*$)/,
  /** Not decided yet, to be tried and seen: also takes back the statement just before it. */
  undecided: new RegExp(
    [
      '还没[^,.。]{0,4}(?:定|决定|想好|确定|拍板)|没(?:定下来|想好)|待定|未定|暂定|再看看|看看再说|再说吧?|(?:以后|之后|回头)再(?:说|议|看|讨论|商量)|再(?:议|讨论|商量|评估|研究|定案?|决定|拍板)',
      '(?:先|就)?(?:这样|这么)试(?:试|一下|用)|先试(?:试|一下|用)|试试看|([试跑用玩测])\\1看|试用一下|看(?:看)?效果|看情况|走一步看一步|尚未|尚无定论|没(?:有)?(?:结论|谱)|(?:还)?在(?:讨论|评估|比较)|(?:讨论|评估)中|悬而未决|开(?:个)?玩笑|逗你的?|(?:再|让我|我)想想|想想再|考虑考虑|犹豫|纠结|(?:还)?在(?:考虑|琢磨)|考虑中',
      EN`\b(?:we['’]?ll\s+see|let['’]?s\s+see|see\s+how\s+it\s+goes|tentative(?:ly)?|on\s+the\s+fence|torn\s+between|not\s+(?:yet\s+)?(?:decided|settled|final)|undecided|tbd|for\s+now\s+let['’]?s\s+try|try\s+(?:it|this|that)\s+out|give\s+it\s+a\s+try|just\s+kidding|jk|let\s+me\s+think|i['’]?ll\s+think\s+about\s+it|hold\s+on)\b`,
    ].join('|'),
  ),
  /** A guess or a passing thought. */
  guess: new RegExp(
    [
      '以为|应该[^,.。]{0,16}吧|(?:刚才|刚刚|我)?只是[^,.。]{0,12}(?:一下|试试|玩玩|练练|测测|好奇)|看你|你定|你(?:来)?决定|听你的|交给你|都行|未必|不见得|看心情|都可以|无所谓|随你|不一定|说不定|不确定|拿不准|不好说|在想|考虑一下|有点想|随口(?:一)?说|随便说说|只是(?:问问|想想|(?:一)?个?想法|提一下|建议)|想法而已|一个想法|我(?:觉得|感觉|猜|估计|怀疑)|或许|也许|(?<!尽)可能|大概|好像|似乎|应该吧',
      EN`\b(?:maybe|perhaps|probably|possibly|might|not\s+sure|unsure|my\s+guess|i['’]?d\s+guess|i\s+thought|i\s+assumed|supposedly|i\s+bet|i\s+reckon|i\s+assume|presumably|afaik|iirc|as\s+far\s+as\s+i\s+know|i\s+(?:think|guess|suppose|wonder)|kinda|sort\s+of|kind\s+of|leaning\s+(?:towards?|to)|considering|thinking\s+(?:about|of)|just\s+(?:an?\s+)?(?:idea|thought)|just\s+(?:practi[cs]ing|testing|trying|curious|playing))\b`,
    ].join('|'),
  ),
  /** A condition: "如果…", "…的话", "if …", "unless …". */
  conditional: new RegExp(
    [
      '如果|假如|假设|要是|万一|倘若|假使|除非|的话|换(?:作|做|成)是我|要我说|让我选|要我选|理想(?:情况|状态)?(?:下|中)',
      EN`\b(?:if|unless|in\s+case|assuming|suppose|supposing|provided\s+that|ideally|in\s+an\s+ideal\s+world)\b`,
    ].join('|'),
  ),
  /** Options side by side: "X 或者 Y", "要么…要么…", "A 方案", "X or Y", "either", "vs". */
  options: new RegExp(
    [
      '[两几三多]\\s*(?:个|种|套)\\s*(?:方案|选择|思路|做法|路线)|或者|要么|比如|例如|举(?:个)?例|二选一|备选|候选|选项|哪个|哪一个|方案[一二三abc12]|[abc12]方案',
      EN`\b(?:either|versus|vs\.?|alternatives?|options?|for\s+example)\b|\be\.g\.|[a-z][\w.+-]*\s+or\s+[a-z][\w.+-]*`,
    ].join('|'),
  ),
  /** Someone else's voice: hearsay, the agent's or another team's words, a suggestion or a quote. */
  hearsay: new RegExp(
    [
      '(?:他|她|他们|她们|老板|同事|经理|客户|产品|pm|甲方|领导|leader|tech\\s*lead|架构师|cto|ceo|[小老阿][\\u4e00-\\u9fff])\\s*(?:说|讲|要求|希望|觉得|认为|提到|建议|想要|想用|倾向|打算|计划)|(?:组|队|部门|团队|那边)\\s*(?:打算|计划|准备)|[里上中]\\s*(?:写|说|提到)|写着|写道|不是我(?:们)?的|跟我(?:们)?无关|(?:那|这)是(?:他|她|他们|她们)的事|听[^,.。]{0,8}说|据说|(?:组|队|部门|团队|那边)\\s*(?:说|讲|要求|提到|建议)|有人(?:说|提|建议)|别人(?:说|家)|网上|文章里|博客|群里|原话|转述|转发|你(?:刚才|之前|上次)?(?:说|讲|提到|建议|推荐)|(?:他|她|他们|她们|同事|老板|客户|产品|经理|领导|隔壁[^,.。]{0,4}|[a-z]+)(?:的)?(?:建议|意见|提议|想法)是',
      EN`\b(?:i\s+heard|heard\s+that|apparently|reportedly|rumou?r|according\s+to|quoting|forwarding|(?:someone|somebody|they|he|she|you)\s+(?:said|says|suggested|mentioned|wrote)|(?:his|her|their)\s+call|not\s+(?:mine|ours)|not\s+my\s+call|the\s+(?:[\w-]+\s+){0,2}team\s+(?:plans|wants|intends|hopes|is\s+planning)\s+to|(?:they|he|she)\s+(?:plans?|wants?|intends?|(?:is|are)\s+planning)\s+to)\b`,
    ].join('|'),
  ),
  /** Waiting for someone: "等老板拍板", "还要跟团队商量", "pending approval". */
  pending: new RegExp(
    [
      '还没[^,.。]{0,6}(?:sign[\\s-]?off|approve|批|审|点头)|等[^,.。]{0,16}(?:确认|批准|同意|拍板|评审|审批|决定|回复)|(?:还|再)?(?:要|得)(?:跟|和|问)[^,.。]{0,10}(?:商量|确认|讨论|问问|同意)|问问[^,.。]{0,8}再|征求|看[^,.。]{0,8}(?:意见|反馈)',
      EN`\b(?:pending|to\s+be\s+(?:decided|confirmed|discussed)|needs?\s+(?:sign-?off|approval)|waiting\s+(?:on|for)|run\s+it\s+by|check\s+with)\b`,
    ].join('|'),
  ),
} as const;

export type Unsettling = keyof typeof LEXICON;

/** What marks this sentence unsettled (a question, a hedge, …), or undefined when nothing does. */
export function unsettledBy(sentence: string): Unsettling | undefined {
  const text = foldHan(sentence);
  return (Object.keys(LEXICON) as Unsettling[]).find((k) => LEXICON[k].test(text));
}

/** A sentence that holds the statement before it open: "还要跟老板确认", "not final", "再看看", "先这样试试". */
export function holdsOpen(sentence: string): boolean {
  const text = foldHan(sentence);
  return LEXICON.pending.test(text) || LEXICON.undecided.test(text);
}

/**
 * Another group's rule, told as theirs: "隔壁组的规矩是周五不许上线", "別的團隊的規定是…", "the other
 * team's rule is …". Even a strong marker ("不许", "never") inside it settles nothing for the user.
 */
const OTHERS_RULE = new RegExp(
  [
    '(?:隔壁|别的|其他|其它|另一个|别人)[^,.。]{0,6}?(?:组|队|部门|团队|team|公司|家)(?:的)?(?:规矩|规定|做法|惯例|流程|要求)',
    EN`\b(?:the\s+)?other\s+(?:team|teams|company|group)['’]s?\s+(?:rule|policy|practice|convention)\b|\b(?:their|his|her)\s+(?:team['’]s\s+)?(?:rule|policy)\s+is\b`,
  ].join('|'),
);

export function othersRule(sentence: string): boolean {
  return OTHERS_RULE.test(foldHan(sentence));
}

/**
 * Someone else's practice, not the user's choice: "隔壁组用 Kafka", "他们都用 Jenkins", "很多公司用
 * Snowflake", "Other teams use Bazel". Read before the statement's marker.
 */
const OTHERS = new RegExp(
  [
    '(?:^|[,;:。])\\s*(?:他|她|他们|她们|人家|别人|别的|其他|另一个|隔壁|竞品|友商|大厂|很多|不少|有些|有的|大家|以前的?公司|前公司|上家|外面)',
    EN`^\s*(?:other|some|many|most|a\s+lot\s+of)\s+(?:teams?|companies|people|projects|folks)\b|^\s*(?:they|their|he|she|his|her)\b`,
  ].join('|'),
);

/** Someone's liking or wish, said by anyone but the user: "小王比较喜欢", "我同事更想用", "组长希望" (not "我也比较喜欢"). */
const OTHERS_WISH =
  /(?<!(?:我|我们|咱们)(?:的|比较|更|还是|一般|一直|也|都|真的|其实|个人){0,2})(?:比较|更|还是)?(?:喜欢|偏好|偏向|倾向|习惯|希望|想要|想用|爱用|中意|坚持|想\s*$)/;

export function othersPractice(beforeMarker: string): boolean {
  const text = foldHan(beforeMarker);
  return OTHERS.test(text) || OTHERS_WISH.test(text);
}

/**
 * What is no choice of now: the past ("以前缓存用 Memcached", "原来部署在 Heroku", "We used to …") or a
 * negation just before the marker ("不打算用 Kafka", "没必要用 k8s", "还不想换成 Bun"). Read before the marker.
 */
const NOT_NOW = new RegExp(
  [
    '(?:以前|原来|当初|过去|去年|上个月|早先|曾经|那时候?)|(?:^|[,.\\s])之前(?!要|得|必须|一定)',
    '(?:不|没|别|无需|无须|甭)\\p{sc=Han}{0,3}\\s*$',
    EN`^\s*(?:we|i)\s+used\s+to\b|\b(?:not|never|no\s+need\s+to)\s+(?:\w+\s+){0,2}$`,
  ].join('|'),
  'u',
);

export function notNow(beforeMarker: string): boolean {
  return NOT_NOW.test(foldHan(beforeMarker));
}
