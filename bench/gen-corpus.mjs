#!/usr/bin/env node
// gen-corpus.mjs — deterministic synthetic "memory folder" generator for `mem` benchmarks.
//
// Usage:
//   node gen-corpus.mjs --size S|M|L|<fileCount> --out <dir> [--seed <int>] [--zh-ratio 0.1] [--force]
//                       [--format memfold|legacy]
//
// --format memfold (default): valid memfold entries (DESIGN §5) of every kind: Decision, Rule,
// Architecture, Note, Preference, Goal, Task (with a state) and Lesson; ids KIND-YYYYMMDD-<slug>, source
// (session_id, session_path, message_range), confidence, origin, scope (project:<name> for most, global
// for some), typed keys (pref:<category>:<topic>, goal:/task:/decision:<project>:<name>) on some, status
// active, and supersedes chains (by explicit id, and a later entry of the same key and scope naming the
// one it replaces; the replaced entry stays active, as microsync leaves it until compound flips it);
// wrap-ups with the six fixed headings; a MEMORY.md in compound's shape whose items cite entry ids.
// Moved into the project from the steering repo's bench/ so no benchmark depends on ../shared.
// --format legacy: the turn-1 corpus (ids D-YYYYMMDD-NN, free statuses) that research/perf-anchors used.
//
// Layout produced (file count includes every file):
//   <out>/MEMORY.md
//   <out>/memory/YYYY-MM-DD.md                       daily decision logs, 5-40 entries each
//   <out>/second-brain/summaries/YYYY-MM-DD-wrapup.md daily wrap-ups, six `##` sections
//
// Every daily entry is `## Decision: <title>` followed by bullet fields
// id / date / why / finding / conclusion / impact / status. About --zh-ratio of the
// entries (and of the wrap-ups) are written in Chinese, half Traditional, half Simplified,
// with the usual code-switching (English tech terms inside Chinese sentences).
// Word choice is Zipf-skewed so that BM25 sees common and rare terms.
//
// Sizes: S = 1,000 files, M = 10,000 files, L = 50,000 files. Roughly 70% of files are
// daily logs and 30% wrap-ups; dates run backwards, one day per daily file, from --end
// (default 2026-06-30), so large corpora reach back many decades (synthetic, on purpose).
// Same seed + same size => byte-identical output. Prints a JSON summary (files, MB) on stdout.

import fs from 'node:fs';
import path from 'node:path';
import { argReader, seeded } from './gen-kit.mjs';

// ---------- args ----------
const args = process.argv.slice(2);
const arg = argReader(args);
const SIZES = { S: 1000, M: 10000, L: 50000 };
const sizeArg = String(arg('size', 'S'));
const totalFiles = SIZES[sizeArg.toUpperCase()] ?? parseInt(sizeArg, 10);
if (!Number.isFinite(totalFiles) || totalFiles < 3) {
  console.error('bad --size (S|M|L|<n>=3..)');
  process.exit(2);
}
const outDir = arg('out', null);
if (!outDir || outDir === true) {
  console.error('usage: node gen-corpus.mjs --size S|M|L|<n> --out <dir> [--seed N] [--zh-ratio 0.1] [--force]');
  process.exit(2);
}
const seed = parseInt(arg('seed', '20260630'), 10) >>> 0;
const zhRatio = parseFloat(arg('zh-ratio', '0.1'));
const endDate = String(arg('end', '2026-06-30'));
const force = args.includes('--force');
const format = String(arg('format', 'memfold'));
if (!['memfold', 'legacy'].includes(format)) {
  console.error('bad --format (memfold|legacy)');
  process.exit(2);
}

// ---------- deterministic PRNG (mulberry32) ----------
const { rnd, int, pick, chance } = seeded(seed);
// Zipf-ish pick: low indices more likely (exponent 0.8); precomputed CDF per list.
const zipfCache = new Map();
function zpick(arr) {
  let cdf = zipfCache.get(arr);
  if (!cdf) {
    cdf = new Float64Array(arr.length);
    let acc = 0;
    for (let i = 0; i < arr.length; i++) {
      acc += 1 / Math.pow(i + 1, 0.8);
      cdf[i] = acc;
    }
    for (let i = 0; i < arr.length; i++) cdf[i] /= acc;
    zipfCache.set(arr, cdf);
  }
  const r = rnd();
  let lo = 0,
    hi = cdf.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cdf[mid] < r) lo = mid + 1;
    else hi = mid;
  }
  return arr[lo];
}
// Shuffle a list once (deterministically) so the Zipf head is not alphabetical.
function shuffled(arr) {
  const a = arr.slice();
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
}
const w = (s) => s.trim().split(/\s+/);

