/**
 * The stamps of derived files (the heads, the id index, the ready packs, status's stored summary):
 * a 128-bit hash in plain JavaScript, four 32-bit multiply-xor lanes (two cyrb53 pairs with their
 * own seeds), so `mem get`, `mem context` and `mem status` do not load node:crypto (3-4 ms, sometimes
 * far more on a loaded machine) for a stamp. A stamp only has to tell one state of memory/ from
 * another state a person or a job made, not stand against someone forging a collision: a collision
 * would be a file crafted against this function, in a folder whose owner can as well edit `.mem/`.
 *
 * `Stamp` takes strings and numbers (a number as its 64 bits, not its text: turning 21,000 mtimes
 * into text cost more than hashing them), and gives 32 hex digits. Many short inputs go in as one
 * long string and one array: a loop run 7,000 times over 20 characters stays in the interpreter,
 * one loop over 140,000 is optimised while it runs.
 */
const F64 = new Float64Array(1);
const U32 = new Uint32Array(F64.buffer);

export class Stamp {
  private a = 0xdeadbeef;
  private b = 0x41c6ce57;
  private c = 0x9e3779b9;
  private d = 0x85ebca6b;

  private unit(x: number): this {
    this.a = Math.imul(this.a ^ x, 2654435761);
    this.b = Math.imul(this.b ^ x, 1597334677);
    this.c = Math.imul(this.c ^ x, 2246822519);
    this.d = Math.imul(this.d ^ x, 3266489917);
    return this;
  }

  /** Adds a string's UTF-16 units and its end (so "ab","c" differs from "a","bc"). */
  text(s: string): this {
    // The lanes in locals: unit() per character was a third of a 10,000-file listing's stamp.
    let { a, b, c, d } = this;
    for (let i = 0; i < s.length; i++) {
      const x = s.charCodeAt(i);
      a = Math.imul(a ^ x, 2654435761);
      b = Math.imul(b ^ x, 1597334677);
      c = Math.imul(c ^ x, 2246822519);
      d = Math.imul(d ^ x, 3266489917);
    }
    this.a = a;
    this.b = b;
    this.c = c;
    this.d = d;
    this.unit(0x10000 + s.length);
    return this;
  }

  /** Adds a number's 64 bits. */
  num(x: number): this {
    F64[0] = x;
    this.unit(U32[0]!);
    this.unit(U32[1]!);
    return this;
  }

  /** Adds each number's 64 bits, in one loop (many calls of num() run unoptimised in a short-lived process), then their count. */
  nums(xs: readonly number[]): this {
    let { a, b, c, d } = this;
    for (let i = 0; i < xs.length; i++) {
      F64[0] = xs[i]!;
      for (let j = 0; j < 2; j++) {
        const x = U32[j]!;
        a = Math.imul(a ^ x, 2654435761);
        b = Math.imul(b ^ x, 1597334677);
        c = Math.imul(c ^ x, 2246822519);
        d = Math.imul(d ^ x, 3266489917);
      }
    }
    this.a = a;
    this.b = b;
    this.c = c;
    this.d = d;
    return this.unit(0x20000 + (xs.length % 0x10000)).unit(Math.floor(xs.length / 0x10000));
  }

  hex(): string {
    let { a, b, c, d } = this;
    a = Math.imul(a ^ (a >>> 16), 2246822507) ^ Math.imul(b ^ (b >>> 13), 3266489909);
    b = Math.imul(b ^ (b >>> 16), 2246822507) ^ Math.imul(a ^ (a >>> 13), 3266489909);
    c = Math.imul(c ^ (c >>> 16), 2246822507) ^ Math.imul(d ^ (d >>> 13), 3266489909);
    d = Math.imul(d ^ (d >>> 16), 2246822507) ^ Math.imul(c ^ (c >>> 13), 3266489909);
    c ^= Math.imul(a ^ (a >>> 15), 0x27d4eb2d);
    d ^= Math.imul(b ^ (b >>> 15), 0x165667b1);
    return [a, b, c, d].map((x) => (x >>> 0).toString(16).padStart(8, '0')).join('');
  }
}

/** The stamp of some strings, each ended (so the parts cannot run into each other). */
export const stampOfTexts = (...parts: string[]): string => parts.reduce((h, p) => h.text(p), new Stamp()).hex();

/** A text's bucket among `n` (FNV-1a): where the id index and the chain links keep an id or a key. */
export function bucketOfText(text: string, n: number): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return (h >>> 0) % n;
}
