/**
 * Vendor tokens with a fixed prefix (the first section of the secret table, secret-patterns.ts):
 * certain, so they come first and name the kind.
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
  // Prefixes documented by each vendor (and matched the same way by gitleaks and trufflehog). A
  // body that may be a word (`napi_get_value…`, `glc_…`) must hold a random run as a token does.
  {
    kinds: ['vault-token'],
    // Service, batch and recovery tokens; a dev server's root token is 24 characters after the prefix.
    re: re(String.raw`${afterNoWord('.')}hv[sbr]\.[\w${DASHES}]{24,300}(?![\w${DASHES}])`),
    check: (p) => hasRandomRun(p.value),
  },
  {
    kinds: ['tavily-key'],
    re: re(String.raw`${afterNoWord('-')}tvly${DASH}(?:(?:dev|prod)${DASH})?[A-Za-z0-9]{20,40}(?![\w-])`),
    check: (p) => hasRandomRun(p.value),
  },
  { kinds: ['pinecone-key'], re: re(String.raw`${afterNoWord()}pcsk_[A-Za-z0-9]{4,10}_[A-Za-z0-9]{40,80}(?![\w])`) },
  { kinds: ['langsmith-key'], re: re(String.raw`${afterNoWord()}lsv2_(?:pt|sk)_[a-f0-9]{32}_[a-f0-9]{10}(?![\w])`) },
  { kinds: ['perplexity-key'], re: re(String.raw`${afterNoWord('-')}pplx${DASH}[A-Za-z0-9]{48}(?![\w-])`), check: hasDigit },
  {
    kinds: ['supabase-key'],
    // A management token (sbp_), or a secret API key: 22 characters, `_`, an 8-character checksum.
    re: re(String.raw`${afterNoWord()}(?:sbp_[a-f0-9]{40}|sb_secret_[\w${DASHES}]{22}_[A-Za-z0-9]{8})(?![\w${DASHES}])`),
    check: hasDigit,
  },
  { kinds: ['neon-key'], re: re(String.raw`${afterNoWord()}napi_[A-Za-z0-9]{32,128}(?![\w])`), check: (p) => hasRandomRun(p.value) },
  {
    kinds: ['planetscale-token'],
    re: re(String.raw`${afterNoWord()}pscale_(?:pw|tkn|oauth)_[\w=.${DASHES}]{32,64}(?![\w=${DASHES}])`),
    check: (p) => hasRandomRun(p.value),
  },
  {
    kinds: ['fly-token'],
    // The macaroon after `FlyV1 ` (fm2_…, parts joined by `,`), or a legacy fo1_ token.
    re: re(String.raw`${afterNoWord()}(?:fm(?:1[ar]|2)_[A-Za-z0-9+/]{100,4096}={0,3}|fo1_[\w${DASHES}]{43})(?![\w+/=${DASHES}])`),
    check: (p) => hasRandomRun(p.value),
  },
  {
    kinds: ['vercel-blob-token'],
    re: re(String.raw`${afterNoWord()}vercel_blob_rw_[A-Za-z0-9]{8,32}_[A-Za-z0-9]{20,64}(?![\w])`),
    check: (p) => hasRandomRun(p.value),
  },
  { kinds: ['netlify-token'], re: re(String.raw`${afterNoWord()}nfp_[A-Za-z0-9_]{36}(?![\w])`), check: (p) => hasRandomRun(p.value) },
  {
    kinds: ['atlassian-token', 'bitbucket-app-password'],
    // An API token (ATATT3…) or a Bitbucket app password (ATBB…), each ending in an 8-hex checksum.
    re: re(String.raw`(?<![\w])(?<label>ATATT3[\w=${DASHES}]{150,250}|ATBB[A-Za-z0-9]{16,60}[A-F0-9]{8})(?![\w=${DASHES}])`),
    check: (p) => hasRandomRun(p.value) && byLabel({ atbb: 'bitbucket-app-password' }, 'atlassian-token')(p),
  },
  {
    kinds: ['terraform-token'],
    re: re(String.raw`(?<![\w.])[A-Za-z0-9]{14}\.atlasv1\.[\w=${DASHES}]{60,70}(?![\w=${DASHES}])`),
    check: (p) => hasRandomRun(p.value),
  },
  { kinds: ['databricks-token'], re: re(String.raw`${afterNoWord()}dapi[a-f0-9]{32}(?:-\d)?(?![\w-])`), check: hasDigit },
  {
    kinds: ['notion-token'],
    // An integration token (ntn_ with 11 digits), or a legacy one: `secret_` and 43 base-62 characters.
    re: re(String.raw`${afterNoWord()}(?:ntn_\d{11}[A-Za-z0-9]{35}|secret_[A-Za-z0-9]{43})(?![\w])`),
    check: (p) => hasRandomRun(p.value),
  },
  // `r8_` is as short as `hf_` and stays word-bounded as it does.
  { kinds: ['replicate-token'], re: re(String.raw`(?<![\w])r8_[\w${DASHES}]{37}(?![\w${DASHES}])`), check: (p) => hasRandomRun(p.value) },
  {
    kinds: ['mapbox-secret-token'],
    re: re(String.raw`${afterNoWord(DASHES)}sk\.eyJ[\w${DASHES}]{20,300}\.[\w${DASHES}]{20,40}(?![\w${DASHES}])`),
  },
  {
    kinds: ['sentry-token'],
    // An organization token (base64 JSON claims, `_`, a 43-character secret), or a user token.
    re: re(String.raw`${afterNoWord()}(?:sntrys_eyJ[A-Za-z0-9+/]{20,600}={0,2}_[A-Za-z0-9+/]{43}|sntryu_[a-f0-9]{64})(?![\w+/])`),
  },
  {
    kinds: ['grafana-token'],
    re: re(String.raw`${afterNoWord()}(?:glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}|glc_[A-Za-z0-9+/]{32,400}={0,3})(?![\w+/=])`),
    check: (p) => hasRandomRun(p.value),
  },
  { kinds: ['postman-key'], re: re(String.raw`${afterNoWord()}PMAK${DASH}[a-fA-F0-9]{24}${DASH}[a-fA-F0-9]{34}(?![\w-])`) },
  // Okta sends its API token after the `SSWS` scheme; the scheme stays, so the header still reads.
  { kinds: ['okta-token'], re: re(String.raw`(?<![\w])SSWS[ \t]+(?<v>00[\w${DASHES}]{40})(?![\w${DASHES}])`) },
  { kinds: ['newrelic-key'], re: re(String.raw`${afterNoWord()}NRAK${DASH}[A-Za-z0-9]{27}(?![\w-])`), check: hasDigit },
  { kinds: ['dynatrace-token'], re: re(String.raw`${afterNoWord()}dt0c01\.[A-Za-z0-9]{24}\.[A-Za-z0-9]{64}(?![\w])`) },
  { kinds: ['figma-token'], re: re(String.raw`${afterNoWord()}fig[dp]_[\w${DASHES}]{40,54}(?![\w${DASHES}])`), check: (p) => hasRandomRun(p.value) },
  { kinds: ['contentful-token'], re: re(String.raw`${afterNoWord()}CFPAT${DASH}[\w${DASHES}]{43}(?![\w${DASHES}])`) },
  { kinds: ['pulumi-token'], re: re(String.raw`${afterNoWord('-')}pul${DASH}[a-f0-9]{40}(?![\w-])`), check: hasDigit },
  {
    kinds: ['sourcegraph-token'],
    re: re(String.raw`${afterNoWord()}sgp_(?:(?:[a-fA-F0-9]{16}|local)_)?[a-fA-F0-9]{40}(?![\w])`),
    check: hasDigit,
  },
  {
    kinds: ['resend-key'],
    // Base-58 in two parts; word-bounded like `hf_`, and with a digit, so `re_export_…` is a name.
    re: re(String.raw`(?<![\w])re_[1-9A-HJ-NP-Za-km-z]{8}_[1-9A-HJ-NP-Za-km-z]{24}(?![\w])`),
    check: hasDigit,
  },
  // 48 hex characters: no Stripe key (`sk_live_`, `sk_test_`) has that shape.
  { kinds: ['elevenlabs-key'], re: re(String.raw`${afterNoWord()}sk_[a-f0-9]{48}(?![\w])`), check: (p) => hasRandomRun(p.value) },
  { kinds: ['firecrawl-key'], re: re(String.raw`${afterNoWord('-')}fc${DASH}[a-f0-9]{32}(?![\w-])`), check: hasDigit },
  { kinds: ['paypal-token'], re: re(String.raw`access_token\$production\$[0-9a-z]{16}\$[0-9a-f]{32}(?![\w])`) },
  {
    kinds: ['square-token'],
    re: re(String.raw`(?<![\w+/=${DASHES}])(?:EAAA|sq0atp${DASH})[\w${DASHES}]{22,60}(?![\w+/=${DASHES}])`),
    check: (p) => hasRandomRun(p.value),
  },
];
