/**
 * Secrets said without a label the labelled section knows, the last section of the table
 * (secret-patterns.ts): a key-shaped random token after "use" or "key is", a password pasted bare
 * after an e-mail address, a token cut in two over two messages (a vendor prefix with too short a
 * body; a message that is nothing but a random token), an AWS secret key ending a sentence. Each
 * value must look random (secret-values.ts looksRandom plus a mix of cases and digits), so git SHAs
 * (lowercase hex), UUIDs (hex in dashed groups), entry ids (`NOTE-20261122-words`) and words pass.
 */
import type { PatternMatch, SecretPattern } from './secret-pattern-kit.js';
import { re } from './secret-pattern-kit.js';
import { looksRandom } from './secret-values.js';

/** Upper and lower case and a digit, as random bytes in base62 nearly always are; never hex alone, never a UUID or an entry id. */
export function keyShaped(v: string): boolean {
  if (/^[0-9a-f-]+$/i.test(v) && !/[g-z]/i.test(v)) return false; // hex: a SHA, a UUID
  if (/^[A-Z]+-\d{8}-/.test(v)) return false; // an entry id
  if (/^[a-z]{2,12}_/.test(v)) return false; // a typed id: msg_…, toolu_…, req_… (vendor tokens have their own shapes)
  return /[a-z]/.test(v) && /[A-Z]/.test(v) && /\d/.test(v) && looksRandom(v);
}

const keyShapedMatch = (p: PatternMatch) => keyShaped(p.value);

export const LOOSE_PATTERNS: readonly SecretPattern[] = [
  {
    kinds: ['api-key'],
    // "use q8Zk3vN1…", "the key is q8Zk3vN1…", "with key q8Zk…": a token where a key is named by the sentence.
    re: re(
      String.raw`\b(?:use|using|key(?:[ \t]+(?:is|was))?|with)[ \t]*:?[ \t]+["'\x60]?(?<v>[A-Za-z0-9_+/-]{20,256})(?![\w+/=-])`,
      'i',
    ),
    check: keyShapedMatch,
  },
  {
    kinds: ['password'],
    // "alice@example.com Sup3rS3cret!" / "alice@example.com / hunter2Pass": a login pasted with its password.
    re: re(
      String.raw`[\w.+-]{1,64}@[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63}){1,8}(?:[ \t]*[/|:,][ \t]*|[ \t]+)(?<v>[\x21-\x7e]{8,128})(?![\x21-\x7e])`,
    ),
    check: (p) =>
      !p.value.includes('@') &&
      !/^[a-z]+:\/\//i.test(p.value) &&
      looksRandom(p.value) &&
      /[A-Z!@#$%^&*+=?~]/.test(p.value),
  },
  {
    kinds: ['github-pat', 'github-oauth-token', 'github-user-token', 'github-app-token', 'github-refresh-token'],
    // The first half of a GitHub token pasted over two messages: the prefix and a body too short for the whole.
    re: re(String.raw`(?<![A-Za-z0-9])(?<label>gh[pousr])_(?<v>[A-Za-z0-9]{12,35})(?![A-Za-z0-9])`),
    check: (p) => /\d/.test(p.value) && /[A-Za-z]/.test(p.value),
  },
  {
    kinds: ['token'],
    // The second half: a message (or line) that is nothing but a random token.
    re: re(String.raw`(?<=^|\n)[ \t]*(?<v>[A-Za-z0-9_-]{16,256})[ \t]*(?=\r?\n|$)`),
    check: keyShapedMatch,
  },
];
