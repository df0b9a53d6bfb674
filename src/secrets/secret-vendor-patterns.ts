/**
 * Vendor tokens with a fixed prefix (the first section of the secret table, secret-patterns.ts):
 * certain, so they come first and name the kind. This file holds the model providers, the clouds,
 * code hosts, chat and payment platforms; the developer services' documented prefixes follow in
 * secret-service-patterns.ts.
 */
import { afterNoWord, ARMOUR, DASH } from './secret-fragments.js';
import { DASHES } from './secret-values.js';
import { afterWordChar, byLabel, hasDigit, hasRandomRun, re, type SecretPattern } from './secret-pattern-kit.js';

const githubKind = byLabel(
  { ghp: 'github-pat', gho: 'github-oauth-token', ghu: 'github-user-token', ghs: 'github-app-token' },
  'github-refresh-token',
);

export const VENDOR_PATTERNS: readonly SecretPattern[] = [
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
      String.raw`(?:\baws\b|(?:AKIA|ASIA)[A-Z0-9]{16}|\bsecret|\bkey\b|密钥|秘钥)[^\r\n]{0,80}?(?<![\w/+.-])(?<v>[A-Za-z0-9/+]{40})(?![\w/+=-]|\.[\w/+=-])`,
      'i',
    ),
    check: (p) => /[a-z]/.test(p.value) && /[A-Z]/.test(p.value) && /[0-9/+]/.test(p.value),
  },
  { kinds: ['gcp-api-key'], re: re(String.raw`${afterNoWord('-')}AIza[\w${DASHES}]{35}(?![\w-])`) },
  {
    kinds: ['gcp-service-account-key'],
    re: re(String.raw`\\?"private_key\\?"[ \t]*:[ \t]*\\?"(?=${ARMOUR}BEGIN)(?<v>(?:[^"\\]|\\[^"]){20,16384})\\?"`),
  },
  {
    kinds: ['google-oauth-client-secret'],
    re: re(String.raw`${afterNoWord('-')}GOCSPX${DASH}[\w${DASHES}]{24,40}(?![\w-])`),
  },
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
    re: re(
      String.raw`${afterNoWord()}(?<label>gh[pousr])_(?<p1>[A-Za-z0-9]{4,35})(?:[ \t]{1,2}|\r?\n)(?<p2>[A-Za-z0-9]{1,32})(?![\w])`,
    ),
    check: (p) => {
      const body = p.m.groups!.p1! + p.m.groups!.p2!;
      return body.length === 36 && hasRandomRun(body) && githubKind(p);
    },
  },
  // Anywhere, as `gh*_` above; its body is base-62 runs joined by `_`, with a random run at least
  // (`github_pat_scopes_before_…` is a name).
  {
    kinds: ['github-fine-grained-pat'],
    re: re(String.raw`github_pat_\w{40,251}(?![\w])`),
    check: (p) => hasRandomRun(p.value),
  },
  {
    kinds: ['gitlab-token'],
    re: re(
      String.raw`${afterNoWord('-')}(?:gl(?:pat|ptt|rt|dt|oas|cbt|ft|imt|soat)${DASH}[\w${DASHES}]{20,}|GR1348941[\w${DASHES}]{20,})`,
    ),
  },
  {
    kinds: ['slack-token'],
    re: re(
      String.raw`${afterNoWord('-')}(?:xox[abposre]${DASH}[A-Za-z0-9${DASHES}]{10,250}|xapp${DASH}\d${DASH}[A-Za-z0-9${DASHES}]{10,250})`,
    ),
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
    re: re(
      String.raw`${afterNoWord('.')}dp\.(?:st|pt|ct|sa|scim|audit)\.(?:[\w${DASHES}]{2,35}\.)?[A-Za-z0-9]{40,44}(?![\w])`,
    ),
  },
  { kinds: ['linear-key'], re: re(String.raw`${afterNoWord()}lin_(?:api|oauth)_[A-Za-z0-9]{40}(?![\w])`) },
  {
    kinds: ['age-secret-key'],
    re: re(String.raw`AGE${DASH}SECRET${DASH}KEY${DASH}1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}`),
  },
];
