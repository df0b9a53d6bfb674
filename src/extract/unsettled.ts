/**
 * The retention gate's words (DESIGN §7): a statement that is a question, a guess, a hypothetical or
 * not yet decided is not memory (UNSETTLED), and a clause that takes back what was just said
 * ("scratch that", 算了, 当我没说) leaves nothing of it (RETRACTION). Kept apart from the kind markers
 * so every path (user statements, confirmations, retractions) asks the same gate.
 */
const EN = String.raw;

/** A statement that is a question, a guess or not yet settled is not memory (the retention gate). */
export const UNSETTLED = new RegExp(
  [
    EN`[?？]\s*$`,
    // Hypotheticals, wishes and options: "suppose we…", "would be nice", "we could…", "one option is…".
    EN`\b(?:suppose|supposing|imagine|hypothetically|in\s+theory|would\s+be\s+nice|if\s+only|some\s*day|one\s+day|just\s+a\s+(?:dream|thought|wish|wild\s+idea)|wish\s*list|we\s+could|you\s+could|one\s+option|an?\s+(?:option|alternative)\s+(?:is|would\s+be)|alternatively|thinking\s+(?:about|of)|toying\s+with)\b`,
    EN`\b(?:maybe|perhaps|might|probably|possibly|what\s+if|should\s+we|could\s+we|shall\s+we|do\s+we|i\s+(?:think|guess|wonder)|not\s+sure|undecided|haven['’]?t\s+decided|not\s+(?:yet\s+)?decided|if\s+we\s+decide|let\s+me\s+know|tbd|just\s+(?:asking|wondering|curious))\b`,
    '[来來]着\\s*[。.!！?？]*$|(?:^|[，,\\s])(?:我[们們])?(?:之前|以前|原[来來]|[过過]去)(?:是|都是|一直|都)?(?:用|在用|採用|采用)|有(?:机会|機會|空)(?:的[话話])?再?|假如|假[设設]|要是|万一|萬一|倘若|假使|[设設]想|理[论論]上|有朝一日|哪天|[说說]不定|不[确確]定|不一定|有一?[个個](?:方案|[选選]项|[选選]項|想法|主意)|在想|[还還]在[考想]|也[许許]|或[许許]|可能|要不要|是不是|[还還]没[决決]定|[还還]沒[决決]定|[先暂暫]不[决決]定|不[决決]定|未定|如果|(?:以[后後]|回[头頭])再[说說议議]|[随隨]便[问問][问問]|只是[问問][问問]',
  ].join('|'),
  'i',
);

/**
 * A clause that takes back what was just said: "scratch that", "never mind", "forget that", 算了,
 * 不对, 当我没说. Only a clause of its own counts ("never mind the tests" and "don't forget that X"
 * are not one). One capture group, so a sentence split on it keeps the retraction as a piece.
 */
export const RETRACTION = new RegExp(
  EN`(?<=^|[,，;；:：—–-]\s*)((?:(?:oh|ah|um+|hmm+|no|nah|wait|actually|sorry|ok(?:ay)?|please|pls)[\s,，]+)*(?:scratch\s+that|scrap\s+that|that['’]?s\s+(?:wrong|not\s+right)|that\s+is\s+(?:wrong|not\s+right)|never\s*mind|nvm|forget\s+(?:that|it|what\s+i\s+(?:just\s+)?said)(?:\s+about\s+[^,，;；.。!！?？]{1,40})?|ignore\s+(?:that|what\s+i\s+said)|disregard\s+that|i\s+was\s+wrong(?:\s+about\s+[^,，;；.。!！?？]{1,40})?)|算了吧?|(?:(?:刚才|剛才|刚刚|剛剛)?(?:那[个個句条條]|[这這][个個句条條])?|(?:刚才|剛才|刚刚|剛剛))(?:不[对對]|[说說][错錯]了|是[错錯]的|[错錯]了)|撤回|[当當]我[没沒][说說])(?=\s*(?:$|[,，;；:：.。!！?？…—–-]))`,
  'i',
);
