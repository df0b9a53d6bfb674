/**
 * Strict UTF-8 decoding of a file memfold would rewrite. The usual decoding turns each byte that is
 * not UTF-8 into U+FFFD, and writing that back damages text a person wrote (Latin-1, say) for good:
 * callers refuse instead, naming the first bad line. A byte order mark is kept as it is.
 */
const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The text, or the lines (1-based) holding bytes that are not valid UTF-8. */
export function decodeUtf8(bytes: Uint8Array): { text: string } | { badLines: number[] } {
  try {
    return { text: UTF8.decode(bytes) };
  } catch {
    return { badLines: invalidLines(bytes) };
  }
}

function invalidLines(bytes: Uint8Array): number[] {
  const bad: number[] = [];
  for (let at = 0, line = 1; at < bytes.length; line++) {
    const end = bytes.indexOf(10, at);
    const stop = end < 0 ? bytes.length : end;
    try {
      UTF8.decode(bytes.subarray(at, stop));
    } catch {
      bad.push(line);
    }
    at = stop + 1;
  }
  return bad;
}
