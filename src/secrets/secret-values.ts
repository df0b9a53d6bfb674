/**
 * Values after a label (secret-patterns.ts and its sections). A label says "a secret may follow"; these decide whether
 * what follows is a literal, or code, a placeholder or prose. Literal strings assigned to
 * secret-named keys in code (`const secret = 'abc'`) are redacted: a hard-coded secret is still a
 * secret.
 */
import type { PatternMatch } from './secret-pattern-kit.js';
import { splitKey } from './secret-keys.js';

/**
 * A `-` as a rendered page, a chat client or a word processor pastes it: hyphen-minus, the hyphens
 * and dashes U+2010-2015, minus, soft, small and full-width hyphens. A regex class body; values and
 * vendor prefixes run through any of them, so `密码：Xk92‑FAKE‑pq` is one password.
 */
export const UNICODE_DASHES = String.raw`\u00ad\u2010-\u2015\u2212\ufe63\uff0d`;
export const DASHES = String.raw`\x2d${UNICODE_DASHES}`;

/** Values that are never secrets however they are labelled (types, keywords, tools, algorithms). */
const STOP_VALUES = new Set(
  `true false yes no on off none null nil undefined empty required optional include omit same-origin
  default auto inherit password passwd passphrase secret secrets token tokens apikey api_key key bearer
  basic string str number int integer bool boolean any unknown object bytes text varchar char hidden
  masked redacted env vault keychain 1password bitwarden lastpass kms md5 sha1 sha256 sha512 bcrypt
  scrypt argon2 argon2id pbkdf2 hmac jwt oauth oauth2 base64 hex utf8 utf-8 rsa aes ed25519 https
  http ssh tls ssl json yaml async await function new this self return typeof void class let const
  var lambda def fn static public private protected readonly`.split(/\s+/),
);

const PLACEHOLDER = new RegExp(
  String.raw`^(?:<[^>]*>|\$\{[^}]*\}|\$\([^)]*\)|\$[A-Za-z_]\w*|%[A-Za-z_]\w*%|\{\{.*\}\}|[*xX•·.#?_~${DASHES}]+|your[-_ ]?[\w -]*|(?:change|replace)[-_ ]?me|todo|tbd|n\/a)$`,
  'i',
);

