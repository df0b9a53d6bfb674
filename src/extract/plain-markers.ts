/**
 * Everyday ways of settling things that carry none of the older markers' words (issue 27 item 4):
 * how the system is now ("Auth lives in its own service now", "Reads go to the replica", "The API
 * now goes through a gateway", "消息队列从 Redis 换成了 RabbitMQ", "所有請求都先經過 API 閘道"),
 * plain prohibitions and duties ("Don't merge without a green CI run", "No force-pushes on shared
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

/** Parts of a system a sentence about its shape is about. */
const PART = EN`scheduling|scheduler|etl|pipelines?|(?:customer|user)\s+data|data|pii|api|apis|gateway|auth(?:entication)?|sessions?|cach(?:e|ing)|queues?|(?:cron|scheduled|background|nightly)\s+jobs|jobs|workers?|search|index(?:er|ing)|(?:file\s+)?uploads?|files|webhooks?|notifications?|emails?|payments?|billing|orders|inventory|reads|writes|front[\s-]?end|back[\s-]?end|clients?|config(?:uration)?|logs|logging|metrics|events|rendering|(?:static\s+)?assets|images|media|storage|rate\s+limit(?:er|ing)|tenants?|[\w-]+\s+service|(?:each|every)\s+(?:tenant|service|customer)`;

/** Where a part goes, sits or talks: a shape word or a named store, broker or platform. */
const PLACE = EN`services?|gateway|queue|workers?|replica|primary|cdn|edge|bff|schema|topic|broker|cluster|bucket|lambdas?|cron\s*jobs?|monolith|microservices?|proxy|load\s+balancer|event\s+bus|events|(?:change\s+)?stream|redis|postgres(?:ql)?|mysql|mongo(?:db)?|dynamo(?:db)?|s3|sqs|sns|kafka|rabbitmq|nats|opensearch|elasticsearch|memcached|clickhouse|sqlite|cloudflare|cloudfront|kubernetes|k8s|nginx|envoy|traefik|haproxy|varnish|typesense|meilisearch|algolia|sidekiq|celery|temporal|airflow|dagster|argo|fargate|cloud\s+run|outbox|bigquery|snowflake|warehouse|unleash|kong|launchdarkly|gcs|blob\s+storage|r2|keycloak|auth0|okta|cognito`;

/** A structural verb, in the present or just done: lives in, goes through, talks to, moved to. */
const PUTS = EN`authenticates?\s+(?:against|with|through|via)|authenticate\s+(?:against|with|through|via)|stays?|holds?|lives?|sits?|runs?|goes|go|talks?|lands?|land|comes?|come|gets?|get|consumes?|reads?|writes?|owns|fans?\s+out|moved|(?:is|are)\s+(?:now\s+)?(?:handled|stored|served|kept|split|cached|queued|processed|hosted|deployed|rendered|backed|powered|fronted|published)|(?:is|are)\s+(?:now\s+)?(?:in|on|behind)|backed\s+by|powered\s+by|fronted\s+by|served\s+(?:by|from)|(?:written|streamed|synced|replicated|published|sent)\s+to`;

/** Nouns of a system's parts and places, for a statement of how two of them relate. */
const NOUN = `${PLACE}|${PART}|app|apps|ui|cli|deployment|container|pods?|region|stdout|endpoint|api|database|db|cache|storage|frontend|backend|package|library|module|monorepo|table|tables|request|requests|feature\\s+flags`;
/** How parts relate: present or just done. */
const RELATES = EN`go|come|land|shares?|generated|written|streamed|synced|is|are|runs?|lives?|sits?|goes|talks?|hits?|calls?|writes?|reads?|ships?|sends?|routes?|owns?|fronts?|serves?|handles?|processes|stores?|has\s+been|resized|queued|verified|split|moved|pulls?|pushes|publishes|consumes|subscribes|proxies|forwards|behind|through|via|per`;
/** A problem, a doubt or a question: a description of trouble, not of design. */
const TROUBLE = EN`slow|fail\w*|broken|error\w*|crash\w*|timeout\w*|times\s+out|down|bug\w*|issues?|problems?|returns?|throws?|500|404|flaky|wrong|why|how|what|maybe|could|would|might|guess|if|when|until|pile|piles|piling|done|finished|deployed|blocked|too|expensive|cheap|cheaper|overkill|better|worse|faster|slower`;

/** Chinese parts of a system. */
const ZH_PART =
  '背景工作|后台工作|後台工作|processing|jobs?|images?|uploads?|notifications?|emails?|定时任务|定時任務|排程(?:工作)?|后台任务|後台任務|批处理|批次處理|cron|job|队列|隊列|佇列|消息|訊息|缓存|快取|搜索|搜尋|存储|存儲|会话|會話|鉴权|鑑權|認證|认证|通知|上传|上傳|图片|圖片|文件|檔案|接口|請求|请求|queue|cache|search|session|auth|storage|worker';

