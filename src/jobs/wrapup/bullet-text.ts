/**
 * The text of one wrap-up bullet: one line, no Markdown structure it could smuggle in (a heading, a
 * quote, front matter, an HTML comment), secrets redacted before anything is cut (a cut could leave
 * half a key too short to be recognised), and a long text cut at a clause or word boundary — between
 * two CJK characters is one — with "…", never inside a word and never leaving a quotation or a code
 * span open: a bullet cut mid-phrase with an unclosed quote reads as if the speaker had said less.
 */
import { clipPhrase } from '../../extract/sentences.js';
import { redactSecrets } from '../../secrets/secrets.js';

export const TEXT_MAX = 200;

/** Quotation marks and code spans that open a run of text the cut must not leave open. */
const PAIRS: Array<[open: string, close: string]> = [
  ['“', '”'],
  ['「', '」'],
  ['『', '』'],
  ['《', '》'],
  ['（', '）'],
  ['(', ')'],
];
const SAME = ['"', '`'];

/** Where the first quotation or code span that `s` opens and never closes begins (the outermost), or -1. */
export function unclosedAt(s: string): number {
  const chars = [...s];
  const open: number[] = [];
  for (const mark of SAME) {
    const marks = chars.flatMap((ch, i) => (ch === mark ? [i] : []));
    if (marks.length % 2) open.push(marks[marks.length - 1]!);
  }
  for (const [opener, close] of PAIRS) {
    const stack: number[] = [];
    chars.forEach((ch, i) => {
      if (ch === opener) stack.push(i);
      else if (ch === close) stack.pop();
    });
    if (stack.length) open.push(stack[0]!);
  }
  return open.length ? Math.min(...open) : -1;
}

/** The closing marks, innermost first, that `s` leaves open. */
function closers(s: string): string {
  const open: string[] = [];
  for (const ch of s) {
    const pair = PAIRS.find(([o, c]) => ch === o || ch === c);
    if (SAME.includes(ch)) {
      if (open[open.length - 1] === ch) open.pop();
      else open.push(ch);
    } else if (pair && ch === pair[0]) open.push(pair[1]);
    else if (pair && open[open.length - 1] === ch) open.pop();
  }
  return open.reverse().join('');
}

/**
 * `s` cut to `max` characters as a reader would cut it. A quotation left open by the cut is cut away
 * whole when enough text stands before it; one that starts the text is closed after the "…" instead.
 */
export function cutText(s: string, max = TEXT_MAX): string {
  if ([...s].length <= max) return s;
  const cut = clipPhrase(s, max);
  const body = cut.endsWith('…') ? cut.slice(0, -1) : cut;
  const at = unclosedAt(body);
  if (at < 0) return cut;
  const before = [...body]
    .slice(0, at)
    .join('')
    .replace(/[\s,，;；:：、=—–-]+$/u, '');
  if ([...before].length >= max * 0.4) return `${before}…`;
  const closing = closers(body);
  return `${clipPhrase(body, max - closing.length).replace(/…$/, '')}…${closing}`;
}

/** One line of plain text for a bullet: redacted, flattened, then cut. */
export function safeText(s: string): string {
  const flat = redactSecrets(s)
    .text.replace(/\s+/g, ' ')
    .replace(/<!--|-->/g, '')
    .replace(/^[#>\-\s]+/, '')
    .trim();
  return cutText(flat);
}