// ---------- vocabulary ----------
const TECH = shuffled(
  w(`
kubernetes postgres redis kafka grpc graphql webhook oauth jwt sqlite fts5 bm25 embeddings reranker
vector cache ttl latency throughput p95 p99 cold-start daemon watcher inotify mmap gzip zstd brotli
protobuf json yaml toml schema migration rollback canary feature-flag terraform ansible nginx envoy
prometheus grafana loki sentry opentelemetry tracing span histogram quota rate-limit backoff retry
idempotency deduplication sharding partition replica failover leader-election raft consensus snapshot
compaction tombstone wal fsync checksum crc32 sha256 hmac tls mtls certificate rotation secret vault
rbac acl sso saml oidc cors csrf sandbox wasm typescript esbuild vite webpack rollup pnpm npm bun deno
node v8 heap rss flamegraph profiler benchmark hyperfine regression flaky pipeline artifact monorepo
semver changelog release hotfix backport tokenizer stemmer segmenter unicode utf-8 cjk locale i18n
timezone cron scheduler queue worker backpressure stream buffer batch debounce throttle cursor pagination
inverted-index postings trie radix bloom-filter hyperloglog lru arena allocator serialization msgpack
cbor flatbuffers arrow parquet duckdb clickhouse s3 blob cdn edge lambda container docker podman systemd
tmux ssh rsync git rebase bisect worktree submodule lfs diff patch lint eslint prettier vitest jest
playwright fuzzing property-test contract-test load-test soak-test chaos incident postmortem runbook
oncall pager slo sli error-budget dashboard alert anomaly drift quantization gguf llama onnx cosine hnsw
ivf recall precision ndcg mrr ranking boosting fuzzy prefix typo synonym stopword lemma minisearch
lunr flexsearch tantivy meilisearch elasticsearch opensearch lucene faiss sqlite-vec pgvector chroma
qdrant weaviate markdown frontmatter wikilink backlink heading anchor slug glob chokidar fsevents
watchman debounce-window lockfile mutex semaphore deadlock race-condition memory-leak oom swap
page-cache readahead io_uring epoll libuv worker_threads napi node-gyp prebuild electron tauri cli
tty ansi stdin stdout exit-code signal sigterm sigint telemetry analytics privacy encryption at-rest
`),
);
const PROJECTS = shuffled(
  w(`
Atlas Beacon Cobalt Driftwood Ember Falcon Granite Harbor Indigo Juniper Kestrel Lantern Meridian
Nimbus Obsidian Pinecone Quartz Redwood Sequoia Tundra Umbra Vertex Willow Xenon Yarrow Zephyr Helios
Orion Polaris Aurora Basalt Cedar Fjord Glacier Horizon Jasper Keystone Lodestar Mosaic Nebula
Onyx Prism Quasar Rook Saffron Tessera Ursa Vireo Wren
`),
);
const PEOPLE = shuffled([
  'Alice Chen',
  'Bob Martinez',
  'Chidi Okafor',
  'Dana Kowalski',
  'Elif Yilmaz',
  'Farah Haddad',
  'Gustavo Pereira',
  'Hana Suzuki',
  'Ivan Petrov',
  'Jia Li',
  'Kwame Mensah',
  'Lena Fischer',
  'Mateo Rossi',
  'Nadia Rahman',
  'Omar Farouk',
  'Priya Natarajan',
  'Quinn Obrien',
  'Rafael Souza',
  'Sofia Lindqvist',
  'Tariq Aziz',
  'Uma Iyer',
  'Viktor Novak',
  'Wen Zhou',
  'Xavier Dubois',
  'Yuki Tanaka',
  'Zara Ahmed',
  'Amara Nwosu',
  'Bjorn Halvorsen',
  'Carmen Vega',
  'Dmitri Volkov',
  'Esther Cohen',
  'Felix Wagner',
  'Grace Kim',
  'Hiro Watanabe',
  'Isla Murray',
  'Jonas Berg',
  'Kavya Reddy',
  'Liam Walsh',
  'Maya Patel',
  'Noah Schmidt',
  'Olga Ivanova',
  'Pablo Ortiz',
  'Rosa Delgado',
  'Sven Larsen',
  'Tomas Horak',
  'Valentina Greco',
  'Yusuf Demir',
  'Zoe Laurent',
]);
const TEAMS = w('platform search infra data mobile web billing growth security devex sre ml docs support');
const VERBS = shuffled(
  w(`adopt replace drop pin upgrade downgrade migrate split merge shard cache
inline defer deprecate revert enable disable benchmark profile rewrite vendor fork batch stream
throttle debounce retry index reindex compress encrypt rotate audit document automate parallelize
serialize memoize precompute warm evict prune`),
);
const PROBLEMS = shuffled([
  'spikes under load',
  'leaks memory after a few hours',
  'blocks the event loop',
  'drops writes on failover',
  'doubles the cold-start time',
  'returns stale results',
  'breaks on CJK input',
  'fails on large files',
  'times out in CI',
  'corrupts the index on crash',
  'ignores the config file',
  'races with the watcher',
  'exceeds the memory budget',
  'hangs on network partitions',
  'misorders events',
  'needs a full rebuild',
  'costs too much at scale',
  'is hard to debug',
  'produces flaky tests',
  'leaks secrets into logs',
  'is not reproducible',
  'saturates one core',
  'thrashes the page cache',
  'misses recent notes',
]);
const METRIC_UNITS = {
  latency: 'ms',
  p95: 'ms',
  p99: 'ms',
  startup: 'ms',
  'build-time': 's',
  rss: 'MB',
  heap: 'MB',
  'index-size': 'MB',
  throughput: 'req/s',
  qps: 'req/s',
  recall: '%',
  precision: '%',
  ndcg: '%',
  mrr: '%',
  'error-rate': '%',
  cost: 'USD/day',
};
const METRICS = Object.keys(METRIC_UNITS);
const STATUS = [
  'accepted',
  'accepted',
  'accepted',
  'proposed',
  'in-progress',
  'superseded',
  'rejected',
  'deferred',
  'reverted',
];
const SOURCES = [
  'a hyperfine run',
  'the nightly benchmark',
  'a flamegraph',
  'production traces',
  'a load test',
  'the on-call log',
  'a user report',
  'the staging canary',
  'an A/B experiment',
  'a heap snapshot',
  'the eval set',
  'a bisect session',
  'strace output',
  'the postmortem',
];
const CONNECT = ['because', 'since', 'after', 'while', 'given that'];

