/**
 * The words of an agent's proposal and of the user's short reply to it (proposal.ts): the agent
 * offers or proposes, the reply confirms ("yep do it", "好，就這樣") unless something in it takes the
 * yes back ("ok, but not yet"). A proposal confirmed is the user's decision; one left open is not.
 */
const EN = String.raw;

/** A short reply that confirms the assistant's proposal just before it: how it opens. */
export const CONFIRMATION =
  /^\s*(?:yes+|yep|yup|yeah|ya|yah|k|kk|ok(?:ay)?|sure(?:\s+thing)?|of\s+course|let['’]?s\s+do\s+it|do\s+that|👍|✅|好[啊呀吧]|可以[啊呀吧]|行[啊呀吧]|[弄做改换換加装裝]吧|agreed|sounds\s+good|do\s+it|go\s+ahead|go\s+for\s+it|please\s+do|absolutely|definitely|works\s+for\s+me|fine\s+by\s+me|perfect|[加改上装裝换換][吧上]|confirmed|lgtm|approved|ship\s+it|好的?|可以|要(?=[，,。！!\s]|$)|同意|行|没问题|沒問題|就[这這][样樣]|就[这這][么麼][办辦]|(?:就[这這][么麼样樣])?定了)(?![a-z])[\s.!,，。！]*/i;

/**
 * What takes the opener back, anywhere in the reply after it: a bare "no" ("Yeah, no"), a negation
 * ("Ok, but not yet"), a hold ("sure, wait"), a change ("yes, 30 MB instead"), 先别, 不要, 等等.
 * "No problem", "why not" and "don't forget the tests" still confirm.
 */
export const DECLINE = new RegExp(
  [
    EN`\b(?:no|nope|nah|wait|later)\b(?=\s*(?:[,.;:!…—–-]|$))`,
    EN`(?<!\bwhy\s+)\bnot\b|\b(?:don['’]?t|do\s+not)\b(?!\s+forget)|\b(?:never|instead|hold\s+(?:on|off|up))\b`,
    '先?[别別](?!忘)|不要|不用了|不行|不[对對]|先不|[暂暫]不|等等|等一下|再[说說]|算了',
  ].join('|'),
  'i',
);

/** The assistant offering to do something: "Should I also add Prettier?", "Want me to…?", "要我…吗？". */
export const OFFER =
  /\b(?:should\s+i|shall\s+i|(?:do\s+you\s+)?want\s+me\s+to|would\s+you\s+like\s+me\s+to)\b|要我|需要我|^我(?:可以|能)(?:[帮幫]你)?(?=[^。？?]*[，,]\s*(?:要(?:做|弄|加|装|裝)?|好|可以)[吗嗎]?\s*[?？]$)/i;

/** The assistant proposing something the user may confirm. */
export const PROPOSAL = new RegExp(
  String.raw`\b(?:shall\s+we|should\s+we|i\s+(?:propose|suggest|recommend)|how\s+about|let['’]?s)\b|^I(?:['’]ll|\s+will)\s+(?=[^?]*,\s*(?:ok(?:ay)?|sound\s+good|alright)\s*\?$)|建[议議]|要不要|我[们們]可以|${OFFER.source}`,
  'i',
);