export const PLAIN_SHAPES: Marker[] = [
  // "Auth lives in its own service now", "Reads go to the replica", "Webhooks land in a queue first".
  {
    kind: 'Architecture',
    confidence: 0.75,
    weak: true,
    re: new RegExp(EN`\b(?:${PART})\b[^.?!;]{0,30}?\b(?:${PUTS})\b[^.?!;]{0,50}?\b(?:${PLACE})\b`, 'i'),
  },
  // "The mobile app talks to the backend only through the gateway", "Let's put Nginx in front of the app servers",
  // "We introduced an outbox table", "We've broken reporting out into its own service".
  {
    kind: 'Architecture',
    confidence: 0.75,
    weak: true,
    re: new RegExp(
      EN`\bauthenticates?\s+(?:against|with|through|via)\s+(?:${PLACE})\b|\b(?:talks?|goes|go|calls?|reaches?)\b[^.?!;]{0,30}?\b(?:only\s+)?(?:through|via)\s+(?:the\s+|a\s+|an\s+)?(?:[\w-]+\s+)?(?:${PLACE})\b|\b(?:put|putting|puts|sits?|placed?)\b[^.?!]{0,40}?\bin\s+front\s+of\b|\b(?:introduc(?:e|ed|ing)|add(?:ed|ing)?|set\s+up|stood\s+up)\s+(?:an?\s+|the\s+)?(?:[\w-]+\s+)?(?:outbox|gateway|message\s+queue|job\s+queue|cache\s+layer|read\s+replicas?|cdn|bff|load\s+balancer|reverse\s+proxy|message\s+bus|event\s+bus|service\s+mesh|sidecar)\b|\b(?:broken|broke|break(?:ing)?|pull(?:ed|ing)?|carv(?:e|ed|ing)|extract(?:ed|ing)?|spun|spin(?:ning)?)\b[^.?!]{0,40}?\bout\b[^.?!]{0,20}?\b(?:into\s+)?(?:its|their)\s+own\s+(?:[\w-]+\s+)?(?:service|repo|process|container|deployment|cluster|database|db)\b|\b[\w-]+\s+service\s+owns\b`,
      'i',
    ),
  },
  // "The model is served from a separate Python service": done by a part of its own; "The websocket server is its own process now".
  {
    kind: 'Architecture',
    confidence: 0.75,
    weak: true,
    re: /\b(?:is|are)\s+(?:now\s+)?(?:its|their)\s+own\s+(?:process|service|container|deployment|app|binary|repo|cluster)\b|\bseparate\s+from\s+the\s+(?:[\w-]+\s+)?(?:api|app|service|monolith|backend|frontend)\b|\b(?:is|are)\s+(?:now\s+)?(?:served|handled|processed|run|hosted|done|generated|computed)\s+(?:by|from|in|on)\s+(?:a|an|the)\s+(?:separate|dedicated|standalone|new|own)\s+/i,
  },
  // "We're switching the job queue from Redis to SQS", "We moved thumbnail generation out of the API into a worker service".
  {
    kind: 'Architecture',
    confidence: 0.8,
    weak: true,
    re: new RegExp(
      EN`\b(?:switch(?:ing|ed)?|migrat(?:e|ing|ed)|mov(?:e|ing|ed)|replac(?:e|ing|ed)|put(?:ting)?)\b[^.?!]{0,40}?\b(?:${PART})\b[^.?!]{0,40}?\b(?:from|to|into|onto|in\s+front\s+of|behind)\b(?!\s+(?:\d|(?:mon|tues|wednes|thurs|fri|satur|sun)day|next|tomorrow|later|q[1-4]\b|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b))|\b(?:moved|mov(?:e|ing))\b[^.?!]{0,40}?\b(?:out\s+of|into)\b[^.?!]{0,40}?\b(?:${PLACE})\b|\bputting\s+an?\s+(?:${PLACE})\s+in\s+front\s+of\b`,
      'i',
    ),
    strip:
      /^.*?\b(?:we(?:['’]re|\s+are|['’]ve|\s+have)\s+|we\s+will\s+|we['’]ll\s+|(?:we|i)(?:['’]ve|\s+have)?\s+decided\s+to\s+)(?=switch|migrat|mov|replac|put)/i,
  },
  // "消息队列从 Redis 换成了 RabbitMQ", "搜索迁到 Elasticsearch 了", "我们把 queue 从 Redis 换成 SQS 了".
  {
    kind: 'Architecture',
    confidence: 0.8,
    weak: true,
    re: new RegExp(
      `(?:${ZH_PART})[^，,。？?]{0,12}?(?:[从從][^，,。？?]{1,20}?)?(?:[换換]成|改成|迁到|遷到|迁移到|遷移到|搬到|切到|挪到|改为|改為|丢到|丟到|交给|交給)了?\\s*[A-Za-z]`,
      'i',
    ),
  },
  // "读写分离：读走从库", "所有請求都先經過 API 閘道", "檔案上傳直接傳到 S3", "Auth 现在是独立的 service", "Cache 放在 API 前面".
  {
    kind: 'Architecture',
    confidence: 0.8,
    weak: true,
    re: /[读讀]写?寫?分[离離]|(?:查|[读讀]|走|打)\s*(?:主[库庫]|[从從][库庫]|只[读讀]副本|副本|replica)|由[^，,。？?]{1,12}?(?:服[务務]|service|worker)\s*(?:消[费費]|[处處]理|[订訂][阅閱])|(?:先)?[进進]\s*(?:Kafka|[队隊佇]列|MQ|queue|[对對]象存[储儲]|物件儲存|S3|OSS)|[异異]步(?!吗|嗎|[?？])|(?:收集|汇总|彙整|集中|同步|推送|上报|上報)到\s*[A-Za-z]|(?:先)?(?:丢|丟|扔|推)(?:到|进|進)?\s*(?:SQS|Kafka|MQ|queue|[队隊佇]列|RabbitMQ)|拆成了?\s*[一二三四五六七八九十两兩\d]+\s*[个個]\s*(?:服[务務]|service|app|[应應]用)|[单單]体|[單單]體|(?:多|加)了?一[层層]|分[开開]\s*(?:deploy|部署)|\bCDC\b|加了?一[层層]|在[^，,。？?]{1,20}?前面|(?:调用|調用|呼叫|打到?|call|走|经过|經過|通过|通過)\s*[^，,。？?]{0,6}?(?:BFF|网关|網關|閘道|gateway|MQ|消息[队隊]列|訊息佇列)|(?:通过|通過|经过|經過|走|透過|透过)\s*[^，,。？?]{0,12}?(?:通信|通訊|交互|溝通|沟通|事件|消息|訊息)|服[务務]之[间間]|走(?:从|從|主)[库庫]|(?:经过|經過|通过|通過)[^，,。？?]{0,12}?(?:网关|閘道|gateway)|(?:传到|傳到|存到|直传|直傳)\s*(?:S3|OSS|CDN|[对對]象存[储儲]|物件儲存)|(?:是|成了|成为|成為)\s*[独獨]立的?\s*(?:服[务務]|service)|(?:放在|挡在|擋在|加在)[^，,。？?]{1,16}?(?:前面|前头|前頭)|(?:挪到|放到|丢到|丟到)[^，,。？?]{0,10}?(?:worker|[异異]步|非同步)/i,
  },
  // "用户服务单独拆出来了", "會員系統已經獨立成一個服務", "静态资源全部放到 CDN 上", "圖片都改存到 GCS 了".
  {
    kind: 'Architecture',
    confidence: 0.75,
    weak: true,
    re: /(?:[单單][独獨])?拆(?:了)?出(?:来|來|去)了|[独獨]立(?:成|出来|出來)(?:一?[个個])?(?:服[务務]|service)|(?:放到|放在|存到|存在|改存到|改存在|迁到|遷到|搬到|丢到|丟到)\s*[^，,。？?]{0,6}?(?:CDN|OSS|S3|GCS|R2|[对對]象存[储儲]|物件儲存)/i,
  },
];