// Chinese vocabulary as [Traditional, Simplified] pairs.
const ZH_TERMS = shuffled([
  ['快取', '缓存'],
  ['資料庫', '数据库'],
  ['索引', '索引'],
  ['向量', '向量'],
  ['搜尋', '搜索'],
  ['嵌入', '嵌入'],
  ['排序', '排序'],
  ['分詞', '分词'],
  ['延遲', '延迟'],
  ['吞吐量', '吞吐量'],
  ['記憶體', '内存'],
  ['硬碟', '硬盘'],
  ['伺服器', '服务器'],
  ['用戶端', '客户端'],
  ['部署', '部署'],
  ['回滾', '回滚'],
  ['遷移', '迁移'],
  ['備份', '备份'],
  ['監控', '监控'],
  ['日誌', '日志'],
  ['告警', '告警'],
  ['權限', '权限'],
  ['認證', '认证'],
  ['加密', '加密'],
  ['壓縮', '压缩'],
  ['序列化', '序列化'],
  ['設定檔', '配置文件'],
  ['容器', '容器'],
  ['叢集', '集群'],
  ['節點', '节点'],
  ['分片', '分片'],
  ['副本', '副本'],
  ['故障轉移', '故障转移'],
  ['測試', '测试'],
  ['基準測試', '基准测试'],
  ['效能', '性能'],
  ['重構', '重构'],
  ['架構', '架构'],
  ['介面', '接口'],
  ['相依套件', '依赖包'],
  ['版本', '版本'],
  ['發布', '发布'],
  ['熱修復', '热修复'],
  ['排程', '调度'],
  ['佇列', '队列'],
  ['執行緒', '线程'],
  ['冷啟動', '冷启动'],
  ['常駐程序', '守护进程'],
  ['檔案', '文件'],
  ['目錄', '目录'],
  ['文件', '文档'],
  ['摘要', '摘要'],
  ['會議', '会议'],
  ['需求', '需求'],
  ['風險', '风险'],
  ['預算', '预算'],
  ['時程', '进度'],
  ['里程碑', '里程碑'],
  ['使用者', '用户'],
  ['回饋', '反馈'],
  ['實驗', '实验'],
  ['模型', '模型'],
  ['量化', '量化'],
  ['召回率', '召回率'],
  ['準確率', '准确率'],
  ['重新排序', '重排序'],
  ['中文分詞', '中文分词'],
  ['全文檢索', '全文检索'],
  ['增量更新', '增量更新'],
  ['記憶檔', '记忆文件'],
]);
const ZH = {
  we: [
    ['我們', '我们'],
    ['團隊', '团队'],
    ['平台組', '平台组'],
    ['搜尋組', '搜索组'],
  ],
  decide: [
    ['決定', '决定'],
    ['同意', '同意'],
    ['計畫', '计划'],
    ['建議', '建议'],
    ['暫定', '暂定'],
  ],
  use: [
    ['改用', '改用'],
    ['導入', '引入'],
    ['停用', '停用'],
    ['升級', '升级'],
    ['拆分', '拆分'],
    ['合併', '合并'],
    ['重寫', '重写'],
    ['評估', '评估'],
  ],
  because: [
    ['因為', '因为'],
    ['由於', '由于'],
    ['考慮到', '考虑到'],
  ],
  found: [
    ['發現', '发现'],
    ['觀察到', '观察到'],
    ['量測顯示', '测量显示'],
    ['實驗證明', '实验证明'],
  ],
  problem: [
    ['明顯變慢', '明显变慢'],
    ['經常逾時', '经常超时'],
    ['佔用太多記憶體', '占用太多内存'],
    ['結果不穩定', '结果不稳定'],
    ['無法處理中文', '无法处理中文'],
    ['啟動時間翻倍', '启动时间翻倍'],
    ['索引損壞', '索引损坏'],
    ['測試不穩定', '测试不稳定'],
  ],
  so: [
    ['所以', '所以'],
    ['因此', '因此'],
    ['結論是', '结论是'],
  ],
  impact: [
    ['影響', '影响'],
    ['改善', '改善'],
    ['降低', '降低'],
    ['提高', '提高'],
  ],
  status: [
    ['已採納', '已采纳'],
    ['提議中', '提议中'],
    ['進行中', '进行中'],
    ['已取代', '已取代'],
    ['已否決', '已否决'],
    ['延後', '延后'],
  ],
  people: [
    ['王小明', '王小明'],
    ['陳怡君', '陈怡君'],
    ['李偉', '李伟'],
    ['張家豪', '张家豪'],
    ['劉洋', '刘洋'],
    ['林志成', '林志成'],
    ['黃淑芬', '黄淑芬'],
    ['吳建國', '吴建国'],
    ['周杰', '周杰'],
    ['趙敏', '赵敏'],
  ],
  filler: [
    ['這次', '这次'],
    ['在下個版本', '在下个版本'],
    ['先在預備環境', '先在预备环境'],
    ['在正式環境', '在正式环境'],
    ['暫時', '暂时'],
  ],
};

