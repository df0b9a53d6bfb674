/**
 * Key names (secret-patterns.ts and its sections): which `KEY=` / `"key":` / `--key` labels announce a secret, and of
 * what kind. `DB_PASSWORD` and `stripeSecretKey` do; `cacheKey`, `getToken` and `PRIMARY_KEY` do not.
 */

/** Suffixes that keep the meaning of the word before them: SECRET_KEY_BASE, PASSWORD_B64. */
const NEUTRAL_SUFFIXES = new Set(
  'value val str raw plain plaintext b64 base64 hex base enc encrypted data literal text'.split(' '),
);
/**
 * `<x>_key` is a secret only for these x. In code, `fooKey` is usually a map key (`cacheKey`,
 * `propertyKey`, `baseKey: CryptoKey`), so an allowlist beats a denylist here.
 */
const SECRET_KEY_QUALIFIERS = new Set(
  `api access private signing sign encryption encrypt master client app application license licence
  service account webhook admin auth consumer subscription storage shared deploy hmac session jwt aes
  root x openai anthropic claude gemini google gcp azure aws stripe github gitlab slack twilio sendgrid
  mailgun deepseek moonshot kimi dashscope qwen zhipu groq mistral cohere hf huggingface pinecone
  supabase firebase algolia mapbox sentry datadog dd openrouter replicate together fireworks perplexity
  xai elevenlabs resend postmark brevo mailchimp posthog cloudflare cf vercel netlify heroku linear
  notion airtable shopify paypal plaid twitter facebook fb telegram discord serpapi tavily exa brave
  bing baidu tencent aliyun alibaba volcengine ark`.split(/\s+/),
);
/** `CACHE_KEY`, `PRIMARY_KEY`: constant names in code that end in KEY and hold no secret. */
const NON_SECRET_KEY_QUALIFIERS = new Set(
  `primary foreign sort cache partition map hot public pub object s3 idempotency dedupe dedup unique
  lookup row redis kv registry translation i18n react list item index hash composite range group shard
  host shortcut hotkey route label field column table dict query state store event message config
  setting settings feature flag meta id ssh gpg pgp local session_storage`.split(/\s+/),
);
/** `getToken`, `setPassword`, `validateApiKey`: functions about secrets, not secrets. */
const VERB_PREFIXES = new Set(
  `get set fetch load create generate refresh validate verify parse read write is has should use with
  reset update remove delete check handle on make build resolve encode decode hash compare find save
  store rotate revoke issue mint sign`.split(/\s+/),
);

export function splitKey(key: string): string[] {
  return key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((t) => t !== '');
}

/**
 * `pass` and `pw` name a password only after what it opens ("ssh pass is x"): alone they are test
 * output (`--- PASS: TestX`) and prose ("the lint pass is eslint@9").
 */
const PASS_OWNERS =
  'ssh|sudo|root|admin|db|database|mysql|postgres|redis|wifi|wi-fi|vpn|login|user|account|server|host|ftp|smtp|e?mail|router|bios|my|your|his|her|their';
export const QUALIFIED_PASS = `(?:${PASS_OWNERS})[ _-]?(?:pass|pw)`;
/** SSHPASS, DBPASS: one-word keys of the same. */
const OWNED_PASS_KEY = new RegExp(`^(?:${PASS_OWNERS})(?:pass|pw)$`);

const keyKinds = new Map<string, string | null>();

/** The kind a key announces (`password`, `secret`, `token`, `api-key`, `private-key`) or null. */
export function classifyKey(key: string): string | null {
  // Memoised: a transcript repeats the same few keys thousands of times. Bounded, so a hostile
  // input of unique keys costs memory once, not forever.
  const known = keyKinds.get(key);
  if (known !== undefined) return known;
  if (keyKinds.size > 4096) keyKinds.clear();
  const kind = classifyKeyUncached(key);
  keyKinds.set(key, kind);
  return kind;
}

function classifyKeyUncached(key: string): string | null {
  const all = splitKey(key);
  // `config.db.password`: the last segment names the value.
  const lastSegment = key.slice(key.lastIndexOf('.') + 1);
  const tokens = lastSegment === '' ? all : splitKey(lastSegment);
  if (tokens.length === 0) return null;
  if (tokens.length > 1 && VERB_PREFIXES.has(tokens[0] ?? '')) return null;
  let i = tokens.length - 1;
  while (i > 0 && NEUTRAL_SUFFIXES.has(tokens[i] ?? '')) i--;
  const last = tokens[i] ?? '';
  const prev = i > 0 ? tokens[i - 1] : all.length > tokens.length ? all[all.length - tokens.length - 1] : undefined;
  if (/(?:password|passwd|passphrase)$/.test(last) || last === 'pwd') return 'password';
  if ((last === 'pass' || last === 'pw') && prev !== undefined) return 'password';
  if (OWNED_PASS_KEY.test(last)) return 'password';
  if (last === 'privatekey' || (last === 'key' && prev === 'private')) return 'private-key';
  if (last === 'key' && prev === 'secret') return 'secret';
  if (/^(?:api|access|secret)key$/.test(last)) return 'api-key';
  if (last === 'key' && prev !== undefined && SECRET_KEY_QUALIFIERS.has(prev)) return 'api-key';
  // FERNET_KEY=…: an environment variable ending in _KEY is a secret unless it is a known constant.
  const screaming = /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/.test(lastSegment);
  if (screaming && last === 'key' && prev !== undefined && !NON_SECRET_KEY_QUALIFIERS.has(prev)) return 'api-key';
  if (/secret$/.test(last) || last === 'credential' || last === 'credentials') return 'secret';
  if (/token$/.test(last) || last === 'pat') return 'token';
  // `headers["Authorization"] = "…"`: the header alone, whose value is one token when it is not
  // `Bearer …` (the token shapes' to judge). `assertOwnsAuthorization` names a function.
  if (last === 'authorization' && i === 0) return 'token';
  return null;
}
