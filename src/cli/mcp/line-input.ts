/**
 * stdin for the MCP stdio transport, with a line break added after a last line that has none. The
 * SDK's transport reads whole lines only, so a client that wrote its last request without a newline
 * and closed stdin got no answer to it.
 */
import { Transform, type Readable } from 'node:stream';

export function terminatedLines(input: Readable): Transform {
  let last = 0x0a;
  const out = new Transform({
    transform(chunk: Buffer, _enc, done) {
      if (chunk.length) last = chunk[chunk.length - 1]!;
      done(null, chunk);
    },
    flush(done) {
      done(null, last === 0x0a ? undefined : Buffer.from('\n'));
    },
  });
  input.pipe(out);
  return out;
}
