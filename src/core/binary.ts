/**
 * Whether a file is binary rather than text, judged on its first block. Two tests, for two needs:
 * - looksBinary, git's rule: a NUL byte in the block. No text memfold reads (UTF-8 Markdown, JSON
 *   lines) holds one, so the index and the transcript readers leave such a file out.
 * - dataReason, for the secret scan, which must not leave out text that merely holds a stray NUL (a
 *   `.md` with one NUL once hid the key below it from `mem lint --secrets`): a block is data only
 *   when most of it is not text, as an image, a gzip or UTF-16 is.
 */

export const BINARY_PROBE_BYTES = 8192;

/** Random bytes decode to ~40% U+FFFD; text with some stray Latin-1 bytes to a few percent. */
const MAX_INVALID_SHARE = 0.25;
/** UTF-16 text is ~50% NUL; UTF-8 text with stray NULs, a few. */
const MAX_NUL_SHARE = 0.25;

export function looksBinary(buf: Uint8Array): boolean {
  return buf.subarray(0, BINARY_PROBE_BYTES).includes(0);
}

/** More than a quarter of the block is not UTF-8 (compressed or random bytes). */
export function mostlyNotUtf8(block: Uint8Array): boolean {
  // `stream`: a character cut by the block's end is not counted as invalid.
  const text = new TextDecoder().decode(block, { stream: true });
  let invalid = 0;
  for (let i = text.indexOf('\uFFFD'); i !== -1; i = text.indexOf('\uFFFD', i + 1)) invalid += 1;
  return invalid > block.length * MAX_INVALID_SHARE;
}

/** Why a file whose first block this is cannot be read as text, or undefined when it can. */
export function dataReason(block: Uint8Array): string | undefined {
  const probe = block.subarray(0, BINARY_PROBE_BYTES);
  let nul = 0;
  for (let i = probe.indexOf(0); i !== -1; i = probe.indexOf(0, i + 1)) nul += 1;
  if (nul > probe.length * MAX_NUL_SHARE) return 'mostly NUL bytes';
  return mostlyNotUtf8(probe) ? 'mostly not UTF-8' : undefined;
}