// ---------- sentence builders ----------
const tech = () => zpick(TECH);
const proj = () => zpick(PROJECTS);
const person = () => zpick(PEOPLE);
const num = () => (chance(0.5) ? int(2, 99) : int(100, 4000));
const metric = () => {
  const m = zpick(METRICS),
    u = METRIC_UNITS[m];
  return `${m} ${u === '%' ? int(1, 99) : num()}${u}`;
};
function cap(s) {
  return s[0].toUpperCase() + s.slice(1);
}

function enTitle() {
  switch (int(0, 5)) {
    case 0:
      return `${cap(zpick(VERBS))} ${tech()} for ${proj()}`;
    case 1:
      return `${cap(zpick(VERBS))} ${tech()} in favor of ${tech()}`;
    case 2:
      return `${proj()}: ${zpick(VERBS)} the ${tech()} ${tech()} path`;
    case 3:
      return `Keep ${tech()} behind a ${tech()} until ${proj()} ships`;
    case 4:
      return `${cap(tech())} ${zpick(METRICS)} budget for ${proj()}`;
    default:
      return `${cap(zpick(VERBS))} ${tech()} and ${zpick(VERBS)} ${tech()}`;
  }
}
function enWhy() {
  return (
    `${cap(pick(CONNECT))} ${tech()} ${zpick(PROBLEMS)} in ${proj()}, ${person()} flagged ${metric()} on the ${pick(TEAMS)} dashboard` +
    (chance(0.4) ? ` and the ${tech()} ${tech()} fallback ${zpick(PROBLEMS)}.` : '.')
  );
}
function enFinding() {
  return (
    `${cap(pick(SOURCES))} showed ${tech()} at ${metric()} versus ${metric()} for ${tech()}` +
    (chance(0.5) ? `; ${tech()} with ${tech()} ${zpick(PROBLEMS)}.` : ` on the ${proj()} corpus.`)
  );
}
function enConclusion() {
  return `We ${zpick(VERBS)} ${tech()} and ${zpick(VERBS)} ${tech()} ${chance(0.5) ? `until ${proj()} ${tech()} lands` : `for the ${pick(TEAMS)} team`}; owner ${person()}.`;
}
function enImpact() {
  return (
    `${proj()} ${zpick(METRICS)} ${chance(0.6) ? 'improves' : 'regresses'} by ${int(1, 80)}%, touches ${tech()} and ${pick(TEAMS)}` +
    (chance(0.3) ? `, see ${proj().slice(0, 3).toUpperCase()}-${int(100, 9999)}.` : '.')
  );
}

