/**
 * Obligations, prohibitions and tasks said without the words the older markers listen for (issue 27
 * item 4): a deontic modal on a quantified subject ("Each PR needs a line in CHANGELOG.md", "每个 PR
 * 都要…", "任何 PR 都一样"), a prohibition word ("绝对不能提交", "禁止", "不得"), an obligation
 * ("必须", "一定要", "務必"), a "never"/"always" after a Chinese clause ("CI 红的时候 never merge");
 * and a task tagged as one ("please track that as a task", "帮我记成一个任务", "加个 task：…",
 * "Done with the X task", "SAML 那个 task blocked 了", "Postgres 驱动升级卡住了"). Data only, like markers.ts, which lists these
 * after the kinds' own phrases; a question, a hedge, a quote or someone else's words still settle nothing.
 */
import type { Marker } from './kind-markers.js';

const EN = String.raw;

/** Someone must or must not: a quantified subject and a modal, or a prohibition or obligation word. */
export const DUTY_MARKERS: Marker[] = [
  {
    kind: 'Rule',
    confidence: 0.8,
    weak: true,
    re: new RegExp(
      [
        EN`\b(?:every|each|all|any)\s+(?:[\w.-]+\s+){0,2}?(?:must|needs?|has\s+to|have\s+to|gets?|require[sd]?)\b(?!\s+(?:to\s+)?(?:be\s+)?(?:fixed|looked\s+at|checked)\b)`,
        '(?:每[个個一]?|所有|任何|全部)[^，,。！？?]{0,20}?都(?:要|得|必[须須]|不能|不准|不可以|一[样樣])',
        '[绝絕][对對]不(?:能|可以|准|许|許)|禁止|不得|必[须須]|一定要|[务務]必',
      ].join('|'),
      'i',
    ),
  },
  // "CI 红的时候 never merge": the instruction after a Chinese clause.
  {
    kind: 'Rule',
    confidence: 0.8,
    weak: true,
    re: /[\u4e00-\u9fff][\s,，:：]*(?:never|always|(?:don['’]?t|do\s+not)\s+ever)\s+[a-z\u4e00-\u9fff]/i,
  },
];

/** A task tagged as one, first or last in its sentence; the strip leaves what is to be done (or nothing, for a tag said last). */
export const TASK_TAGS: Marker[] = [
  {
    kind: 'Task',
    confidence: 0.85,
    re: /\b(?:track|log|file|record|keep)\s+(?:that|this|it)\s+as\s+an?\s+(?:task|todo|to-do)\b|(?:帮我|幫我|请|請)?(?:记|記|track)\s*(?:成|为|為)?\s*一?[个個]\s*(?:任[务務]|待[办辦]|task)|(?:记|記|加|新增|添加)\s*一?[个個]\s*(?:任[务務]|待[办辦]|task|todo)\s*[:：]?/i,
    strip:
      /^.*?(?:(?:(?:please\s+)?(?:track|log|file|record|keep)\s+(?:that|this|it)\s+as\s+an?\s+(?:task|todo|to-do))|(?:(?:帮我|幫我|请|請)?(?:记|記|track)\s*(?:成|为|為)?\s*一?[个個]\s*(?:任[务務]|待[办辦]|task))|(?:(?:记|記|加|新增|添加)\s*一?[个個]\s*(?:任[务務]|待[办辦]|task|todo)))\s*[:：]?\s*/i,
  },
  // A task's state: "Done with the invoice email template task", "The driver upgrade is blocked, …", "SAML 那个 task blocked 了".
  {
    kind: 'Task',
    confidence: 0.85,
    re: /\b(?:done|finished)\s+with\s+the\s+.{1,50}?\s+task\b|\b(?:is|are)\s+(?:now\s+|still\s+)?(?:blocked|stuck)\b|(?:task|任[务務])\s*(?:blocked|done|完成|卡住)\s*了|\b(?:blocked|done)\s*了|(?:升[级級]|迁移|遷移|上[线線]|重构|重構|接入)\S{0,4}卡住了/i,
  },
];

/** What a tag said last leaves before it: "We need to set up X — please track that as a task." → "We need to set up X". */
export const TASK_TAG_LAST =
  /[\s,，;；—–-]*(?:(?:please\s+)?(?:track|log|file|record|keep)\s+(?:that|this|it)\s+as\s+an?\s+(?:task|todo|to-do)|(?:帮我|幫我|请|請)?(?:记|記|track)\s*(?:成|为|為)?\s*一?[个個]\s*(?:任[务務]|待[办辦]|task))[\s.!。！]*$/i;
