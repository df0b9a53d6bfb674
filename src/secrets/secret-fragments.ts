/**
 * The regex fragments the secret table (secret-patterns.ts and its sections) is built from: how a quoted value opens
 * and closes, the bounded value classes with the tails that continue an accepted value past its
 * bound, and PEM armour. Every fragment keeps the table's rules: bounded quantifiers, or a class the
 * next part cannot overlap, so a scan stays linear in its input.
 */
import { DASHES } from './secret-values.js';

// Quoted forms come first in every alternation: an unquoted value would stop at the quote.

/** How a quoted value opens and closes, what it holds, and (unrolled, for speed) the same run unbounded. */
interface QuoteForm {
  name: string;
  open: string;
  close: string;
  char: string;
  rest: string;
}

function plainQuote(name: string, open: string, close = open): QuoteForm {
  return { name, open, close, char: `[^${close}\\r\\n]`, rest: `[^${close}\\r\\n]*` };
}

export const QUOTES = {
  /**
   * `\"…\"` inside a JSON string, or `\\\"…\\\"` inside one inside another, at any depth: a tool's
   * input re-encoded by a reader (Claude Code's Bash `-d "{\"password\":…}"`) doubles every
   * backslash again. A run of backslashes escapes anything but a quote; before a quote it closes.
   */
  escaped: {
    name: 'e',
    open: String.raw`\\+"`,
    close: String.raw`\\+"`,
    char: String.raw`(?:[^"\\\r\n]|\\+[^"\\\r\n])`,
    rest: String.raw`[^"\\\r\n]*(?:\\+[^"\\\r\n][^"\\\r\n]*)*`,
  },
  /** `"…"` with JSON escapes, `\"` among them. */
  json: {
    name: 'j',
    open: '"',
    close: '"',
    char: String.raw`(?:[^"\\\r\n]|\\.)`,
    rest: String.raw`[^"\\\r\n]*(?:\\.[^"\\\r\n]*)*`,
  },
  double: plainQuote('d', '"'),
  single: plainQuote('s', "'"),
  backtick: plainQuote('b', '\\x60'),
  corner: plainQuote('c', '「', '」'),
  curly: plainQuote('w', '“', '”'),
} satisfies Record<string, QuoteForm>;

const QUOTE_BOUND = 4096;

/**
 * Quoted values in the given forms, each read up to 4,096 characters (`vq1`, `vq2`, …). A value
 * still open at the bound is a value too: `vl<form>` takes its first 4,096 characters, judged like
 * any quoted value, and LONG_QUOTE_TAILS takes the rest up to the closing quote, so it is removed
 * whole. Without those a 5 KB `"password": "…"` matched no alternative and was kept entire.
 */
export function quotedValue(...forms: QuoteForm[]): string {
  const closed = forms.map((f, i) => `${f.open}(?<vq${i + 1}>${f.char}{1,${QUOTE_BOUND}})${f.close}`);
  const open = forms.map((f) => `${f.open}(?<vl${f.name}>${f.char}{${QUOTE_BOUND}})`);
  return [...closed, ...open].join('|');
}

/** What continues a `vl…` value past the bound: the rest of its quote, by group name. */
export const LONG_QUOTE_TAILS: Readonly<Record<string, RegExp>> = Object.fromEntries(
  Object.values(QUOTES).map((f) => [`vl${f.name}`, new RegExp(f.rest, 'y')]),
);

/**
 * A backslash inside an unquoted labelled value, unless it opens an escape: text JSON-encoded once
 * or twice more keeps `\n`, `\\n`, `\t`, `\"` where its line broke or its string closed, so
 * "password is hunter2\nnext" is `hunter2`, then the next line. `Fake\Pass99` and `C:\Users` go on.
 */
const BACKSLASH = String.raw`\\\\?(?![nrt\\"])`;

