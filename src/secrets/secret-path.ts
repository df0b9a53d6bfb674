/**
 * A file path through the secret gate (`session_path`, the paths in warnings): a folder or file name
 * can hold a token or a `key=value`. Each name is redacted as text of its own, after the whole path:
 * a label right after `/` is no label to the text patterns (in prose that `/` is a URL's or a path's,
 * `a/password=x` reads as a path), so `…/notes-password=<value>.jsonl` kept its value.
 */
import { redactSecrets } from './secrets.js';

export function redactPath(path: string): string {
  return redactSecrets(path)
    .text.split(/([/\\])/)
    .map((part, i) => (i % 2 === 1 ? part : redactSecrets(part).text))
    .join('');
}
