/**
 * Secrets inside base64: `base64 ~/.aws/credentials` or a slice of a PEM key encoded again reads as
 * one opaque run no pattern knows, and was stored verbatim. A run of 32 or more base64 characters
 * that decodes to text is scanned as text (by the caller's own scanner, so nesting is followed), and
 * one that decodes to key material (a long random base64 run: a PEM body's lines) counts too.
 */

const RUN = /(?<![A-Za-z0-9+/=])[A-Za-z0-9+/]{32,}={0,2}(?![A-Za-z0-9+/=])/g;

/** Mostly printable text (a decoded credentials file, a PEM), not binary. */
function textual(s: string): boolean {
  if (s.length === 0) return false;
  let printable = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if ((c >= 0x20 && c < 0x7f) || c === 0x0a || c === 0x0d || c === 0x09) printable++;
  }
  return printable / s.length > 0.95;
}

/** A base64 body of key material: a long run mixing cases and digits. */
const keyMaterial = (s: string) =>
  /[A-Za-z0-9+/]{40,}/.test(s) &&
  [...s.matchAll(/[A-Za-z0-9+/]{40,}/g)].some((m) => /[a-z]/.test(m[0]) && /[A-Z]/.test(m[0]) && /\d/.test(m[0]));

/** Spans of base64 runs in `text` whose decoded text `hasSecret` flags or that hold key material. */
export function base64Secrets(text: string, hasSecret: (decoded: string) => boolean): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  if (text.length < 32) return out;
  for (const m of text.matchAll(RUN)) {
    const decoded = Buffer.from(m[0], 'base64').toString('latin1');
    if (textual(decoded) && (keyMaterial(decoded) || hasSecret(decoded))) out.push([m.index, m.index + m[0].length]);
  }
  return out;
}
