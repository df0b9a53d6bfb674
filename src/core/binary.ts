/**
 * Whether a file is binary rather than text, judged on its first block as git does: a NUL byte in it.
 * No text memfold reads (UTF-8 Markdown, JSON lines) holds one. The index, the secret scan and the
 * transcript readers share this test, so they agree on which files are binary.
 */

export const BINARY_PROBE_BYTES = 8192;

export function looksBinary(buf: Uint8Array): boolean {
  return buf.subarray(0, BINARY_PROBE_BYTES).includes(0);
}
