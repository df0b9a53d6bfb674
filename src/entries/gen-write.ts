/**
 * Writing the derived files that carry their own generation (read by stamped-buckets.ts): a refresh rewrites only the
 * files whose content changed and names every file's generation in the meta it writes last.
 *
 * Invariant: `put` writes a file whose content hashes to the generation it records, unless a file
 * of that very generation is already there; a file the new meta does not name is removed by `prune`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { writeDerivedFile } from '../write/atomic.js';
import { createHash } from 'node:crypto';

/** A file's generation: a hash of its content (node:crypto here: only a refresh writes them; a read compares the text). */
export const genOf = (json: string) => createHash('sha1').update(json).digest('hex').slice(0, 16);

export class GenFiles {
  /** The generation of every file the meta will name. */
  readonly gens: Record<string, string>;
  private readonly present: Set<string>;
  /** The names written by this refresh. */
  readonly written: string[] = [];

  /** `before`: the generations the last meta named; `keep`: start from them (an incremental refresh) instead of from none. */
  constructor(
    private readonly dir: string,
    private readonly before: Record<string, string>,
    keep: boolean,
  ) {
    fs.mkdirSync(dir, { recursive: true });
    this.present = new Set(fs.readdirSync(dir));
    this.gens = keep ? { ...before } : {};
  }

  /** Whether every file the last meta named is there (one deleted by hand: an update would leave it missing). */
  complete(): boolean {
    return Object.keys(this.before).every((name) => this.present.has(name));
  }

  /** Stores `payload` (an object) as `name` with its generation, unless the file there already has it. */
  put(name: string, payload: object): string {
    const json = JSON.stringify(payload);
    const gen = genOf(json);
    this.gens[name] = gen;
    if (this.before[name] !== gen || !this.present.has(name)) {
      writeDerivedFile(
        path.join(this.dir, name),
        json === '{}' ? `{"digest":"${gen}"}` : `{"digest":"${gen}",${json.slice(1)}`,
      );
      this.present.add(name);
      this.written.push(name);
    }
    return gen;
  }

  /** The file `name` is no longer part of the heads. */
  drop(name: string): void {
    delete this.gens[name];
    if (this.present.delete(name)) fs.rmSync(path.join(this.dir, name), { force: true });
  }

  /** Removes every file the meta will not name, but `except`. */
  prune(except: string[]): void {
    for (const name of this.present) if (!Object.hasOwn(this.gens, name) && !except.includes(name)) this.drop(name);
  }
}
