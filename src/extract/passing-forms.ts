/**
 * Choices, shapes and work in progress said in passing, found by a seventh probe batch written before
 * the extractor saw it (fixtures/extraction/spec/probe6.mjs): a plan said in the passive ("the app will
 * be built with Expo"), a named product in use ("For auth we're using Clerk"), a pick announced ("Final
 * pick for charts is Recharts"); two parts and what sits between them ("订单和支付之间通过 Kafka 解耦",
 * "网关后面挂三个服务"), a part kept in a named store ("文件统一存 OSS"); work under way or stuck said
 * after its subject ("Stripe webhook 那块我在弄了", "Migration script 还卡着", "Still stuck on the iOS
 * build"). Before, each landed nothing. The choices need a proper name (a capital, as the user typed
 * it), so "we're using the old approach" settles nothing; all but the announced pick are `weak`, so a
 * hedge, a question or someone else's voice in the message leaves them open (left-open.ts).
 */
import type { Marker } from './kind-markers.js';

/** A proper name as typed: "Expo", "GitLab CI", "Next.js". */
const NAME = String.raw`[A-Z][\w.+-]*`;
/** A use described, not chosen: "we're using Redux wrong", "… for now". */
const NOT_SETTLED = String.raw`(?![^.?!]*\b(?:wrong|wrongly|incorrectly|badly|for\s+now|at\s+the\s+moment|temporarily)\b)`;

export const PASSING_FORMS: Marker[] = [
  {
    kind: 'Decision',
    confidence: 0.7,
    weak: true,
    re: new RegExp(
      String.raw`\b(?:will\s+be|is\s+going\s+to\s+be|are\s+going\s+to\s+be|gets|get)\s+(?:built|written|made|done|hosted|deployed|implemented|served|run)\s+(?:with|in|on|using|by)\s+${NAME}` +
        String.raw`|\b[Ww]e(?:['’]re|\s+are)\s+(?:now\s+)?using\s+${NAME}${NOT_SETTLED}` +
        String.raw`|\b(?:will\s+be|is\s+going\s+to\s+be)\s+(?:on|in)\s+${NAME}|^[\s,]*[Ww]e\s+(?:now\s+)?use\s+${NAME}\s+for\b|^[\s,]*(?:[Ss]ettled|[Aa]greed|[Ll]ocked\s+in)\s*[:：]\s*\S` +
        String.raw`|(?:就|都|统一|統一)?交[给給]\s*[A-Za-z][\w.+-]*\s*(?:了|吧)?\s*[。.!！]?$` +
        String.raw`|\b[Ww]e(?:['’]re|\s+are)\s+(?:now\s+)?(?:deploying|hosting|switching|moving|migrating)\b[^.?!]{0,30}?\b(?:on|to)\s+${NAME}` +
        // "图表库定 ECharts。": a short subject, then 定 and a name (not 决定, 确定, 一定, 规定, …).
        String.raw`|^[^，,。？?]{1,12}?(?<![决決确確一肯搞否规規约約制固稳穩设設指预預待未暂暫锁鎖])定\s*(?:成|为|為|用)?\s*[A-Za-z][\w.+-]*\s*(?:了|吧)?\s*[。.!！]?$`,
    ),
  },
  {
    kind: 'Decision',
    confidence: 0.75,
    re: new RegExp(
      String.raw`\b(?:[Ff]inal|[Oo]ur|[Mm]y|[Tt]he)\s+(?:pick|choice|call)\s+(?:for\s+[^.?!]{1,30}?\s+)?is\s+${NAME}`,
    ),
  },
  {
    kind: 'Architecture',
    confidence: 0.75,
    weak: true,
    re: /跑在\s*[A-Za-z][\w.+ -]{0,20}?上|(?:之[间間])\s*(?:通[过過]|透[过過]|用|走|靠|使用|经过|經過)\s*[A-Za-z]|(?:[统統]一|都)存\s*[A-Za-z]|(?:后面|後面|前面|下面)(?:挂|掛|接)了?\s*[^，,。？?]{0,10}(?:服[务務]|service|节点|節點|实例|實例)/i,
  },
  // Progress said of the work itself: "The export endpoint is in progress", "The webhook retry PR is merged",
  // "I'm halfway through the billing refactor", "Picked up the SSO ticket", "I'll take the CSV export next",
  // "退款流程进行中", "报表页做了一半", "搜尋功能上線了", "金流那塊等銀行回覆中".
  {
    kind: 'Task',
    confidence: 0.75,
    weak: true,
    re: /^(?![^.?!]*\b(?:said|says|told|thinks|claims|heard|apparently|supposedly)\b)[^]*?(?:^[\s,]*(?!(?:it|that|this|everything|nothing)\b)(?:the\s+)?[\w./-]+(?:\s+[\w./-]+){0,5}\s+(?:is|are)\s+(?:now\s+)?(?:in\s+progress|under\s*way|in\s+review|merged|waiting\s+(?:on|for)\s+(?:the\s+)?[\w-]+\s+(?:review|approval|sign-?off|reply))\b|^[\s,]*(?:the\s+)?[\w./-]+(?:\s+[\w./-]+){0,5}\s+shipped\b|\b(?:i['’]?m|we['’]re|i\s+am|we\s+are)\s+halfway\s+through\s+(?:the|my|our)\s+\S|^[\s,]*(?:just\s+)?picked\s+up\s+(?:the|my|our)\s+\S|^[\s,]*heads\s+down\s+on\s+(?:the|my|our)\s+\S|^[\s,]*(?:i['’]?ll|i\s+will)\s+(?:take|pick\s+up|grab)\s+(?:the|our)\s+[^.?!]{2,40}?\s+next\b|^[^，,。？?]{2,20}?(?:进行中|進行中|[做弄写寫]了一半|做到一半|(?<![没沒未不])上[线線]了|等[^，,。]{1,12}回[复覆]中))/i,
  },
  {
    kind: 'Task',
    confidence: 0.75,
    weak: true,
    re: /^[\s,]*(?:still\s+)?stuck\s+on\s+(?:the|my|our)\s+\S|(?:那[块塊个個]|[这這][块塊个個]|部分)\s*我[们們]?(?:在|还在|還在|正在)\s*(?:弄|做|写|寫|修|搞|[处處]理)|[还還]卡[着著]/i,
  },
];
