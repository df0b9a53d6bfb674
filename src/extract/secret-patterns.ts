/**
 * The table of secret shapes that `secrets.ts` scans for (key names: secret-keys.ts; the value
 * heuristics of the labelled shapes: secret-values.ts; the regex fragments the shapes are built
 * from: secret-fragments.ts). Invariant 5 (DESIGN §9) depends on this table: a shape missing here
 * is a secret that reaches the memory folder or an LLM.
 *
 * Rules every pattern keeps (they are what makes redaction fast and idempotent):
 * - flags `gd`; the secret is the first participating named group whose name starts with `v`
 *   (`vq…` quoted content, `vl…` a quoted value still open at its bound, continued by
 *   LONG_QUOTE_TAILS, `vu…` unquoted and trimmed of trailing punctuation), else the whole match;
 * - every quantifier is bounded or followed by a class it cannot overlap, so a scan is linear in
 *   the input (no nested ambiguous repeats: a 1 MB transcript must not stall microsync);
 * - a bounded unquoted value has a `tail` of its own class, so an accepted value longer than the
 *   bound is removed whole ("my password is <300 characters>" must not leak its last 44);
 * - labels (keys, `Bearer`, `密码：`, `scheme://user:`) stay outside the secret group, so the
 *   redacted text still reads as a sentence.
 * Order is priority: when two shapes cover the same characters, the earlier one names the kind, so
 * vendor prefixes come before structural shapes, which come before labelled guesses.
 */
import {
  afterNoWord,
  ARMOUR,
  CJK_VALUE,
  COOKIE_CHAR,
  DASH,
  NUMBER_RANGE,
  PASS,
  PEM_BREAK,
  PEM_LABEL,
  PROSE,
  QUERY_CHAR,
  quotedValue,
  QUOTES,
  tailOf,
  UNQUOTED,
  VALUE,
} from './secret-fragments.js';
import { classifyKey, QUALIFIED_PASS } from './secret-keys.js';
import {
  acceptQuoted,
  acceptUnquoted,
  DASHES,
  isCodeExpression,
  isPlaceholder,
  isPlaceholderMatch,
  looksSecretish,
  strongEnough,
} from './secret-values.js';

export interface PatternMatch {
  m: RegExpExecArray;
  /** The secret as it will be replaced (trimmed when unquoted). */
  value: string;
  /** The value before trimming, to see how it ended (`pw)`, `x;`). */
  raw: string;
  /** Whether the value came from a quoted group. */
  quoted: boolean;
  /** Offset just past the untrimmed value, to look at what follows it. */
  rawEnd: number;
  text: string;
}

export interface SecretPattern {
  /** Every kind this pattern can report; the first is its default. */
  kinds: readonly [string, ...string[]];
  re: RegExp;
  /** false rejects the match; a string names its kind (one of `kinds`). */
  check?: (p: PatternMatch) => boolean | string;
  /**
   * Sticky regex for what continues an accepted unquoted value past the pattern's length bound. The bound
   * keeps rejected matches cheap on long runs (1 MB of base64); the tail keeps a long accepted
   * value from leaking its end.
   */
  tail?: RegExp;
}

const ASSIGNMENT_KINDS = ['password', 'secret', 'token', 'api-key', 'private-key'] as const;

function re(source: string, flags = ''): RegExp {
  return new RegExp(source, `gd${flags}`);
}

/** Prefixed tokens whose body mixes `-`/`_` must hold a long random run, so `sk-2024-notes-v2` is prose. */
function hasRandomRun(v: string): boolean {
  return /(?=[A-Za-z0-9]{16})(?=[A-Za-z0-9]{0,15}\d)(?=[A-Za-z0-9]{0,15}[A-Za-z])/.test(v);
}

/** Whether a letter or digit comes right before the match (it is glued to a word). */
function afterWordChar(p: PatternMatch): boolean {
  return /[A-Za-z0-9]/.test(p.m.input[p.m.index - 1] ?? '');
}

function hasDigit(p: PatternMatch): boolean {
  return /\d/.test(p.value);
}