/** Two parts of a system and how they relate, by their words alone: tried after every other marker. */
export const PLAIN_DESIGN: Marker[] = [
  // Unsettled by a problem or a doubt: "the API returns 500 when the cache is cold" describes a bug, not a design.
  // "Billing has been split out of the main app and runs as its own deployment", "The admin UI is a separate app
  // that hits the same API": two parts of a system and how they relate, said as how it is.
  {
    kind: 'Architecture',
    confidence: 0.7,
    weak: true,
    broad: true,
    re: new RegExp(
      EN`^(?=.*?\b(${NOUN})\b.*?\b(?!\1\b)(?:${NOUN})\b)(?=.*?\b(?:${RELATES})\b)(?!.*?\b(?:${TROUBLE})\b)`,
      'i',
    ),
  },
];

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
        EN`^[\s,]*(?:please\s+)?(?:always\s+)?(?:ask|check\s+with|ping|show|tell)\s+me\b[^.?!]{0,30}?\bbefore\b`,
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
    re: /^[\s,]*(?:fyi(?:\s+for\s+later)?|keep\s+in\s+mind|make\s+a\s+note|worth\s+remembering|good\s+to\s+know|please\s+note(?:\s+that)?|save\s+this(?:\s+for\s+later)?|jot\s+(?:this|that)\s+down|for\s+(?:future\s+)?reference|heads[\s-]up|(?:just\s+)?so\s+you\s+know(?:\s+for\s+later)?)\b\s*[:：,—–-]?|^[\s,]*note\s*[:：]|^[\s,，]*(?:[备備][注註]一下|[备備][注註])\s*[:：]/i,
    strip:
      /^[\s,，]*(?:fyi(?:\s+for\s+later)?|keep\s+in\s+mind|make\s+a\s+note|worth\s+remembering|good\s+to\s+know|please\s+note(?:\s+that)?|save\s+this(?:\s+for\s+later)?|jot\s+(?:this|that)\s+down|for\s+(?:future\s+)?reference|heads[\s-]up|(?:just\s+)?so\s+you\s+know(?:\s+for\s+later)?|note|[备備][注註]一下|[备備][注註])\b\s*(?:that\s+)?[:：,—–-]?\s*/i,
  },
];
