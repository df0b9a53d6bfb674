/**
 * The table of secret shapes that `secrets.ts` scans for (key names: secret-keys.ts; the value
 * heuristics of the labelled shapes: secret-values.ts; the regex fragments the shapes are built
 * from: secret-fragments.ts). Invariant 5 (DESIGN §9) depends on this table: a shape missing here
 * is a secret that reaches the memory folder or an LLM.
 *
 * Rules every pattern keeps (they are what makes redaction fast and idempotent):
 * - flags `gd`; the secret is the first participating named group whose name starts with `v`
 *   (`vq…` quoted content, `vl…` a quoted value still open at its bound, continued by
 *   LONG_QUOTE_TAILS, `vu…` unquoted and trimmed of trailing punctuation), else the whole match;
 * - every quantifier is bounded or followed by a class it cannot overlap, so a scan is linear in
 *   the input (no nested ambiguous repeats: a 1 MB transcript must not stall microsync);
 * - a bounded unquoted value has a `tail` of its own class, so an accepted value longer than the
 *   bound is removed whole ("my password is <300 characters>" must not leak its last 44);
 * - labels (keys, `Bearer`, `密码：`, `scheme://user:`) stay outside the secret group, so the
 *   redacted text still reads as a sentence.
 * Order is priority: when two shapes cover the same characters, the earlier one names the kind, so
 * vendor prefixes come before structural shapes, which come before labelled guesses.
 */
import { COMMAND_PATTERNS } from './secret-command-patterns.js';
import { LABELLED_PATTERNS } from './secret-labelled-patterns.js';
import { LOOSE_PATTERNS } from './secret-loose-patterns.js';
import type { SecretPattern } from './secret-pattern-kit.js';
import { PROSE_PATTERNS } from './secret-prose-patterns.js';
import { SERVICE_PATTERNS } from './secret-service-patterns.js';
import { SHAPE_PATTERNS } from './secret-shape-patterns.js';
import { VENDOR_PATTERNS } from './secret-vendor-patterns.js';

export type { PatternMatch, SecretPattern } from './secret-pattern-kit.js';

export const SECRET_PATTERNS: readonly SecretPattern[] = [
  ...VENDOR_PATTERNS,
  ...SERVICE_PATTERNS,
  ...SHAPE_PATTERNS,
  ...LABELLED_PATTERNS,
  ...COMMAND_PATTERNS,
  ...PROSE_PATTERNS,
  ...LOOSE_PATTERNS,
];

/** Every kind a marker can name, in table order. */
export const SECRET_KINDS: readonly string[] = [...new Set(SECRET_PATTERNS.flatMap((p) => p.kinds))];