interface ValueClass {
  /** One character of the value: `plain` (which never holds `\`), or a BACKSLASH. */
  char: string;
  /** What continues an accepted value past its bound; the same run, unrolled so it stays fast on 1 MB. */
  tail: RegExp;
}

function escapeAware(plain: string): ValueClass {
  return { char: `(?:${plain}|${BACKSLASH})`, tail: new RegExp(`${plain}*(?:${BACKSLASH}${plain}*)*`, 'y') };
}

const QUOTED_VALUE = quotedValue(QUOTES.escaped, QUOTES.json, QUOTES.single, QUOTES.backtick);
// Stops at `;` (a connection string's next field, `Password=x;Encrypt=true`, or a shell command)
// and at CJK text and punctuation ("AppSecret：abc123，请保管"), but not at the full-width hyphen
// U+FF0D among them: `SECRET_KEY_BASE=FAKE－rails…` is one value.
export const UNQUOTED = escapeAware(String.raw`[^\s"'\x60;\\\u3000-\u303f\u3400-\u9fff\uff00-\uff0c\uff0e-\uffef]`);
const UNQUOTED_VALUE = String.raw`(?<vu>${UNQUOTED.char}{1,1024})`;
export const VALUE = `(?:${QUOTED_VALUE}|${UNQUOTED_VALUE})`;

// The other bounded value classes, each with the tail that continues it past its bound: a value
// is judged on its first 256 (512, 4096) characters, and removed whole.
export const PROSE = escapeAware(String.raw`[^\s"'\x60\\]`);
export const PASS = escapeAware(String.raw`[^\s"'\\]`);
// After a CJK label: ASCII, any dash a CJK keyboard or chat client put in it (`Xk92‑FAKE`), and
// the full-width letters and digits an input method types (`Ｔｒ０ｕｂ４`).
export const CJK_VALUE = escapeAware(String.raw`[\x21-\x5b\x5d-\x7e${DASHES}\uff10-\uff19\uff21-\uff3a\uff41-\uff5a]`);
export const QUERY_CHAR = String.raw`[^&#;\s"'<>\x60]`;
export const COOKIE_CHAR = String.raw`[^\r\n"'\x60]`;

export function tailOf(charClass: string): RegExp {
  return new RegExp(`${charClass}*`, 'y');
}

// Every dash of a vendor prefix or a token body takes any of DASHES (`xoxb‑…` with U+2011 is the
// same Slack token). The lookbehinds before a prefix stay ASCII, so a token right after an em dash
// ("the key—xoxb-…") is still found; only `sk`, two letters common in words, refuses a Unicode dash
// before it too.
export const DASH = `[${DASHES}]`;

/**
 * Before a vendor prefix: no letter or digit, or the prefix is the end of a word (`desk-ant-…`,
 * `risk_test_…`, `berlin_api_…`); `extra` names more characters that may not come before it. An
 * underscore may: a token glued to an identifier (`fetch_sk-proj-…`, `SLACK_xoxb-…`) is a token.
 */
export function afterNoWord(extra = ''): string {
  return `(?<![A-Za-z0-9${extra}])`;
}

/** Line breaks inside a PEM block: real ones, or `\n` escapes once or twice JSON-encoded. */
export const PEM_BREAK = String.raw`(?:\r?\n|(?:\\{1,2}r)?\\{1,2}n|[ \t])`;
/**
 * PEM armour's five dashes, or what smart typography made of them (`—–BEGIN`: `---` became an em
 * dash, `--` an en dash): any 2-5 DASHES. Only ever followed by BEGIN/END … PRIVATE KEY.
 */
export const ARMOUR = `${DASH}{2,5}`;
export const PEM_LABEL = String.raw`(?<type>[ A-Z0-9]{0,40}?)PRIVATE KEY(?: BLOCK)?${ARMOUR}`;

/** `8-16`, `8～16`, `8－16`: a length rule after a CJK label, not a password. */
export const NUMBER_RANGE = new RegExp(String.raw`^\d+(?:[~～${DASHES}]\d+)?$`);
