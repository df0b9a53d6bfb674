/**
 * How the system is now, said in everyday words with none of the older markers' (issue 27 item 4):
 * "Auth lives in its own service now", "Reads go to the replica", "The API now goes through a
 * gateway", "消息队列从 Redis 换成了 RabbitMQ", "所有請求都先經過 API 閘道". A part of the system, a
 * structural verb and a place it goes; trouble words ("slow", "fails", "why") keep a description
 * of a problem from reading as a design. All `weak` (rules.ts leaves them open to any hedge in the
 * message); markers.ts lists PLAIN_SHAPES before the plain choices and PLAIN_DESIGN last of all.
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