// zh: v = 0 Traditional, 1 Simplified
const z = (pair, v) => pair[v];
const zp = (list, v) => z(pick(list), v);
const zt = (v) => z(zpick(ZH_TERMS), v);
const sp = () => (chance(0.5) ? ' ' : ''); // code-switch spacing varies in real notes
function zhTitle(v) {
  return `${zp(ZH.decide, v)}${zp(ZH.use, v)}${sp()}${tech()}${sp()}${zt(v)}${zt(v)}（${proj()}）`;
}
function zhWhy(v) {
  return `${zp(ZH.because, v)}${zt(v)}${zp(ZH.problem, v)}，${zp(ZH.people, v)}${zp(ZH.found, v)}${sp()}${tech()}${sp()}的${zt(v)}${zp(ZH.problem, v)}，${metric()}。`;
}
function zhFinding(v) {
  return `${zp(ZH.found, v)}${sp()}${tech()}${sp()}在${proj()}的${zt(v)}上${zp(ZH.impact, v)}${zt(v)}約 ${int(2, 90)}%，而${zt(v)}與${zt(v)}沒有明顯差異。`
    .replace('約', v ? '约' : '約')
    .replace('與', v ? '与' : '與')
    .replace('沒有明顯差異', v ? '没有明显差异' : '沒有明顯差異');
}
function zhConclusion(v) {
  return `${zp(ZH.so, v)}${zp(ZH.we, v)}${zp(ZH.filler, v)}${zp(ZH.use, v)}${sp()}${tech()}${sp()}處理${zt(v)}，${zt(v)}的部分由${zp(ZH.people, v)}負責。`
    .replace('處理', v ? '处理' : '處理')
    .replace('負責', v ? '负责' : '負責');
}
function zhImpact(v) {
  return `${zp(ZH.impact, v)}${proj()}的${zt(v)}與${zt(v)}，${zpick(METRICS)} ${chance(0.6) ? '-' : '+'}${int(1, 80)}%。`.replace(
    '與',
    v ? '与' : '與',
  );
}

// ---------- file builders ----------
function fmtDate(d) {
  return d.toISOString().slice(0, 10);
}
let entryCount = 0,
  zhEntryCount = 0;
const recentDecisions = []; // feeds MEMORY.md

