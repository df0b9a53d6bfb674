/**
 * What a child process of the CLI loads, for the tests that keep start-up lean: every CommonJS file
 * (require.cache at exit: bin/mem.cjs's bundle and required packages), every ES module (a resolve
 * hook) and every Node built-in (process.moduleLoadList, e.g. `NativeModule zlib`), one per line.
 * Code inside the bundle (dist/cli/first.cjs) is one file: only packages and built-ins tell it apart.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export function loadRecorder(dir: string): { env: Record<string, string>; take(): string } {
  const log = join(dir, 'loaded.txt');
  writeFileSync(
    join(dir, 'preload.cjs'),
    `process.on('exit', () => require('node:fs').appendFileSync(${JSON.stringify(log)}, [...Object.keys(require.cache), ...process.moduleLoadList].join('\\n') + '\\n'));\n`,
  );
  writeFileSync(
    join(dir, 'hooks.mjs'),
    `import fs from 'node:fs';\nexport async function resolve(s, c, next) { const r = await next(s, c); fs.appendFileSync(${JSON.stringify(log)}, r.url + '\\n'); return r; }\n`,
  );
  writeFileSync(
    join(dir, 'register.mjs'),
    `import { register } from 'node:module';\nregister(${JSON.stringify('file://' + join(dir, 'hooks.mjs'))});\n`,
  );
  writeFileSync(log, '');
  return {
    env: { NODE_OPTIONS: `--require=${join(dir, 'preload.cjs')} --import=${join(dir, 'register.mjs')}` },
    /** What was loaded since the last take(). */
    take: () => {
      const text = readFileSync(log, 'utf8');
      writeFileSync(log, '');
      return text;
    },
  };
}
