/**
 * A segment written as its docs arrive, byte for byte what format.ts's buildSegment makes of the same
 * docs, without holding them: each doc line goes to the temp docs file at once, its postings to one
 * spill file per shard once a few MB are buffered, and only the 7 u32 of meta per doc stay in memory.
 * `finish()` groups each shard's spilled postings by term (one shard, 1/256 of the segment, at a
 * time), writes the `.post` body and its table, and puts the three files in place. Before that,
 * `mem archive --rebuild` held a whole segment's windows, their JSON and every posting as a string,
 * so its peak memory grew with the transcripts (298 → 594 MB from 50 to 500 MB).
 * Temp and spill files carry the writer's temp names: a killed or failed run's are swept by the next
 * write once its process is gone.
 */
import fs from 'node:fs';
import type { WorkspaceWriter } from '../write/writer.js';
import { docEntry, HEADER_BYTES, META_U32, SHARDS, shardOf, type ArchiveDoc } from './format.js';
import { ARCHIVE_DIR } from './paths.js';

/** Postings characters buffered before they are appended to the shards' spill files. */
const SPILL_CHARS = 256 * 1024;
/** Doc-line bytes buffered before a write to the temp docs file. */
const DOCS_CHUNK = 1024 * 1024;

export interface WrittenSegment {
  docs: number;
  tokens: number;
}

export class SegmentStream {
  private meta = new Uint32Array(1024 * META_U32);
  private count = 0;
  private offset = 0;
  private tokens = 0;
  private lines: string[] = [];
  private lineBytes = 0;
  private shardBuf: string[][] = Array.from({ length: SHARDS }, () => []);
  private spilled = new Set<number>();
  private buffered = 0;

  private constructor(
    private readonly writer: WorkspaceWriter,
    readonly name: string,
    private readonly docsTmp: string,
    private readonly docsFd: number,
    private readonly spillBase: string,
  ) {}

  static async open(writer: WorkspaceWriter, name: string): Promise<SegmentStream> {
    const docsTmp = await writer.tempFile(`${ARCHIVE_DIR}/${name}.docs.jsonl`);
    const spillBase = await writer.tempFile(`${ARCHIVE_DIR}/${name}.post`, '-spill');
    return new SegmentStream(writer, name, docsTmp, fs.openSync(docsTmp, 'wx', 0o644), spillBase);
  }

  get docs(): number {
    return this.count;
  }

  add(d: ArchiveDoc): void {
    const i = this.count++;
    const { line, len, tf, terms, secs } = docEntry(d);
    for (const [t, n] of tf) {
      const p = `${t}\t${i}:${n}\n`;
      this.shardBuf[shardOf(t)]!.push(p);
      this.buffered += p.length;
    }
    if ((i + 1) * META_U32 > this.meta.length) {
      const grown = new Uint32Array(this.meta.length * 2);
      grown.set(this.meta);
      this.meta = grown;
    }
    this.meta.set([this.offset, len, terms, secs, d.f, d.a, d.b], i * META_U32);
    this.offset += len;
    this.tokens += terms;
    this.lines.push(line);
    this.lineBytes += len;
    if (this.lineBytes >= DOCS_CHUNK) this.flushLines();
    if (this.buffered >= SPILL_CHARS) this.spill();
  }

  /** Writes the `.post` and `.meta.bin` files, puts all three in place; the caller lists the segment in the state. */
  async finish(): Promise<WrittenSegment> {
    this.flushLines();
    fs.closeSync(this.docsFd);
    const base = `${ARCHIVE_DIR}/${this.name}`;
    const postTmp = await this.writer.tempFile(`${base}.post`);
    const fd = fs.openSync(postTmp, 'wx', 0o644);
    try {
      const header = new Uint32Array(SHARDS * 2);
      let at = 0;
      for (let s = 0; s < SHARDS; s++) {
        const body = Buffer.from(this.shardText(s));
        writeAll(fd, body, HEADER_BYTES + at);
        header[s * 2] = at;
        header[s * 2 + 1] = body.length;
        at += body.length;
      }
      writeAll(fd, Buffer.from(header.buffer), 0);
    } finally {
      fs.closeSync(fd);
    }
    await this.writer.write(`${base}.meta.bin`, new Uint8Array(this.meta.buffer, 0, this.count * META_U32 * 4));
    await this.writer.commitTemp(`${base}.docs.jsonl`, this.docsTmp);
    await this.writer.commitTemp(`${base}.post`, postTmp);
    return { docs: this.count, tokens: this.tokens };
  }

  /** One shard's `term\tdoc:tf,…` lines, terms in order of first posting, as buildSegment orders them. */
  private shardText(s: number): string {
    let raw = '';
    if (this.spilled.has(s)) {
      raw = fs.readFileSync(this.spillFile(s), 'utf8');
      fs.rmSync(this.spillFile(s), { force: true });
    }
    raw += this.shardBuf[s]!.join('');
    this.shardBuf[s] = [];
    const byTerm = new Map<string, string[]>();
    for (const line of raw.split('\n')) {
      if (!line) continue;
      const tab = line.indexOf('\t');
      const term = line.slice(0, tab);
      const list = byTerm.get(term);
      if (list) list.push(line.slice(tab + 1));
      else byTerm.set(term, [line.slice(tab + 1)]);
    }
    let text = '';
    for (const [t, list] of byTerm) text += `${t}\t${list.join(',')}\n`;
    return text;
  }

  private spillFile(s: number): string {
    return `${this.spillBase}-${s}`;
  }

  private spill(): void {
    this.shardBuf.forEach((buf, s) => {
      if (!buf.length) return;
      fs.appendFileSync(this.spillFile(s), buf.join(''));
      this.spilled.add(s);
      this.shardBuf[s] = [];
    });
    this.buffered = 0;
  }

  private flushLines(): void {
    if (this.lines.length) fs.writeSync(this.docsFd, this.lines.join(''));
    this.lines = [];
    this.lineBytes = 0;
  }
}

function writeAll(fd: number, buf: Buffer, position: number): void {
  let done = 0;
  while (done < buf.length) done += fs.writeSync(fd, buf, done, buf.length - done, position + done);
}