const KINDS = [
  ['Decision', 'DECISION'],
  ['Decision', 'DECISION'],
  ['Decision', 'DECISION'],
  ['Rule', 'RULE'],
  ['Architecture', 'ARCH'],
  ['Note', 'NOTE'],
  ['Preference', 'PREF'],
  ['Goal', 'GOAL'],
  ['Task', 'TASK'],
  ['Task', 'TASK'],
  ['Lesson', 'LESSON'],
];
const PREF_TOPICS = [
  'tools:package-manager',
  'code:indentation',
  'user:language',
  'user:tone',
  'tools:formatter',
  'tools:test-runner',
  'git:commit-style',
];
const TASK_STATES = ['todo', 'todo', 'doing', 'done', 'blocked'];
const lastByKey = new Map(); // scope + key -> id of the newest entry (a later one supersedes it)
function slug(t) {
  let s = t
    .toLowerCase()
    .replace(/[^a-z0-9\u3400-\u9fff]+/g, '-')
    .replace(/^-+|-+$/g, '');
  if (s.length > 60) {
    s = s.slice(0, 60);
    const i = s.lastIndexOf('-');
    if (i > 20) s = s.slice(0, i);
  }
  return s || 'entry';
}
const lastByProject = new Map(); // project -> recent ids of that project (for supersedes)
const hotItems = []; // [title, id, file, kind] for MEMORY.md
function keyFor(kind, project) {
  if (kind === 'Preference') return `pref:${pick(PREF_TOPICS)}`;
  if (kind === 'Goal' && chance(0.7)) return `goal:${project}:${slug(tech())}`;
  if (kind === 'Task') return `task:${project}:${slug(tech())}-${int(1, 30)}`;
  if (kind === 'Decision' && chance(0.3)) return `decision:${project}:${slug(tech())}`;
  return undefined;
}
function memfoldDaily(date) {
  const n = int(5, 40);
  const ymd = date.replaceAll('-', '');
  const out = [`# ${date}`, ''];
  const used = new Set();
  for (let i = 1; i <= n; i++) {
    entryCount++;
    const [kind, prefix] = pick(KINDS);
    const isZh = chance(zhRatio);
    const v = chance(0.5) ? 0 : 1;
    let title, why, finding, conclusion, impact;
    if (isZh) {
      zhEntryCount++;
      title = zhTitle(v);
      why = zhWhy(v);
      finding = zhFinding(v);
      conclusion = zhConclusion(v);
      impact = zhImpact(v);
    } else {
      title = enTitle();
      why = enWhy();
      finding = enFinding();
      conclusion = enConclusion();
      impact = enImpact();
    }
    let id = `${prefix}-${ymd}-${slug(title)}`;
    for (let k = 2; used.has(id); k++) id = `${prefix}-${ymd}-${slug(title)}-${k}`;
    used.add(id);
    const p = proj();
    const scope = chance(0.85) ? `project:${p.toLowerCase()}` : 'global';
    const sid = `${seed.toString(16)}-${ymd}-${String(int(1, 6))}`;
    const a = int(1, 400);
    const lines = [
      `## ${kind}: ${title}`,
      `- id: ${id}`,
      `- date: ${date}`,
      '- source:',
      `  - session_id: ${sid}`,
      `  - session_path: ~/.claude/projects/-home-dev-${p.toLowerCase()}/${sid}.jsonl`,
      `  - message_range: ${a}-${a + int(0, 6)}`,
    ];
    if (kind !== 'Note') lines.push(`- why: ${why}`, `- finding: ${finding}`);
    lines.push(`- conclusion: ${conclusion}`);
    if (kind !== 'Note') lines.push(`- impact: ${impact}`);
    lines.push(
      `- confidence: ${chance(0.8) ? '0.9' : '0.75'}`,
      `- origin: ${chance(0.85) ? 'user' : 'agent'}`,
      `- scope: ${scope}`,
    );
    const key = keyFor(kind, p.toLowerCase());
    if (key) lines.push(`- key: ${key}`);
    if (kind === 'Task') lines.push(`- state: ${pick(TASK_STATES)}`);
    lines.push('- status: active');
    const prev = lastByProject.get(p) || [];
    const sameKey = key && lastByKey.get(`${scope} ${key}`);
    if (sameKey) lines.push(`- supersedes: ${sameKey}`);
    else if (prev.length && chance(0.08)) lines.push(`- supersedes: ${prev[int(0, prev.length - 1)]}`);
    if (key) lastByKey.set(`${scope} ${key}`, id);
    prev.push(id);
    if (prev.length > 20) prev.shift();
    lastByProject.set(p, prev);
    out.push(...lines, '');
    if (chance(0.002) && hotItems.length < 150) hotItems.push([title, id, date, kind]);
  }
  return out.join('\n');
}
const WRAP_FIXED = [
  'Decisions made today',
  'Action items',
  'Important conversations',
  'Technical notes / debugging lessons',
  'Open loops',
  'Tomorrow next steps',
];
function memfoldWrapup(date) {
  const isZh = chance(zhRatio);
  const v = chance(0.5) ? 0 : 1;
  const out = [`# Wrap-up ${date}`, ''];
  for (const h of WRAP_FIXED) {
    out.push(`## ${h}`);
    const bullets = int(2, 6);
    for (let b = 0; b < bullets; b++)
      out.push(
        `- ${isZh ? [zhWhy, zhFinding, zhConclusion, zhImpact][int(0, 3)](v) : [enWhy, enFinding, enConclusion, enImpact][int(0, 3)]()}`,
      );
    out.push('');
  }
  return out.join('\n');
}
function memfoldMemoryMd() {
  const out = [
    '# MEMORY',
    '',
    'Hot memory for agent sessions, rebuilt by `mem compound` from `memory/`. Every item cites its entry id (`mem get <id>`).',
    '',
    '<!-- mem:pinned:start -->',
    '- Prefer boring technology; write the decision down before the code.',
    '<!-- mem:pinned:end -->',
    '',
  ];
  const anchor = (kind, title) =>
    `${kind}-${title}`
      .toLowerCase()
      .replace(/[^a-z0-9\u3400-\u9fff]+/g, '-')
      .replace(/^-+|-+$/g, '');
  const sect = (name, kinds) => {
    const items = hotItems.filter((h) => kinds.includes(h[3])).slice(0, 40);
    if (!items.length) return;
    out.push(`## ${name}`);
    for (const [title, id, date, kind] of items)
      out.push(`- ${title} ([${id}](memory/${date}.md#${anchor(kind, title)}))`);
    out.push('');
  };
  sect('Core rules', ['Rule']);
  sect('Active decisions', ['Decision', 'Architecture']);
  sect('Notes', ['Note']);
  out.push('## Where to look', '- Daily entries in `memory/`, wrap-ups in `second-brain/summaries/`.', '');
  return out.join('\n');
}

