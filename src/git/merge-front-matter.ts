/**
 * Three-way merge of a memory file's YAML front matter key by key (`mem merge-driver`), pure. A
 * top-level key that only one side added, changed or removed takes that side's version. A key that
 * both sides changed differently keeps ours and is named in the result, so the driver can warn
 * instead of dropping theirs silently (it used to take all of ours when both sides changed any key).
 * The block is split by lines, not rewritten through a YAML parser, so every kept key keeps its
 * bytes (quoting, comments, layout). The split is used only when it is plainly safe: each line at
 * column 0 starts a `key:` (unique within its side), continues the key above (an indented line, a
 * `- ` item, a blank line or a comment), and no anchor or alias ties one key to another; and the
 * merged block, read as YAML, must hold for every key what a three-way merge of the three parsed
 * blocks holds. Otherwise the block is one piece: ours, reported as a whole conflict.
 */
import { createRequire } from 'node:module';
import { isDeepStrictEqual } from 'node:util';
import { splitLines } from '../entries/parse.js';

export interface FrontMatterMerge {
  text: string;
  /** Both sides changed it differently and ours was kept: the keys concerned, none when the block was taken as one piece. */
  conflict?: { keys: string[] };
}

/** The blank lines before the first key (a comment belongs to the key below it), merged like a key. */
const LEADING_LINES = '(lines before the first key)';

interface Split {
  open: string;
  close: string;
  /** Each top-level key's lines (its key line first), in the block's order. */
  keys: Map<string, string>;
}

const KEY = /^("(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^\s#'"?:\-[\]{},&*!|>%@`][^:#]*?)[ \t]*:(?:[ \t]|$)/;
const CONTINUES = /^(?:[ \t]|-(?:[ \t]|$)|#|$)/;
const ANCHOR_OR_ALIAS = /(?:^|[\s:,[{-])[&*][^\s,[\]{}]/;

function split(fm: string): Split | undefined {
  if (!fm) return { open: '', close: '', keys: new Map() };
  const lines = splitLines(fm);
  const keys = new Map<string, string>();
  let current = LEADING_LINES;
  let comments: string[] = []; // column-0 comments directly above a key belong to that key
  const add = (key: string, text: string) => keys.set(key, (keys.get(key) ?? '') + text);
  for (const line of lines.slice(1, -1)) {
    const body = line.replace(/\n$/, '');
    if (ANCHOR_OR_ALIAS.test(body)) return undefined;
    const key = KEY.exec(body)?.[1];
    if (key !== undefined) {
      if (keys.has(key)) return undefined;
      current = key;
      add(key, comments.join('') + line);
      comments = [];
    } else if (body.startsWith('#')) {
      comments.push(line);
    } else if (CONTINUES.test(body) && (current !== LEADING_LINES || body.trim() === '')) {
      add(current, comments.join('') + line);
      comments = [];
    } else return undefined;
  }
  if (comments.length) add(current, comments.join(''));
  return { open: lines[0]!, close: lines[lines.length - 1]!, keys };
}

type Pick<T> = { value: T | undefined; conflict: boolean };

function threeWay<T>(
  base: T | undefined,
  ours: T | undefined,
  theirs: T | undefined,
  same: (a: T | undefined, b: T | undefined) => boolean,
): Pick<T> {
  if (same(ours, theirs) || same(theirs, base)) return { value: ours, conflict: false };
  if (same(ours, base)) return { value: theirs, conflict: false };
  return { value: ours, conflict: true };
}

const sameText = (a: string | undefined, b: string | undefined) => a?.trimEnd() === b?.trimEnd();

// gray-matter takes about 50 ms to import: loaded only when both sides changed the front matter and
// it splits by key, not by every run of the driver.
type Matter = (text: string) => { data: unknown };
let matter: Matter | undefined;
const grayMatter = () => (matter ??= createRequire(import.meta.url)('gray-matter') as Matter);

/**
 * The parsed block (no front matter: an empty mapping); undefined when it is not a YAML mapping.
 * The opening line is a bare `---` (merge-entries.ts), so gray-matter reads YAML, never `---js`.
 */
function parsed(fm: string): Record<string, unknown> | undefined {
  if (!fm) return {};
  try {
    const data: unknown = grayMatter()(fm.endsWith('\n') ? fm : `${fm}\n`).data;
    return data && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** The merged block read as YAML holds, key by key, what a three-way merge of the parsed sides holds. */
function agreesWithYaml(merged: string, base: string, ours: string, theirs: string): boolean {
  const [m, b, o, t] = [merged, base, ours, theirs].map(parsed);
  if (!m || !b || !o || !t) return false;
  for (const key of new Set([...Object.keys(b), ...Object.keys(o), ...Object.keys(t), ...Object.keys(m)])) {
    const want = threeWay(b[key], o[key], t[key], isDeepStrictEqual).value;
    if (!isDeepStrictEqual(m[key], want)) return false;
  }
  return true;
}

/** The blocks with their `---` lines, LF line breaks, '' for none; called when both sides changed it. */
export function mergeFrontMatter(base: string, ours: string, theirs: string): FrontMatterMerge {
  const whole = { text: ours, conflict: { keys: [] } };
  const [b, o, t] = [split(base), split(ours), split(theirs)];
  if (!b || !o || !t) return whole;
  // Ours' keys in ours' order; a key only theirs has follows the key it follows in theirs.
  const order = [...o.keys.keys()];
  let after = order[0] === LEADING_LINES ? 0 : -1;
  for (const key of t.keys.keys()) {
    if (order.includes(key)) after = order.indexOf(key);
    else order.splice(++after, 0, key);
  }
  const conflicts: string[] = [];
  let inner = '';
  for (const key of order) {
    const pick = threeWay(b.keys.get(key), o.keys.get(key), t.keys.get(key), sameText);
    if (pick.conflict) conflicts.push(key);
    inner += pick.value ?? '';
  }
  const frame = o.open ? o : t;
  const text = inner || ours ? frame.open + inner + frame.close : '';
  if (!agreesWithYaml(text, base, ours, theirs)) return whole;
  return conflicts.length ? { text, conflict: { keys: conflicts } } : { text };
}