function pemKind(p: PatternMatch): string {
  const type = p.m.groups?.type ?? '';
  if (/\bRSA\b/.test(type)) return 'rsa-private-key';
  if (/\bEC\b/.test(type)) return 'ec-private-key';
  if (/OPENSSH/.test(type)) return 'openssh-private-key';
  if (/PGP/.test(type)) return 'pgp-private-key';
  return 'private-key';
}

function decodesToCredentials(b64: string): boolean {
  const decoded = Buffer.from(b64, 'base64').toString('latin1');
  return /^[\x20-\x7e]+$/.test(decoded) && /^[^:]+:./.test(decoded);
}

const DATABASE_SCHEMES = /^(?:postgres(?:ql)?|mysql|mariadb|mongodb(?:\+srv)?|redis|rediss|amqps?|mssql|sqlserver|oracle|cockroachdb|clickhouse|couchdb|neo4j(?:\+s)?|jdbc:[a-z]+)$/i;

function byLabel(table: Record<string, string>, fallback: string) {
  return (p: PatternMatch): string => {
    const label = (p.m.groups?.label ?? '').toLowerCase();
    for (const [prefix, kind] of Object.entries(table)) if (label.startsWith(prefix)) return kind;
    return fallback;
  };
}


const githubKind = byLabel(
  { ghp: 'github-pat', gho: 'github-oauth-token', ghu: 'github-user-token', ghs: 'github-app-token' },
  'github-refresh-token',
);

// ---------------------------------------------------------------------------------------------

