/**
 * The topic lexicon: the one place that says which subjects a statement's typed key may name
 * (DESIGN §5, issue 27). "use pnpm, not npm" and a later "switch back to npm" both speak of the
 * package manager, so both get `pref:tools:package-manager` (a Preference) or
 * `decision:<project>:package-manager` (a Decision), and the later one supersedes the earlier within
 * its scope. A statement naming no topic here gets no key: it links only through revision words,
 * never through a guessed key, because a wrong key silently replaces a live fact.
 *
 * Each topic lists its words in English, 简体 and 繁體. `global` marks a user-level topic (the
 * language of the conversation, its tone): a preference about it holds in every project.
 * Latin words match as whole words, case-insensitive; CJK words anywhere.
 */

export interface Topic {
  /** The key's last part: `package-manager`. */
  name: string;
  /** A Preference key's middle part: `pref:<category>:<name>`. */
  category: string;
  /** A user-level topic: a preference about it is `scope: global`. */
  global: boolean;
  /** Latin words and phrases (whole words). */
  en: string[];
  /** CJK words, 简体 and 繁體. */
  zh: string[];
}

export const TOPICS: readonly Topic[] = [
  {
    name: 'package-manager',
    category: 'tools',
    global: false,
    en: ['package manager', 'npm', 'pnpm', 'yarn', 'bun install', 'bun'],
    zh: ['包管理器', '包管理', '套件管理'],
  },
  {
    name: 'indentation',
    category: 'style',
    global: false,
    en: [
      'indentation',
      'indent',
      'indents',
      'tabs',
      '2-space',
      '4-space',
      'two spaces',
      'four spaces',
      '2 spaces',
      '4 spaces',
    ],
    zh: ['缩进', '縮進', '縮排'],
  },
  {
    name: 'language',
    category: 'conversation',
    global: true,
    en: ['in english', 'in chinese', 'in mandarin', 'reply in', 'answer in', 'respond in', 'conversation in'],
    zh: [
      '用中文',
      '用英文',
      '繁體中文',
      '繁体中文',
      '簡體中文',
      '简体中文',
      '说中文',
      '說中文',
      '讲中文',
      '講中文',
      '用英语',
      '用英語',
      '回复语言',
      '回覆語言',
      '对话语言',
      '對話語言',
    ],
  },
  {
    name: 'tone',
    category: 'conversation',
    global: true,
    en: [
      'tone',
      'formal',
      'casual',
      'terse',
      'verbose',
      'concise replies',
      'short answers',
      'answers short',
      'explanations brief',
      'replies short',
      'skip the preamble',
      'bullet points',
    ],
    zh: ['语气', '語氣', '口吻', '简洁', '簡潔'],
  },
  {
    name: 'notifications',
    category: 'conversation',
    global: true,
    en: [
      'compacting',
      'compaction',
      'compact context',
      'ping me',
      'send me a note',
      'notify me',
      'tell me before',
      'email me',
      'e-mail me',
      'message me',
      'text me',
      'slack me',
      'dm me',
    ],
    zh: [
      '压缩上下文',
      '壓縮上下文',
      '压缩对话',
      '壓縮對話',
      '通知我',
      '跟我说一声',
      '跟我說一聲',
      '告诉我一声',
      '告訴我一聲',
    ],
  },
  {
    name: 'deploy-target',
    category: 'infra',
    global: false,
    en: [
      'vercel',
      'netlify',
      'heroku',
      'fly.io',
      'render.com',
      'cloudflare pages',
      'cloudflare workers',
      'aws lambda',
      'deploy target',
      'deploy on',
      'deploy to',
      'host on',
    ],
    zh: ['部署到', '部署在', '部署平台'],
  },
  {
    name: 'database',
    category: 'data',
    global: false,
    en: [
      'database',
      'postgres',
      'postgresql',
      'mysql',
      'mariadb',
      'sqlite',
      'mongodb',
      'mongo',
      'dynamodb',
      'cockroachdb',
    ],
    zh: ['数据库', '數據庫', '資料庫'],
  },
  {
    name: 'test-runner',
    category: 'tools',
    global: false,
    en: ['test runner', 'jest', 'vitest', 'mocha', 'pytest', 'node:test', 'playwright', 'cypress'],
    zh: ['测试框架', '測試框架', '测试运行器', '測試執行器'],
  },
  {
    name: 'formatter',
    category: 'tools',
    global: false,
    en: ['formatter', 'prettier', 'black', 'gofmt', 'rustfmt', 'dprint'],
    zh: ['格式化工具', '代码格式化', '程式碼格式化'],
  },
  {
    name: 'linter',
    category: 'tools',
    global: false,
    en: ['linter', 'eslint', 'ruff', 'pylint', 'flake8', 'clippy', 'biome'],
    zh: ['代码检查', '程式碼檢查', '静态检查', '靜態檢查'],
  },
  {
    name: 'state-management',
    category: 'frontend',
    global: false,
    en: ['state management', 'redux', 'zustand', 'mobx', 'recoil', 'jotai', 'pinia', 'vuex'],
    zh: ['状态管理', '狀態管理'],
  },
  {
    name: 'framework',
    category: 'frontend',
    global: false,
    en: [
      'framework',
      'react',
      'vue',
      'svelte',
      'angular',
      'next.js',
      'nextjs',
      'nuxt',
      'django',
      'flask',
      'fastapi',
      'rails',
    ],
    zh: ['框架'],
  },
  {
    name: 'commit-style',
    category: 'git',
    global: false,
    en: ['commit message', 'commit messages', 'conventional commits', 'commit style'],
    zh: ['提交信息', '提交訊息', '提交说明', '提交說明', 'commit 信息'],
  },
  {
    name: 'branch-policy',
    category: 'git',
    global: false,
    en: [
      'push to main',
      'push to master',
      'push directly',
      'feature branch',
      'feature branches',
      'pull request',
      'pull requests',
      'branch protection',
    ],
    zh: ['分支', '直接推送', '合并请求', '合併請求'],
  },
];
