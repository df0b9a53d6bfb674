/**
 * Markdown transcripts → turns (DESIGN §4): YAML front matter (`session_id`, `started_at`, and the
 * folder the session ran in as `cwd` or `project`), then each turn a level-2 heading `## user`,
 * `## assistant` or `## tool` (any case), optionally followed by ` · <ISO time>`, its text running
 * to the next such heading.
 *
 * Invariants: a heading inside a fenced code block is text, not a turn (transcripts quote Markdown);
 * offsets are bytes of the file as read, so `end` is where the turn's last line ends. A resumed read
 * parses only the bytes after the cursor (a turn boundary: the end of a turn's last line), with the
 * front matter read from the file's head; text there before the first heading continues a turn that
 * was already read and is dropped, as a whole-file parse skipping that turn by index would.
 */
import matter from 'gray-matter';
import type { TurnDraft } from './draft.js';
import { truncate } from './text.js';
import type { Role } from './types.js';

const HEADING = /^##[ \t]+(user|assistant|tool)[ \t]*(?:·[ \t]*(.*?))?[ \t]*$/i;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;
/** An unquoted `started_at` without an offset, which YAML would read as UTC. */
const UNZONED_START = /^started_at:[ \t]*(\d{4}-\d{2}-\d{2}(?:[Tt ]\d{2}:\d{2}:\d{2}(?:\.\d+)?)?)[ \t]*(?:#.*)?$/m;

export interface MarkdownTurn extends TurnDraft {
  /** Byte offset just past the turn's last line. */
  end: number;
}

export interface ParsedMarkdown {
  sessionId?: string;
  startedAt?: unknown;
  /** Front matter `cwd` (or `project`): the folder the session ran in. */
  cwd?: string;
  turns: MarkdownTurn[];
  /** Front matter that did not parse: reported as one malformed "line". */
  problem?: string;
}

export interface RawLine {
  text: string;
  start: number;
  end: number;
}

/**
 * Parses a transcript. With `offset` > 0, `source` holds the file's bytes from that offset on (a
 * resumed read): no front matter is looked for there, and every `end` counts from the file's start.
 */
export function parseMarkdownTranscript(source: Buffer | string, offset = 0): ParsedMarkdown {
  const buf = typeof source === 'string' ? Buffer.from(source, 'utf8') : source;
  const parser = new MarkdownParser(offset === 0);
  const turns: MarkdownTurn[] = [];
  for (const line of splitLines(buf, offset)) turns.push(...parser.push(line));
  turns.push(...parser.end());
  return { ...parser.head, turns };
}

/**
 * The same parse, one line at a time (the reader streams a file through it): it holds the open
 * turn's lines, not the file's, so a big transcript costs one turn of memory. Only front matter
 * still open is held longer: until its closing line, or to the end when there is none (then every
 * held line is body, as in a whole-file parse). `head` is final once a turn has come out.
 */
export class MarkdownParser {
  /** The front matter's fields (no turns). */
  readonly head: ParsedMarkdown = { turns: [] };
  /** Lines of front matter not yet closed; null before the first line and once settled. */
  private held: RawLine[] | null = null;
  private current: { head: RegExpExecArray; text: string[]; end: number } | null = null;
  private fence: string | null = null;

  constructor(private lookForFrontMatter: boolean) {}

  /** One line in; the turns it completed out. */
  push(line: RawLine): MarkdownTurn[] {
    const out: MarkdownTurn[] = [];
    if (!this.lookForFrontMatter) {
      this.body(line, out);
    } else if (!this.held) {
      if (line.text.trim() === '---') this.held = [line];
      else {
        this.lookForFrontMatter = false;
        this.body(line, out);
      }
    } else {
      this.held.push(line);
      const t = line.text.trim();
      if (t === '---' || t === '...') {
        readFrontMatter(this.held, this.head);
        this.held = null;
        this.lookForFrontMatter = false;
      }
    }
    return out;
  }

  /** The end of the text: the last turn, and an unclosed front matter's lines read as body. */
  end(): MarkdownTurn[] {
    const out: MarkdownTurn[] = [];
    const held = this.held ?? [];
    this.held = null;
    this.lookForFrontMatter = false;
    for (const line of held) this.body(line, out);
    this.close(out);
    return out;
  }

  private body(line: RawLine, out: MarkdownTurn[]): void {
    const head = this.fence === null ? HEADING.exec(line.text) : null;
    if (head) {
      this.close(out);
      this.current = { head, text: [], end: line.end };
      return;
    }
    this.fence = nextFence(this.fence, line.text);
    if (this.current) {
      this.current.text.push(line.text);
      if (line.text.trim() !== '') this.current.end = line.end;
    }
  }

  private close(out: MarkdownTurn[]): void {
    if (!this.current) return;
    const [, role, time] = this.current.head;
    const kind = (role as string).toLowerCase() as Role;
    const text = this.current.text.join('\n').trim();
    // Tool output is context, not an archive: bounded like every reader's (text.ts).
    const turn: MarkdownTurn = { role: kind, text: kind === 'tool' ? truncate(text) : text, end: this.current.end };
    if (time) turn.time = time;
    out.push(turn);
    this.current = null;
  }
}

/** The front matter alone, from the head of a file (a resumed read needs its session id and start). */
export function parseMarkdownHeader(head: Buffer): ParsedMarkdown {
  const parsed: ParsedMarkdown = { turns: [] };
  readFrontMatter(splitLines(head, 0), parsed);
  return parsed;
}

/** Reads the front matter into `parsed`; returns the index of the first body line. */
function readFrontMatter(lines: RawLine[], parsed: ParsedMarkdown): number {
  if (lines[0]?.text.trim() !== '---') return 0;
  const close = lines.findIndex((l, i) => i > 0 && (l.text.trim() === '---' || l.text.trim() === '...'));
  if (close === -1) return 0;
  const yaml = lines
    .slice(0, close + 1)
    .map((l) => l.text)
    .join('\n');
  try {
    const data: Record<string, unknown> = matter(`${yaml}\n`).data;
    const id = data.session_id;
    if (typeof id === 'string' || typeof id === 'number') parsed.sessionId = String(id);
    const cwd = [data.cwd, data.project].find((v) => typeof v === 'string' && v.trim() !== '');
    if (typeof cwd === 'string') parsed.cwd = cwd.trim();
    // Its text instead, so the reader dates it in the configured zone as it does a heading's time.
    if (data.started_at !== undefined)
      parsed.startedAt = (data.started_at instanceof Date && UNZONED_START.exec(yaml)?.[1]) || data.started_at;
  } catch (err) {
    parsed.problem = `front matter is not valid YAML (${err instanceof Error ? err.message.split('\n')[0] : String(err)})`;
  }
  return close + 1;
}

/** The fence still open after this line: opened by ``` or ~~~, closed by the same run at least as long. */
function nextFence(open: string | null, text: string): string | null {
  const m = FENCE.exec(text);
  if (!m) return open;
  const run = m[1] as string;
  if (open === null) return run;
  return run[0] === open[0] && run.length >= open.length && text.trim() === run ? null : open;
}

function splitLines(buf: Buffer, offset: number): RawLine[] {
  const lines: RawLine[] = [];
  let start = 0;
  while (start < buf.length) {
    const nl = buf.indexOf(0x0a, start);
    const end = nl === -1 ? buf.length : nl + 1;
    let text = buf.subarray(start, nl === -1 ? buf.length : nl).toString('utf8');
    if (text.endsWith('\r')) text = text.slice(0, -1);
    if (start + offset === 0 && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    lines.push({ text, start: start + offset, end: end + offset });
    start = end;
  }
  return lines;
}
