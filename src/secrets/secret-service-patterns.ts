/**
 * Vendor tokens with a documented prefix from developer services (secrets managers, databases,
 * hosting, observability, payments; the second part of the table's first section, after
 * secret-vendor-patterns.ts). Each prefix is the one the vendor documents, matched the same way
 * gitleaks and trufflehog match it. A body that may be a word (`napi_get_value…`, `glc_…`) must
 * hold a random run as a token does, or snake_case names in code would be redacted.
 */
import { afterNoWord, DASH } from './secret-fragments.js';
import { DASHES } from './secret-values.js';
import { byLabel, hasDigit, hasRandomRun, re, type SecretPattern } from './secret-pattern-kit.js';

export const SERVICE_PATTERNS: readonly SecretPattern[] = [
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
  {
    kinds: ['perplexity-key'],
    re: re(String.raw`${afterNoWord('-')}pplx${DASH}[A-Za-z0-9]{48}(?![\w-])`),
    check: hasDigit,
  },
  {
    kinds: ['supabase-key'],
    // A management token (sbp_), or a secret API key: 22 characters, `_`, an 8-character checksum.
    re: re(
      String.raw`${afterNoWord()}(?:sbp_[a-f0-9]{40}|sb_secret_[\w${DASHES}]{22}_[A-Za-z0-9]{8})(?![\w${DASHES}])`,
    ),
    check: hasDigit,
  },
  {
    kinds: ['neon-key'],
    re: re(String.raw`${afterNoWord()}napi_[A-Za-z0-9]{32,128}(?![\w])`),
    check: (p) => hasRandomRun(p.value),
  },
  {
    kinds: ['planetscale-token'],
    re: re(String.raw`${afterNoWord()}pscale_(?:pw|tkn|oauth)_[\w=.${DASHES}]{32,64}(?![\w=${DASHES}])`),
    check: (p) => hasRandomRun(p.value),
  },
  {
    kinds: ['fly-token'],
    // The macaroon after `FlyV1 ` (fm2_…, parts joined by `,`), or a legacy fo1_ token.
    re: re(
      String.raw`${afterNoWord()}(?:fm(?:1[ar]|2)_[A-Za-z0-9+/]{100,4096}={0,3}|fo1_[\w${DASHES}]{43})(?![\w+/=${DASHES}])`,
    ),
    check: (p) => hasRandomRun(p.value),
  },
  {
    kinds: ['vercel-blob-token'],
    re: re(String.raw`${afterNoWord()}vercel_blob_rw_[A-Za-z0-9]{8,32}_[A-Za-z0-9]{20,64}(?![\w])`),
    check: (p) => hasRandomRun(p.value),
  },
  {
    kinds: ['netlify-token'],
    re: re(String.raw`${afterNoWord()}nfp_[A-Za-z0-9_]{36}(?![\w])`),
    check: (p) => hasRandomRun(p.value),
  },
  {
    kinds: ['atlassian-token', 'bitbucket-app-password'],
    // An API token (ATATT3…) or a Bitbucket app password (ATBB…), each ending in an 8-hex checksum.
    re: re(
      String.raw`(?<![\w])(?<label>ATATT3[\w=${DASHES}]{150,250}|ATBB[A-Za-z0-9]{16,60}[A-F0-9]{8})(?![\w=${DASHES}])`,
    ),
    check: (p) => hasRandomRun(p.value) && byLabel({ atbb: 'bitbucket-app-password' }, 'atlassian-token')(p),
  },
  {
    kinds: ['terraform-token'],
    re: re(String.raw`(?<![\w.])[A-Za-z0-9]{14}\.atlasv1\.[\w=${DASHES}]{60,70}(?![\w=${DASHES}])`),
    check: (p) => hasRandomRun(p.value),
  },
  {
    kinds: ['databricks-token'],
    re: re(String.raw`${afterNoWord()}dapi[a-f0-9]{32}(?:-\d)?(?![\w-])`),
    check: hasDigit,
  },
  {
    kinds: ['notion-token'],
    // An integration token (ntn_ with 11 digits), or a legacy one: `secret_` and 43 base-62 characters.
    re: re(String.raw`${afterNoWord()}(?:ntn_\d{11}[A-Za-z0-9]{35}|secret_[A-Za-z0-9]{43})(?![\w])`),
    check: (p) => hasRandomRun(p.value),
  },
  // `r8_` is as short as `hf_` and stays word-bounded as it does.
  {
    kinds: ['replicate-token'],
    re: re(String.raw`(?<![\w])r8_[\w${DASHES}]{37}(?![\w${DASHES}])`),
    check: (p) => hasRandomRun(p.value),
  },
  {
    kinds: ['mapbox-secret-token'],
    re: re(String.raw`${afterNoWord(DASHES)}sk\.eyJ[\w${DASHES}]{20,300}\.[\w${DASHES}]{20,40}(?![\w${DASHES}])`),
  },
  {
    kinds: ['sentry-token'],
    // An organization token (base64 JSON claims, `_`, a 43-character secret), or a user token.
    re: re(
      String.raw`${afterNoWord()}(?:sntrys_eyJ[A-Za-z0-9+/]{20,600}={0,2}_[A-Za-z0-9+/]{43}|sntryu_[a-f0-9]{64})(?![\w+/])`,
    ),
  },
  {
    kinds: ['grafana-token'],
    re: re(
      String.raw`${afterNoWord()}(?:glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}|glc_[A-Za-z0-9+/]{32,400}={0,3})(?![\w+/=])`,
    ),
    check: (p) => hasRandomRun(p.value),
  },
  {
    kinds: ['postman-key'],
    re: re(String.raw`${afterNoWord()}PMAK${DASH}[a-fA-F0-9]{24}${DASH}[a-fA-F0-9]{34}(?![\w-])`),
  },
  // Okta sends its API token after the `SSWS` scheme; the scheme stays, so the header still reads.
  { kinds: ['okta-token'], re: re(String.raw`(?<![\w])SSWS[ \t]+(?<v>00[\w${DASHES}]{40})(?![\w${DASHES}])`) },
  { kinds: ['newrelic-key'], re: re(String.raw`${afterNoWord()}NRAK${DASH}[A-Za-z0-9]{27}(?![\w-])`), check: hasDigit },
  { kinds: ['dynatrace-token'], re: re(String.raw`${afterNoWord()}dt0c01\.[A-Za-z0-9]{24}\.[A-Za-z0-9]{64}(?![\w])`) },
  {
    kinds: ['figma-token'],
    re: re(String.raw`${afterNoWord()}fig[dp]_[\w${DASHES}]{40,54}(?![\w${DASHES}])`),
    check: (p) => hasRandomRun(p.value),
  },
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
  {
    kinds: ['elevenlabs-key'],
    re: re(String.raw`${afterNoWord()}sk_[a-f0-9]{48}(?![\w])`),
    check: (p) => hasRandomRun(p.value),
  },
  { kinds: ['firecrawl-key'], re: re(String.raw`${afterNoWord('-')}fc${DASH}[a-f0-9]{32}(?![\w-])`), check: hasDigit },
  { kinds: ['paypal-token'], re: re(String.raw`access_token\$production\$[0-9a-z]{16}\$[0-9a-f]{32}(?![\w])`) },
  {
    kinds: ['square-token'],
    re: re(String.raw`(?<![\w+/=${DASHES}])(?:EAAA|sq0atp${DASH})[\w${DASHES}]{22,60}(?![\w+/=${DASHES}])`),
    check: (p) => hasRandomRun(p.value),
  },
];