function dailyFile(date, dayIdx) {
  if (format === 'memfold') return memfoldDaily(date);
  const n = int(5, 40);
  const out = [`# ${date} decision log`, ''];
  if (chance(0.3)) out.push(`Focus today: ${proj()} ${tech()} work with ${person()}.`, '');
  for (let i = 1; i <= n; i++) {
    entryCount++;
    const id = `D-${date.replaceAll('-', '')}-${String(i).padStart(2, '0')}`;
    const isZh = chance(zhRatio);
    let title, why, finding, conclusion, impact, status;
    if (isZh) {
      zhEntryCount++;
      const v = chance(0.5) ? 0 : 1;
      title = zhTitle(v);
      why = zhWhy(v);
      finding = zhFinding(v);
      conclusion = zhConclusion(v);
      impact = zhImpact(v);
      status = zp(ZH.status, v);
    } else {
      title = enTitle();
      why = enWhy();
      finding = enFinding();
      conclusion = enConclusion();
      impact = enImpact();
      status = pick(STATUS);
    }
    out.push(
      `## Decision: ${title}`,
      '',
      `- id: ${id}`,
      `- date: ${date}`,
      `- why: ${why}`,
      `- finding: ${finding}`,
      `- conclusion: ${conclusion}`,
      `- impact: ${impact}`,
      `- status: ${status}`,
      '',
    );
    if (chance(0.002) && recentDecisions.length < 400) recentDecisions.push(`${id} ${title}`);
  }
  return out.join('\n');
}

