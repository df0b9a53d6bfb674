/**
 * Structural shapes of the secret table (secret-patterns.ts): whole blocks (PEM keys),
 * self-describing tokens, and credentials inside URLs and HTTP.
 */
import { ARMOUR, COOKIE_CHAR, DASH, PEM_BREAK, PEM_LABEL, QUERY_CHAR, tailOf } from './secret-fragments.js';
import { classifyKey } from './secret-keys.js';
import { DASHES, isCodeExpression, isPlaceholder, isPlaceholderMatch, strongEnough } from './secret-values.js';
import { re, type PatternMatch, type SecretPattern } from './secret-pattern-kit.js';

function pemKind(p: PatternMatch): string {
  const type = p.m.groups?.type ?? '';
  if (/\bRSA\b/.test(type)) return 'rsa-private-key';
  if (/\bEC\b/.test(type)) return 'ec-private-key';
  if (/OPENSSH/.test(type)) return 'openssh-private-key';
  if (/PGP/.test(type)) return 'pgp-private-key';
  return 'private-key';
}

/** A line break only, real or JSON-escaped: PEM_BREAK without the spaces, which also part words. */
const PEM_LINE_BREAK = String.raw`(?:\r?\n|(?:\\{1,2}r)?\\{1,2}n)`;
/** The end of a PEM line: a line break with any spaces around it. */
const END_OF_LINE = String.raw`[ \t]{0,16}${PEM_LINE_BREAK}[ \t]{0,16}`;
/** Where a base64 line may begin: not inside a run, nor on the `n` of a `\n` escape. */
const B64_LINE_START = String.raw`(?:(?<![A-Za-z0-9+/=\\])|(?<=\\[nr]))`;

/** DER of a private key: SEQUENCE (any length form), then INTEGER version 0-3. Certificates and public keys open with a SEQUENCE or a long INTEGER. */
function opensLikePrivateKey(b64: string): boolean {
  const der = Buffer.from(b64.slice(0, 16), 'base64');
  const length = der[1] ?? 0;
  const at = length < 0x80 ? 2 : 2 + (length & 0x7f);
  return der[0] === 0x30 && der[at] === 0x02 && der[at + 1] === 0x01 && (der[at + 2] ?? 0xff) <= 3;
}

function decodesToCredentials(b64: string): boolean {
  const decoded = Buffer.from(b64, 'base64').toString('latin1');
  return /^[\x20-\x7e]+$/.test(decoded) && /^[^:]+:./.test(decoded);
}

const DATABASE_SCHEMES =
  /^(?:postgres(?:ql)?|mysql|mariadb|mongodb(?:\+srv)?|redis|rediss|amqps?|mssql|sqlserver|oracle|cockroachdb|clickhouse|couchdb|neo4j(?:\+s)?|jdbc:[a-z]+)$/i;

export const SHAPE_PATTERNS: readonly SecretPattern[] = [
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
    kinds: ['private-key', 'rsa-private-key', 'ec-private-key', 'openssh-private-key', 'pgp-private-key'],
    // The end of a block whose BEGIN is elsewhere (a key pasted over two messages): the base64 lines
    // before an END line, and the END line. The lookbehind runs only where an END line matched, and
    // reads back over whole lines (the last may be short), so a scan stays linear. The END line
    // opens a line after one of 16+ characters, so "must end in -----END RSA PRIVATE KEY-----" and
    // "ends with\n-----END PRIVATE KEY-----" are prose about the armour, not a key.
    re: re(
      String.raw`${ARMOUR}END ${PEM_LABEL}(?<=(?<v>(?:${B64_LINE_START}[A-Za-z0-9+/=]{16,}${PEM_BREAK}+)*${B64_LINE_START}[A-Za-z0-9+/=]{16,}(?:${END_OF_LINE}${B64_LINE_START}[A-Za-z0-9+/=]{1,15})?${END_OF_LINE}${ARMOUR}END [ A-Z0-9]{0,40}?PRIVATE KEY(?: BLOCK)?${ARMOUR}))`,
    ),
    check: pemKind,
  },
  {
    kinds: ['private-key'],
    // A key's base64 body without armour: DER that opens like a private key, judged on its first
    // 64 characters; the tail takes the base64 lines that go on from it.
    re: re(String.raw`(?<![A-Za-z0-9+/=])M[A-Za-z0-9+/]{63}`),
    check: (p) => opensLikePrivateKey(p.value),
    tail: new RegExp(
      String.raw`[A-Za-z0-9+/]*={0,2}(?:${PEM_BREAK}+[A-Za-z0-9+/]{16,}={0,2})*(?:${PEM_LINE_BREAK}[A-Za-z0-9+/]{1,15}={0,2}(?=[ \t]*(?:${PEM_LINE_BREAK}|$)))?`,
      'y',
    ),
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
];
