/**
 * What the secret table's sections (secret-vendor-patterns.ts, secret-service-patterns.ts,
 * secret-shape-patterns.ts, secret-labelled-patterns.ts and the rest) are written with: the shape of
 * a pattern and of a match, and the checks more than one section uses. The rules every pattern keeps are in secret-patterns.ts.
 */

export interface PatternMatch {
  m: RegExpExecArray;
  /** The secret as it will be replaced (trimmed when unquoted). */
  value: string;
  /** The value before trimming, to see how it ended (`pw)`, `x;`). */
  raw: string;
  /** Whether the value came from a quoted group. */
  quoted: boolean;
  /** Offset just past the untrimmed value, to look at what follows it. */
  rawEnd: number;
  text: string;
}

export interface SecretPattern {
  /** Every kind this pattern can report; the first is its default. */
  kinds: readonly [string, ...string[]];
  re: RegExp;
  /** false rejects the match; a string names its kind (one of `kinds`). */
  check?: (p: PatternMatch) => boolean | string;
  /**
   * Sticky regex for what continues an accepted unquoted value past the pattern's length bound. The bound
   * keeps rejected matches cheap on long runs (1 MB of base64); the tail keeps a long accepted
   * value from leaking its end.
   */
  tail?: RegExp;
}

export function re(source: string, flags = ''): RegExp {
  return new RegExp(source, `gd${flags}`);
}

/** Prefixed tokens whose body mixes `-`/`_` must hold a long random run, so `sk-2024-notes-v2` is prose. */
export function hasRandomRun(v: string): boolean {
  return /(?=[A-Za-z0-9]{16})(?=[A-Za-z0-9]{0,15}\d)(?=[A-Za-z0-9]{0,15}[A-Za-z])/.test(v);
}

/** Whether a letter or digit comes right before the match (it is glued to a word). */
export function afterWordChar(p: PatternMatch): boolean {
  return /[A-Za-z0-9]/.test(p.m.input[p.m.index - 1] ?? '');
}

export function hasDigit(p: PatternMatch): boolean {
  return /\d/.test(p.value);
}

/** A kind named by the pattern's `label` group (its first letters), else the fallback. */
export function byLabel(table: Record<string, string>, fallback: string) {
  return (p: PatternMatch): string => {
    const label = (p.m.groups?.label ?? '').toLowerCase();
    for (const [prefix, kind] of Object.entries(table)) if (label.startsWith(prefix)) return kind;
    return fallback;
  };
}
