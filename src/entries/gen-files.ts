/**
 * Derived files that each carry their own generation (a hash of what they hold), named by a meta
 * file written last (the heads in `.mem/entries/heads/`): a refresh rewrites only the files whose
 * content changed, and a reader takes a file only when its generation is the one the meta names, so
 * an unchanged file stays untouched on disk and a file of another build, forged or half-written,
 * reads as missing.
 *
 * Invariant: `put` writes a file whose content hashes to the generation it records, unless a file
 * of that very generation is already there; a file the new meta does not name is removed by `prune`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { readDerivedJson, writeDerivedFile } from '../write/atomic.js';
import { stampOfTexts } from './heads-hash.js';

export const genOf = (json: string) => stampOfTexts(json).slice(0, 16);

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

/** The file `name` of `dir` when it carries generation `gen`; else undefined. */
export function readGenFile(dir: string, name: string, gen: string): Record<string, unknown> | undefined {
  const v = readDerivedJson(path.join(dir, name)) as Record<string, unknown> | undefined;
  return v && typeof v === 'object' && v.digest === gen ? v : undefined;
}