/** `<...>`, `${VAR}`, `sk-...`, `xxxx`, `****`: documentation and templates, not secrets. */
export function isPlaceholder(value: string): boolean {
  const v = value.trim();
  if (v === '' || STOP_VALUES.has(v.toLowerCase())) return true;
  if (PLACEHOLDER.test(v)) return true;
  // A redaction marker as an id's slug spells it (`数据库密码是-redacted-password`): memfold's own.
  if (/^-?redacted-[a-z0-9-]{1,40}$/.test(v)) return true;
  return /\.\.\.|…|xxxx|XXXX|\*\*\*\*|\$\{|\{\{|<[A-Za-z_ -]+>/.test(v);
}

/**
 * Tokens and keys are machine-made: long, or with digits. `{"token": "Hello", "logprob": -0.1}`
 * is a tokenizer's output. Passwords and secrets are chosen by people, so any literal counts.
 */
export function strongEnough(v: string, kind: string): boolean {
  if (kind === 'password' || kind === 'secret') return true;
  return v.length >= 8 && (/\d/.test(v) || v.length >= 20);
}

export function isPlaceholderMatch(p: PatternMatch): boolean {
  return isPlaceholder(p.value) || isPlaceholder(p.raw);
}

/** A word of an identifier that names a secret: `hashedPassword`, `accessToken`, `apiKey`. */
const SENSITIVE_TOKEN = /(?:pass|passwd|password|pw|pwd|secret|token|key|apikey|cred|creds|credentials?|auth)$/;
const IDENTIFIER = /^[A-Za-z_$][\w$-]*$/;
const MEMBER_CHAIN = /^[A-Za-z_$][\w$]*(?:\??\.[A-Za-z_$][\w$]*)+$/;
const CALL_INDEX_OR_GENERIC = /^[A-Za-z_$][\w$]*(?:\??\.[A-Za-z_$][\w$]*)*[([<]/;
const CODE_ROOTS =
  /^(?:process|os|this|self|config|cfg|conf|env|settings|req|request|ctx|context|options|opts|args|params|props|window|import|secrets|vars|inputs)\b/;

function namesASecret(identifier: string): boolean {
  return splitKey(identifier).some((t) => SENSITIVE_TOKEN.test(t));
}

/**
 * `req.body.password`, `getToken()`, `os.environ["X"]`, `Pick<Token, 'end'>`, `t,e}var`: code,
 * not a literal. A short dotted value with digits and no known root (`Summer2024.Fall`) may be a
 * password, so it is kept.
 */
export function isCodeExpression(v: string): boolean {
  if (CALL_INDEX_OR_GENERIC.test(v)) return true;
  if (/[(){}[\]]/.test(v) && /[,;=]/.test(v)) return true;
  if (!MEMBER_CHAIN.test(v)) return false;
  return CODE_ROOTS.test(v) || !/\d/.test(v) || v.split('.').length >= 3;
}

/** `BinaryLike`, `CryptoKey`, `NonSharedBuffer`: a type or class name, not a password. */
function isTypeName(v: string): boolean {
  return /^[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+$/.test(v);
}

/**
 * Where a secret lives, not a secret: `/etc/app/secret.conf`, `~/.pgpass`, `./run.sh`,
 * `config/prod.env`, `https://…`, `vault.example.com/v1/kv`, and on Windows `C:\secrets\app.pem`
 * (its `\` doubled when JSON-encoded), `\\server\share`, `%APPDATA%\x`, `keys\prod.pem`. A
 * password that merely holds a `/` or `\` (`p/a55w0rd!x`, base64 `Zm9v/YmFy+9x`, `Fake\Pass99`) is
 * none of these: the label before it decides.
 */
export function looksLikePath(v: string): boolean {
  if (/^(?:[/~]|\.{1,2}[\\/]|[a-z][a-z0-9+.-]*:\/\/|[a-z]:[\\/]|\\\\|%\w+%\\)/i.test(v)) return true;
  if (/^[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,}(?::\d{1,5})?\//.test(v)) return true; // a host, then its path
  return /^(?:[\w.@+-]+(?:\/|\\{1,2}))+[\w.@+-]*\.[a-z][a-z0-9]{0,7}$/.test(v); // name segments ending in a file extension
}

/** Looks like a random string or a chosen password rather than a word: used where prose surrounds. */
export function looksSecretish(v: string): boolean {
  // A backslash may be in a password (`Fake\Pass99`); a Windows path is a path, and an escape
  // (`\n`) already ended the value (secret-patterns.ts and its sections).
  if (v.length < 6 || isPlaceholder(v) || looksLikePath(v)) return false;
  if (/^v?\d+(?:\.\d+)+$/.test(v) || /^\d{4}-\d{2}-\d{2}/.test(v)) return false;
  if (isCodeExpression(v)) return false;
  const letters = /[A-Za-z]/.test(v);
  const digits = /\d/.test(v);
  const symbols = /[!@#$%^&*+=?~]/.test(v);
  return (letters && digits) || (letters && symbols) || /^\d{6,}$/.test(v);
}

const ANY_DASH = new RegExp(`[${DASHES}]`);

/**
 * A compound word rather than a chosen string: a dashed part that is a lowercase word
 * (`PBKDF2-hashed`, `12-character`, `x509-based`), or only words and numbers (`Windows-11`).
 */
function isCompoundWord(v: string): boolean {
  const parts = v.split(ANY_DASH);
  if (parts.some((part) => /^[a-z]{4,}$/.test(part))) return true;
  return parts.length > 1 && parts.every((part) => /^(?:[A-Za-z]+|\d+)$/.test(part));
}

/**
 * Stricter than looksSecretish, for a value with no `is`, `:` or `=` between it and its label
 * ("the nexus password MvnRep0Pa55wordQx9", `密码Zq8RmT4v…`), where what follows a label is usually
 * prose: letters with two digits, or with one and a symbol or both cases, in 8 characters or more,
 * and no compound word. "password e2e-tests", "password ISO-27001", "passwords base64-encoded",
 * "密钥AES256" and "password policy" stay.
 */
export function looksRandom(v: string): boolean {
  if (v.length < 8 || !looksSecretish(v) || !/[A-Za-z]/.test(v) || isCompoundWord(v)) return false;
  const symbol = /[!@#$%^&*+=?~]/.test(v);
  // Capitals and digits alone name things (`ISO-27001`, `RFC-8018`) unless they run long.
  if (!/[a-z]/.test(v) && !symbol && v.length < 12) return false;
  const digits = v.replace(/\D/g, '').length;
  return digits >= 2 || (digits === 1 && (symbol || (/[a-z]/.test(v) && /[A-Z]/.test(v))));
}

/** `  password: x` / `- TOKEN=x` / `export X=y`: the key opens the line and the value closes it. */
function isWholeLine(p: PatternMatch): boolean {
  if (p.raw !== p.value) return false; // `password: BinaryLike,` is a parameter list
  // Only the few characters before the key matter; never scan back through a 1 MB line.
  const before = p.text.slice(Math.max(0, p.m.index - 64), p.m.index);
  if (!/(?:^|\n)[ \t]*(?:- |export[ \t]+)?[ \t]*$/.test(before)) return false;
  if (p.m.index > 64 && !before.includes('\n')) return false;
  return /^[ \t]*(?:#.*)?(?:\r?\n|$)/.test(p.text.slice(p.rawEnd, p.rawEnd + 200));
}

/**
 * An unquoted value after `key=` / `key:`. A bare word is taken as a literal only where code is
 * unlikely: `password=hunter` (no spaces), a YAML line, a CLI flag. `password = input`,
 * `login(password=pw)`, `token: string`, `password: hashedPassword` and "Password: rotates weekly"
 * are code or prose.
 */
export function acceptUnquoted(p: PatternMatch, key: string, sep: string): boolean {
  const v = p.value;
  if (v.length < 4 || isPlaceholderMatch(p) || v.toLowerCase() === key.toLowerCase()) return false;
  if (/^(?:[[{(<]|\.{0,2}\/|~\/|\\[nrt]|[a-z][a-z0-9+.-]*:\/\/)/i.test(v)) return false;
  if (isCodeExpression(v)) return false;
  // "Password: rotates on Mondays", "password: 8-16 characters" go on as prose; a list item
  // ("password: x, then…") ends at its comma.
  const goesOn = /^[ \t]+[A-Za-z\u3400-\u9fff]/.test(p.text.slice(p.rawEnd, p.rawEnd + 2));
  const colon = /^[ \t]*[:：]/.test(sep);
  if (colon && p.raw === p.value && goesOn && !looksSecretish(v)) return false;
  if (!IDENTIFIER.test(v) || /\d/.test(v)) return true;
  // A bare identifier from here on.
  if (v.length >= 24 && /[a-z]/.test(v) && /[A-Z]/.test(v) && !isTypeName(v)) return true;
  if (isWholeLine(p)) return true; // a YAML/.env line holds literals, never variables
  if (/^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/.test(key) && sep === '=') return true; // docker -e DB_PASSWORD=x
  if (isTypeName(v) || namesASecret(v)) return false;
  if (/[;)]$/.test(p.raw)) return false;
  if (/^\s+=|=\s+$/.test(sep)) return false;
  return !(colon && p.raw === p.value && goesOn);
}

/** A quoted value. Tokens and keys never hold spaces, so `UnexpectedToken: 'Unexpected token'` is a message. */
export function acceptQuoted(v: string, key: string, kind: string): boolean {
  if (isPlaceholder(v) || v.toLowerCase() === key.toLowerCase()) return false;
  if (!/[\x21-\x7e]/.test(v)) return false; // "密码" as an i18n label
  if (/\s/.test(v.trim()) && kind !== 'password' && kind !== 'secret') return false;
  if (IDENTIFIER.test(v) && !/\d/.test(v) && v.length < 24 && namesASecret(v)) return false;
  return !isCodeExpression(v) || /\s/.test(v);
}