export const SECRET_PATTERNS: readonly SecretPattern[] = [
  // --- Vendor tokens with a fixed prefix: certain, so they go first and name the kind. A prefix
  // may follow `_` (afterNoWord: `fetch_sk-proj-…` is a token), GitHub's anything; `hf_`, `SK` and
  // `SG.` stay word-bounded, short enough to sit inside snake_case names (`load_hf_AutoModel…`).
  { kinds: ['anthropic-key'], re: re(String.raw`${afterNoWord('-')}sk${DASH}ant${DASH}[\w${DASHES}]{20,}`) },
  { kinds: ['openrouter-key'], re: re(String.raw`${afterNoWord('-')}sk${DASH}or${DASH}v1${DASH}[a-f0-9]{32,}`) },
  {
    kinds: ['openai-key'],
    // sk-proj-, sk-svcacct-, sk-admin-, legacy sk-…T3BlbkFJ…, and OpenAI-compatible sk-<hex> keys.
    re: re(String.raw`${afterNoWord(DASHES)}sk${DASH}[\w${DASHES}]{20,}`),
    check: (p) => hasRandomRun(p.value),
  },
  { kinds: ['groq-key'], re: re(String.raw`${afterNoWord('-')}gsk_[A-Za-z0-9]{40,60}(?![\w-])`) },
  { kinds: ['xai-key'], re: re(String.raw`${afterNoWord('-')}xai${DASH}[A-Za-z0-9]{60,100}(?![\w-])`) },
  {
    kinds: ['aws-access-key-id'],
    re: re(String.raw`(?<![A-Za-z0-9])(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z0-9]{16}(?![A-Za-z0-9])`),
  },
  {
    kinds: ['alibaba-access-key-id'],
    re: re(String.raw`(?<![A-Za-z0-9])LTAI[A-Za-z0-9]{12,28}(?![A-Za-z0-9])`),
    check: hasDigit,
  },
  {
    kinds: ['aws-secret-access-key'],
    re: re(
      String.raw`(?:aws[\w .-]{0,24}?secret[\w .-]{0,24}?|secret[_.-]?access[_.-]?key)["']?[ \t]*(?::=|=>|[:=]|\|)[ \t]*["']?(?<v>[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])`,
      'i',
    ),
  },
  {
    // An AWS secret said in words: "aws secret key wJalr…", "AKIA… with secret wJalr…", "rotate the
    // key wJalr…". 40 base64 characters after such a word on the same line, mixing cases and digits
    // or `/`/`+` as random bytes do (a git SHA is lowercase hex).
    kinds: ['aws-secret-access-key'],
    re: re(
      String.raw`(?:\baws\b|(?:AKIA|ASIA)[A-Z0-9]{16}|\bsecret|\bkey\b|密钥|秘钥)[^\r\n]{0,80}?(?<![\w/+.-])(?<v>[A-Za-z0-9/+]{40})(?![\w/+=.-])`,
      'i',
    ),
    check: (p) => /[a-z]/.test(p.value) && /[A-Z]/.test(p.value) && /[0-9/+]/.test(p.value),
  },
  { kinds: ['gcp-api-key'], re: re(String.raw`${afterNoWord('-')}AIza[\w${DASHES}]{35}(?![\w-])`) },
  {
    kinds: ['gcp-service-account-key'],
    re: re(String.raw`\\?"private_key\\?"[ \t]*:[ \t]*\\?"(?=${ARMOUR}BEGIN)(?<v>(?:[^"\\]|\\[^"]){20,16384})\\?"`),
  },
  { kinds: ['google-oauth-client-secret'], re: re(String.raw`${afterNoWord('-')}GOCSPX${DASH}[\w${DASHES}]{24,40}(?![\w-])`) },
  {
    kinds: ['google-oauth-token'],
    re: re(String.raw`${afterNoWord('-')}ya29\.[\w${DASHES}]{20,}`),
    check: hasDigit,
  },
  {
    kinds: ['azure-storage-key', 'azure-shared-access-key'],
    re: re(String.raw`(?<![\w])(?<label>AccountKey|SharedAccessKey)[ \t]*=[ \t]*(?<v>[A-Za-z0-9+/]{20,}={0,2})`),
    check: byLabel({ shared: 'azure-shared-access-key' }, 'azure-storage-key'),
  },
  {
    kinds: ['github-pat', 'github-oauth-token', 'github-user-token', 'github-app-token', 'github-refresh-token'],
    // `fetch_ghp_…` and `abcghp_…` are tokens too; after a letter or digit (`weighs_TotalShipment…`
    // is a word) only with a random run, as a real token's 36 base-62 characters hold.
    re: re(String.raw`(?<label>gh[pousr])_(?<body>[A-Za-z0-9]{36,251})(?![\w])`),
    check: (p) => (!afterWordChar(p) || hasRandomRun(p.m.groups!.body!)) && githubKind(p),
  },
  {
    kinds: ['github-pat', 'github-oauth-token', 'github-user-token', 'github-app-token', 'github-refresh-token'],
    // A classic token (36 characters after the prefix) broken once by a line break or a space or two, as a wrapped terminal line pastes it.
    re: re(String.raw`${afterNoWord()}(?<label>gh[pousr])_(?<p1>[A-Za-z0-9]{4,35})(?:[ \t]{1,2}|\r?\n)(?<p2>[A-Za-z0-9]{1,32})(?![\w])`),
    check: (p) => {
      const body = p.m.groups!.p1! + p.m.groups!.p2!;
      return body.length === 36 && hasRandomRun(body) && githubKind(p);
    },
  },
  // Anywhere, as `gh*_` above; its body is base-62 runs joined by `_`, with a random run at least
  // (`github_pat_scopes_before_…` is a name).
  { kinds: ['github-fine-grained-pat'], re: re(String.raw`github_pat_\w{40,251}(?![\w])`), check: (p) => hasRandomRun(p.value) },
  {
    kinds: ['gitlab-token'],
    re: re(String.raw`${afterNoWord('-')}(?:gl(?:pat|ptt|rt|dt|oas|cbt|ft|imt|soat)${DASH}[\w${DASHES}]{20,}|GR1348941[\w${DASHES}]{20,})`),
  },
  {
    kinds: ['slack-token'],
    re: re(String.raw`${afterNoWord('-')}(?:xox[abposre]${DASH}[A-Za-z0-9${DASHES}]{10,250}|xapp${DASH}\d${DASH}[A-Za-z0-9${DASHES}]{10,250})`),
    check: hasDigit,
  },
  {
    kinds: ['slack-webhook'],
    re: re(String.raw`hooks\.slack\.com/(?:services|workflows|triggers)/(?<v>[A-Za-z0-9/_${DASHES}]{20,})`),
  },
  {
    kinds: ['stripe-secret-key', 'stripe-restricted-key'],
    re: re(String.raw`${afterNoWord()}(?<label>sk|rk)_(?:live|test)_[A-Za-z0-9]{16,247}(?![\w])`),
    check: byLabel({ rk: 'stripe-restricted-key' }, 'stripe-secret-key'),
  },
  { kinds: ['stripe-webhook-secret'], re: re(String.raw`${afterNoWord()}whsec_[A-Za-z0-9+/=]{24,}`) },
  { kinds: ['twilio-api-key'], re: re(String.raw`(?<![\w])SK[0-9a-fA-F]{32}(?![\w])`) },
  {
    kinds: ['sendgrid-key'],
    re: re(String.raw`(?<![\w.-])SG\.[\w${DASHES}]{16,32}\.[\w${DASHES}]{30,64}(?![\w-])`),
  },
  { kinds: ['npm-token'], re: re(String.raw`${afterNoWord()}npm_[A-Za-z0-9]{36}(?![\w])`) },
  { kinds: ['pypi-token'], re: re(String.raw`${afterNoWord('-')}pypi${DASH}AgE[\w${DASHES}]{50,}`) },
  { kinds: ['huggingface-token'], re: re(String.raw`(?<![\w])hf_[A-Za-z0-9]{30,40}(?![\w])`) },
  {
    kinds: ['discord-bot-token'],
    re: re(String.raw`(?<![\w.-])[MNO][\w${DASHES}]{23,27}\.[\w${DASHES}]{6}\.[\w${DASHES}]{27,40}(?![\w.-])`),
    check: hasDigit,
  },
  {
    kinds: ['discord-webhook'],
    re: re(String.raw`discord(?:app)?\.com/api/webhooks/\d{5,30}/(?<v>[\w${DASHES}]{40,})`),
  },
  { kinds: ['telegram-bot-token'], re: re(String.raw`(?<![\d:])\d{6,12}:AA[\w${DASHES}]{30,40}(?![\w-])`) },
  { kinds: ['shopify-token'], re: re(String.raw`${afterNoWord()}shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}(?![\w])`) },
  { kinds: ['digitalocean-token'], re: re(String.raw`${afterNoWord()}do[opr]_v1_[a-f0-9]{64}(?![\w])`) },
  {
    kinds: ['doppler-token'],
    // Doppler service (dp.st.<config>.…), personal, CLI, service-account, SCIM and audit tokens.
    re: re(String.raw`${afterNoWord('.')}dp\.(?:st|pt|ct|sa|scim|audit)\.(?:[\w${DASHES}]{2,35}\.)?[A-Za-z0-9]{40,44}(?![\w])`),
  },
  { kinds: ['linear-key'], re: re(String.raw`${afterNoWord()}lin_(?:api|oauth)_[A-Za-z0-9]{40}(?![\w])`) },
  { kinds: ['age-secret-key'], re: re(String.raw`AGE${DASH}SECRET${DASH}KEY${DASH}1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}`) },

  // --- Structural shapes: whole blocks and self-describing tokens.
  {
    kinds: ['private-key', 'rsa-private-key', 'ec-private-key', 'openssh-private-key', 'pgp-private-key'],
    // The whole block, BEGIN to END. A block cut short (a truncated tool output) is still removed
    // up to where its base64 lines stop, because the missing END does not make the rest public.
    re: re(
      String.raw`${ARMOUR}BEGIN ${PEM_LABEL}(?:${PEM_BREAK}+(?:[A-Za-z][\w${DASHES}]{0,40}:[^\r\n\\]{0,200}|[A-Za-z0-9+/=]+))*(?:${PEM_BREAK}*${ARMOUR}END [ A-Z0-9]{0,40}?PRIVATE KEY(?: BLOCK)?${ARMOUR})?`,
    ),
    check: pemKind,
  },
  {
    kinds: ['private-key'],
    // A PEM block base64-encoded again, as in Kubernetes secrets and kubeconfig `client-key-data`.
    re: re(String.raw`(?<![A-Za-z0-9+/])LS0tLS1CRUdJTi[A-Za-z0-9+/]{20,}={0,2}`),
    check: (p) => /PRIVATE KEY/.test(Buffer.from(p.value.slice(0, 80), 'base64').toString('latin1')),
  },
  {
    kinds: ['jwt'],
    re: re(String.raw`(?<![\w-])eyJ[\w${DASHES}]{8,}\.eyJ[\w${DASHES}]{8,}\.[\w${DASHES}]{10,}`),
  },

  // --- Credentials inside URLs and HTTP.
  {
    kinds: ['url-password', 'database-password'],
    // scheme://user:pass@host keeps scheme, user and host. The password may hold a raw `@`: the
    // last `@` before the path ends it.
    re: re(
      String.raw`(?<![\w+.-])(?<scheme>(?:jdbc:)?[A-Za-z][A-Za-z0-9+.-]{1,30})://[^\s:/?#@"'<>\x60]{0,256}:(?<v>[^\s/?#"'<>\x60]{1,512})@(?=[\w\[])`,
    ),
    check: (p) => {
      if (isPlaceholder(p.value) || /^\d{1,5}$/.test(p.value)) return false;
      return DATABASE_SCHEMES.test(p.m.groups?.scheme ?? '') ? 'database-password' : 'url-password';
    },
  },
  {
    kinds: ['password'],
    // curl -u user:pass, --user user:pass (not docker's -u 1000:1000); dashes as for flags below
    re: re(String.raw`(?<![\w${DASHES}])(?:${DASH}u|${DASH}{1,2}user)[ \t]+["']?[^\s:"']{1,256}:(?<vu>[^\s"']+)`),
    check: (p) => !isPlaceholderMatch(p) && !/^\d+$/.test(p.value),
  },
  {
    kinds: ['azure-sas-signature', 'password', 'secret', 'token', 'api-key', 'private-key'],
    // ?access_token=…&sig=… : the parameter name decides, the value ends at & or #.
    re: re(String.raw`[?&;](?<key>[A-Za-z_][\w.-]{0,40})=(?<v>${QUERY_CHAR}{1,4096})`),
    check: (p) => {
      const key = p.m.groups?.key ?? '';
      const kind = /^(?:sig|signature)$/i.test(key) ? 'azure-sas-signature' : classifyKey(key);
      if (kind === null || isPlaceholderMatch(p) || isCodeExpression(p.value)) return false;
      return strongEnough(p.value, kind) && kind;
    },
    tail: tailOf(QUERY_CHAR),
  },
  {
    kinds: ['bearer-token'],
    // `Bearer <token>` anywhere; `Token`/`Bot` schemes only after an Authorization label, since
    // "token" and "bot" are ordinary words.
    re: re(
      String.raw`(?:\bBearer|\bAuthorization["']?[ \t]*[:=][ \t]*["']?(?:Token|Bot))[ \t]+(?<vu>[A-Za-z0-9._~+/-]{16,}=*)`,
      'i',
    ),
    check: (p) => /\d/.test(p.value) || (p.value.length >= 24 && /[a-z]/.test(p.value) && /[A-Z]/.test(p.value)),
  },
  {
    kinds: ['basic-auth'],
    re: re(String.raw`\bBasic[ \t]+(?<v>[A-Za-z0-9+/]{6,}={0,2})(?![A-Za-z0-9+/=])`, 'i'),
    check: (p) => decodesToCredentials(p.value),
  },
  {
    kinds: ['basic-auth'],
    // ~/.docker/config.json `"auth": "<base64 user:pass>"`, .npmrc `_auth=<base64>`
    re: re(String.raw`(?<![\w-])["']?_?auth["']?[ \t]*[:=][ \t]*["']?(?<v>[A-Za-z0-9+/]{8,}={0,2})(?![A-Za-z0-9+/=])`),
    check: (p) => decodesToCredentials(p.value),
  },
  {
    kinds: ['cookie'],
    re: re(String.raw`(?<![\w-])(?:Set-)?Cookie[ \t]*:[ \t]*(?<vu>${COOKIE_CHAR}{6,4096})`, 'i'),
    check: (p) => /[\w-]+=[^\s;]{6,}/.test(p.value),
    tail: tailOf(COOKIE_CHAR),
  },

  // --- Labelled values: KEY=value, "key": "value", key: value, --key value, and their relatives.
  {
    kinds: [...ASSIGNMENT_KINDS],
    re: re(
      String.raw`(?<![\w.&?/@-])(?<kq>\\?["'])?(?<key>[A-Za-z_][\w.-]{0,63})\k<kq>(?<sep>[ \t]*(?::=|=>|:(?![:/])|=(?!=)|：)[ \t]*)${VALUE}`,
    ),
    check: (p) => {
      const key = p.m.groups?.key ?? '';
      const kind = classifyKey(key);
      if (kind === null) return false;
      const ok = p.quoted ? acceptQuoted(p.value, key, kind) : acceptUnquoted(p, key, p.m.groups?.sep ?? '');
      return ok && strongEnough(p.value, kind) && kind;
    },
    tail: UNQUOTED.tail,
  },
  {
    kinds: [...ASSIGNMENT_KINDS],
    // CLI flags: --password hunter2, --api-key=…, --token "…". Smart typography makes `--` an en
    // or em dash (–password x, —token x), so a flag opens with one or two of any DASHES.
    re: re(String.raw`(?<![\w${DASHES}])${DASH}{1,2}(?<key>[A-Za-z][\w${DASHES}]{1,40})(?:=|[ \t]+)(?![${DASHES}$])${VALUE}`),
    check: (p) => {
      const key = p.m.groups?.key ?? '';
      const kind = classifyKey(key);
      if (kind === null) return false;
      const ok = p.quoted ? acceptQuoted(p.value, key, kind) : acceptUnquoted(p, key, '=');
      return ok && strongEnough(p.value, kind) && kind;
    },
    tail: UNQUOTED.tail,
  },
  {
    kinds: ['password'],
    // mysql -uroot -phunter2 (the password glued to -p); sshpass -p 'x'
    re: re(
      String.raw`[ \t]-p(?<=\b(?:mysql|mysqldump|mysqladmin|mariadb|sshpass)\b[^\r\n]{0,200}-p)[ \t]*(?:${quotedValue(QUOTES.single, QUOTES.double)}|(?<vu>[^\s'"-][^\s'"]*))`,
    ),
    check: (p) => !isPlaceholderMatch(p),
  },
  {
    kinds: ['password'],
    // redis-cli -a hunter2
    re: re(String.raw`[ \t]-a(?<=\bredis-cli\b[^\r\n]{0,200}-a)[ \t]+(?:${quotedValue(QUOTES.single, QUOTES.double)}|(?<vu>[^\s'"-][^\s'"]*))`),
    check: (p) => !isPlaceholderMatch(p),
  },
  {
    kinds: ['password'],
    // ~/.netrc: machine host login user password hunter2
    re: re(String.raw`\bmachine[ \t]+\S+(?:[ \t]+login[ \t]+\S+)?[ \t]+password[ \t]+(?<vu>\S+)`),
    check: (p) => !isPlaceholderMatch(p),
  },
  {
    kinds: ['password', 'token', 'secret'],
    // 密码：hunter2 / 密碼: 'x' / 令牌是 abc… (full-width or ASCII colon, or 是/为). The value is an
    // ASCII run or a quoted string: Chinese text after the label is prose ("密码：请找运维").
    re: re(
      String.raw`(?<label>密码|密碼|口令|访问令牌|訪問令牌|令牌|密钥|密鑰|金鑰|金钥|秘钥|秘鑰|私钥|私鑰|パスワード|비밀번호)[ \t]*(?<sep>(?:是|为|為)[ \t]*[:：]?|[:：=]|(?=[ \t]))[ \t]*(?:${quotedValue(QUOTES.corner, QUOTES.curly, QUOTES.escaped, QUOTES.double, QUOTES.single, QUOTES.backtick)}|(?<vu>${CJK_VALUE.char}{1,512}))`,
    ),
    check: (p) => {
      if (isPlaceholderMatch(p)) return false;
      const sep = p.m.groups?.sep ?? '';
      if (!p.quoted && p.value.length < 4) return false; // "密码：6 位数字" states a rule
      // "密码：8-16位" is a length: a number run straight into Chinese text.
      if (NUMBER_RANGE.test(p.value) && /^[\u3400-\u9fff]/.test(p.text.charAt(p.rawEnd))) return false;
      // Without a colon the value must look chosen: "密码 Abc@123456", not "密码 MD5 加密".
      if (sep === '' && !looksSecretish(p.value)) return false;
      const label = p.m.groups?.label ?? '';
      if (/令牌/.test(label)) return 'token';
      return /密码|密碼|口令|パスワード|비밀번호/.test(label) ? 'password' : 'secret';
    },
    tail: CJK_VALUE.tail,
  },
  {
    kinds: ['password'],
    // "ssh pass = x", "wifi pw=x": the words, not a key, so the assignment shapes above miss it.
    re: re(String.raw`\b(?<label>${QUALIFIED_PASS})[ \t]*=[ \t]*(?:${quotedValue(QUOTES.escaped, QUOTES.double, QUOTES.single)}|(?<vu>${PASS.char}{1,256}))`, 'i'),
    check: (p) => (p.quoted ? p.value.length >= 4 && !isPlaceholder(p.value) : looksSecretish(p.value)),
    tail: PASS.tail,
  },
  {
    kinds: ['password', 'secret', 'token', 'api-key'],
    // Prose: "the staging password is hunter2!", "ssh pass is x", "API key for prod was `abc123…`", "Password for
    // wifi: x", "set the password to x". Unquoted values must look chosen or random, so "the
    // password is rotated weekly" stays.
    re: re(
      String.raw`\b(?<label>passwords?|passphrase|passwd|pwd|pin|${QUALIFIED_PASS}|secret(?:[ _-]key)?|api[ _-]?key|access[ _-]?token|token)\b(?:[ \t]+(?:for|of|on|to|in)(?:[ \t]+[\w.@-]{1,40}){1,3}?)?(?:[ \t]+(?:is|was|are|to)[ \t]*:?[ \t]+|[ \t]*:[ \t]*)(?:now[ \t]+|still[ \t]+|just[ \t]+|set[ \t]+to[ \t]+)?(?:${quotedValue(QUOTES.escaped, QUOTES.double, QUOTES.single, QUOTES.backtick)}|(?<vu>${PROSE.char}{1,256}))`,
      'i',
    ),
    check: (p) => {
      if (p.quoted ? !acceptQuoted(p.value, '', 'password') || p.value.length < 4 : !looksSecretish(p.value)) return false;
      if (/(?:pass|pw)$/i.test(p.m.groups?.label ?? '')) return 'password';
      return byLabel({ pass: 'password', pwd: 'password', pin: 'password', secret: 'secret', api: 'api-key' }, 'token')(p);
    },
    tail: PROSE.tail,
  },
  {
    kinds: ['password'],
    // "the wifi password is correcthorsebatterystaple": after an owner ("wifi", "my", "admin"), one
    // word of 8+ letters is the password whatever it looks like, unless it is a word that describes
    // one ("…is required", "…is incorrect") or a determiner stands for the owner ("the password is…").
    re: re(String.raw`\b(?<owner>[A-Za-z][\w-]{0,30})[ \t]+(?:password|passphrase|passwd)[ \t]+(?:is|was)[ \t]+(?:now[ \t]+|still[ \t]+|just[ \t]+)?(?<vu>[A-Za-z][A-Za-z_-]{6,254}[A-Za-z])(?![\w@#$%^&*+=~/\\.-]*\w)`, 'i'),
    check: (p) => {
      const owner = (p.m.groups?.owner ?? '').toLowerCase();
      const word = p.value.toLowerCase();
      if (NOT_OWNERS.has(owner) || DESCRIBES_PASSWORD.has(word) || /(?:ed|ing|ly|able|ible|tion|sion)$/.test(word)) return false;
      return !isPlaceholder(p.value);
    },
  },
];

/** Words before "password" that do not say whose it is. */
const NOT_OWNERS = new Set(['the', 'a', 'an', 'this', 'that', 'these', 'those', 'which', 'what', 'whose', 'no', 'any', 'some', 'each', 'every', 'if', 'and', 'or', 'is', 'was']);
/** Words that say something about a password rather than being one ("the wifi password is required"). */
const DESCRIBES_PASSWORD = new Set(
  `required incorrect invalid reset expired wrong set changed missing optional mandatory different correct
  something anything nothing somewhere elsewhere unknown insecure secure strong weak visible hidden blank
  empty sensitive necessary available unchanged obsolete temporary permanent default disabled enabled
  ignored mismatch mismatched generated encrypted hashed rotated stored shared documented configured
  specified provided accepted rejected verified validated printed updated compromised leaked`.split(/\s+/),
);

/** Every kind a marker can name, in table order. */
export const SECRET_KINDS: readonly string[] = [...new Set(SECRET_PATTERNS.flatMap((p) => p.kinds))];
