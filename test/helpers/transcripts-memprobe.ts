/**
 * Child process for the bounded-memory test: streams a file through readLines with gc() before every
 * sample, so the peak of live ArrayBuffer memory is what the reader holds, not uncollected garbage.
 * Usage: node --expose-gc --import tsx transcripts-memprobe.ts <file> <maxLineBytes>
 */
import { readLines } from '../../src/transcripts/lines.js';

const [file, max] = process.argv.slice(2);
const gc = (globalThis as { gc?: () => void }).gc;
if (!file || !max || !gc)
  throw new Error('usage: node --expose-gc --import tsx transcripts-memprobe.ts <file> <maxLineBytes>');
const sample = () => {
  gc();
  return process.memoryUsage().arrayBuffers;
};
const baseline = sample();
let peak = baseline;
let skipped = 0;
const lines: number[] = [];
for await (const line of readLines(file, {
  maxLineBytes: Number(max),
  onBytes: () => (peak = Math.max(peak, sample())),
  onLongLine: () => (skipped += 1),
})) {
  lines.push(line.text.length);
}
process.stdout.write(JSON.stringify({ growth: peak - baseline, skipped, lines }));