const WRAP_SECTIONS_EN = ['Highlights', 'Decisions', 'Findings', 'Open Questions', 'Risks', 'Next Steps'];
const WRAP_SECTIONS_ZH = [
  ['重點', '重点'],
  ['決策', '决策'],
  ['發現', '发现'],
  ['待解問題', '待解问题'],
  ['風險', '风险'],
  ['下一步', '下一步'],
];
function wrapupFile(date) {
  if (format === 'memfold') return memfoldWrapup(date);
  const isZh = chance(zhRatio);
  const v = chance(0.5) ? 0 : 1;
  const out = [isZh ? `# ${date} ${v ? '每日总结' : '每日總結'}` : `# ${date} wrap-up`, ''];
  for (let s = 0; s < 6; s++) {
    out.push(`## ${isZh ? z(WRAP_SECTIONS_ZH[s], v) : WRAP_SECTIONS_EN[s]}`, '');
    const bullets = int(2, 6);
    for (let b = 0; b < bullets; b++) {
      let line;
      if (isZh) line = [zhWhy, zhFinding, zhConclusion, zhImpact][int(0, 3)](v);
      else line = [enWhy, enFinding, enConclusion, enImpact][int(0, 3)]();
      out.push(`- ${line}`);
    }
    out.push('');
  }
  return out.join('\n');
}

function memoryMd(firstDate, lastDate) {
  if (format === 'memfold') return memfoldMemoryMd();
  const out = ['# MEMORY', '', `Curated long-term memory. Covers ${firstDate} to ${lastDate}.`, '', '## Projects', ''];
  for (const p of PROJECTS) out.push(`- ${p}: ${tech()} + ${tech()} service owned by ${person()} (${pick(TEAMS)}).`);
  out.push('', '## People', '');
  for (const p of PEOPLE) out.push(`- ${p}: ${pick(TEAMS)}, prefers ${tech()} over ${tech()}.`);
  out.push('', '## Standing Decisions', '');
  for (const d of recentDecisions) out.push(`- ${d}`);
  out.push(
    '',
    '## Preferences',
    '',
    '- Prefer boring technology; write the decision down before the code.',
    '- Every decision entry keeps id/date/why/finding/conclusion/impact/status.',
    '',
    '## 中文筆記 / 中文笔记',
    '',
  );
  for (let i = 0; i < 12; i++) out.push(`- ${zhWhy(i % 2)}`);
  out.push('');
  return out.join('\n');
}

// ---------- main ----------
if (fs.existsSync(outDir) && fs.readdirSync(outDir).length && !force) {
  console.error(`${outDir} is not empty (use --force to overwrite)`);
  process.exit(2);
}
fs.mkdirSync(path.join(outDir, 'memory'), { recursive: true });
fs.mkdirSync(path.join(outDir, 'second-brain', 'summaries'), { recursive: true });

const nDaily = Math.round((totalFiles - 1) * 0.7);
const nWrap = totalFiles - 1 - nDaily;
const end = new Date(`${endDate}T00:00:00Z`);
const dates = [];
for (let i = nDaily - 1; i >= 0; i--) dates.push(fmtDate(new Date(end.getTime() - i * 86400000)));
// choose nWrap distinct days deterministically (stride with jitter-free modulo spread)
const wrapDays = new Set();
for (let k = 0; k < nWrap; k++) wrapDays.add(Math.floor(((k + 0.5) * nDaily) / nWrap));

let bytes = 0,
  files = 0;
const t0 = process.hrtime.bigint();
for (let i = 0; i < dates.length; i++) {
  const d = dates[i];
  const daily = dailyFile(d, i);
  fs.writeFileSync(path.join(outDir, 'memory', `${d}.md`), daily);
  bytes += Buffer.byteLength(daily);
  files++;
  if (wrapDays.has(i)) {
    const wr = wrapupFile(d);
    fs.writeFileSync(path.join(outDir, 'second-brain', 'summaries', `${d}-wrapup.md`), wr);
    bytes += Buffer.byteLength(wr);
    files++;
  }
}
const mem = memoryMd(dates[0], dates[dates.length - 1]);
fs.writeFileSync(path.join(outDir, 'MEMORY.md'), mem);
bytes += Buffer.byteLength(mem);
files++;
const ms = Number(process.hrtime.bigint() - t0) / 1e6;

console.log(
  JSON.stringify({
    size: sizeArg,
    seed,
    format,
    out: outDir,
    files,
    dailyFiles: nDaily,
    wrapupFiles: wrapDays.size,
    entries: entryCount,
    zhEntries: zhEntryCount,
    bytes,
    MB: +(bytes / 1048576).toFixed(1),
    firstDate: dates[0],
    lastDate: dates[dates.length - 1],
    genMs: Math.round(ms),
  }),
);
