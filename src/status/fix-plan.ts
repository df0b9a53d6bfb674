/**
 * `mem status --fix`, the deciding half (STYLE §1), pure: which entries of an oversized daily file
 * move to which `memory/recent/<day>-<topic>.md` file, and how an oversized summary splits into
 * volumes. Entries move as their exact bytes and keep their ids, so `supersedes`/`refs` links still
 * resolve; the daily file keeps its text and gains a link to each split-out.
 */
import { getField } from '../entries/model.js';
import { entryBlocks, parseBlocks, splitLines, type EntryBlock } from '../entries/parse.js';
import { append } from '../core/group.js';

export interface DailySplit {
  daily: string;
  /** Target file → entry blocks (raw bytes), in their original order. */
  targets: Map<string, EntryBlock[]>;
}

const PLURAL: Record<string, string> = {
  Decision: 'decisions',
  Rule: 'rules',
  Architecture: 'architecture',
  Note: 'notes',
  Preference: 'preferences',
  Goal: 'goals',
  Task: 'tasks',
  Lesson: 'lessons',
};

/** `scope: project:shop` → "shop"; otherwise the kind ("decisions", "rules", ...). */
export function topicOf(block: EntryBlock): string {
  const scope = getField(block.entry, 'scope') ?? '';
  const m = /^project:([\p{L}\p{N}._-]+)$/u.exec(scope.trim());
  if (m) return m[1]!.toLowerCase().replace(/[^\p{L}\p{N}-]+/gu, '-');
  return PLURAL[block.entry.kind] ?? 'notes';
}

export function planDailySplit(daily: string, text: string, limit: number): DailySplit | undefined {
  const blocks = entryBlocks(parseBlocks(text));
  if (blocks.length <= limit) return undefined;
  const day = /(\d{4}-\d{2}-\d{2})\.md$/.exec(daily)?.[1] ?? 'split';
  const byTopic = new Map<string, EntryBlock[]>();
  for (const b of blocks) append(byTopic, topicOf(b), b);
  const targets = new Map<string, EntryBlock[]>();
  for (const [topic, list] of [...byTopic].sort(([a], [b]) => a.localeCompare(b))) {
    for (let v = 0; v * limit < list.length; v++) {
      targets.set(`memory/recent/${day}-${topic}${v ? `-${v + 1}` : ''}.md`, list.slice(v * limit, (v + 1) * limit));
    }
  }
  return { daily, targets };
}

const withBreak = (raw: string) => (raw.endsWith('\n\n') ? raw : raw.endsWith('\n') ? raw + '\n' : raw + '\n\n');

/** A block's whole text, line endings and trailing blank lines aside: what "the same entry" means without an id. */
export function blockKey(raw: string): string {
  return raw.replace(/\r\n/g, '\n').replace(/\s+$/, '');
}

/** How many times each block text occurs in `text` (a multiset, so two identical notes stay two). */
export function blockCounts(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const b of entryBlocks(parseBlocks(text))) counts.set(blockKey(b.raw), (counts.get(blockKey(b.raw)) ?? 0) + 1);
  return counts;
}

/**
 * The target file after adding the blocks it lacks (re-running --fix adds nothing). A block with an
 * id is present when its id is; one without is present only as the same whole text, once per copy:
 * comparing id-less blocks by their (absent) id made every one look present, so it was never copied.
 */
export function mergeIntoTarget(current: string | undefined, title: string, blocks: EntryBlock[]): string | undefined {
  let text = current ?? `# ${title}\n\n`;
  const existing = entryBlocks(parseBlocks(text));
  const ids = new Set(existing.map((b) => getField(b.entry, 'id')).filter((id): id is string => !!id));
  const texts = blockCounts(text);
  const missing = blocks.filter((b) => {
    const id = getField(b.entry, 'id');
    if (id) return !ids.has(id);
    const n = texts.get(blockKey(b.raw)) ?? 0;
    if (n) texts.set(blockKey(b.raw), n - 1);
    return !n;
  });
  if (!missing.length) return undefined;
  text = withBreak(text.replace(/\n*$/, '\n'));
  return (
    text +
    missing
      .map((b) => withBreak(b.raw))
      .join('')
      .replace(/\n+$/, '\n')
  );
}

/**
 * Which of `blocks` the target's text holds, as block text → count. Only these may leave the daily
 * file: a block whose id the target has under other text was not written there, so it stays.
 */
export function landedIn(target: string, blocks: EntryBlock[]): Map<string, number> {
  const have = blockCounts(target);
  const landed = new Map<string, number>();
  for (const b of blocks) {
    const key = blockKey(b.raw);
    const n = have.get(key) ?? 0;
    if (!n) continue;
    have.set(key, n - 1);
    landed.set(key, (landed.get(key) ?? 0) + 1);
  }
  return landed;
}

/**
 * The daily file without the entries that now live in a split-out (read again under the write
 * lock, so an entry appended meanwhile stays), with a link to each split-out after its heading text.
 * `moved` is block text → how many copies landed in a split-out; no more than that are removed.
 */
export function shrinkDaily(current: string, moved: Map<string, number>, links: string[]): string {
  const left = new Map(moved);
  const blocks = parseBlocks(current).filter((b) => {
    if (b.type !== 'entry') return true;
    const n = left.get(blockKey(b.raw)) ?? 0;
    if (n) left.set(blockKey(b.raw), n - 1);
    return !n;
  });
  const newLinks = links.filter((l) => !current.includes(`](${l})`));
  if (newLinks.length) {
    const note = newLinks.map((l) => `- Split out by \`mem status --fix\`: [${l}](${l})\n`).join('');
    const head = blocks[0]?.type === 'text' ? blocks.shift()!.raw : '';
    blocks.unshift({ type: 'text', raw: withBreak(head.replace(/\n*$/, '\n')) + note + '\n', startLine: 1 });
  }
  return blocks
    .map((b) => withBreak(b.raw))
    .join('')
    .replace(/\n+$/, '\n');
}

/**
 * Summary volumes: cut before a heading where one is near, each volume an exact slice of the text
 * (joined, they give back every byte). A volume holds at most `limit - 3` lines, so with the blank
 * line and "Continued in" link fix.ts appends it stays under `limit` (status flags `>= limit`).
 */
export function planSummaryVolumes(text: string, limit: number): string[] {
  const lines = splitLines(text);
  const budget = Math.max(1, limit - 3);
  const vols: string[] = [];
  let i = 0;
  while (i < lines.length) {
    let end = Math.min(lines.length, i + budget);
    if (end < lines.length) {
      for (let j = end; j > i + budget / 2; j--)
        if (/^#{1,3} /.test(lines[j] ?? '')) {
          end = j;
          break;
        }
    }
    vols.push(lines.slice(i, end).join(''));
    i = end;
  }
  return vols;
}

/**
 * Names for `count` volumes of summary `name`: the file keeps its name, the others are
 * `<stem>-vol2.md`, `-vol3`, ... skipping every name in `taken` (files that exist, volumes made
 * earlier in the run), so a split never overwrites a file — the earlier scheme wrote the overflow
 * of `X.md` over an existing `X-vol2.md`.
 */
export function volumeNames(name: string, count: number, taken: ReadonlySet<string>): string[] {
  const stem = name.replace(/\.md$/, '');
  const names = [name];
  for (let k = 2; names.length < count; k++) {
    const candidate = `${stem}-vol${k}.md`;
    if (!taken.has(candidate)) names.push(candidate);
  }
  return names;
}
