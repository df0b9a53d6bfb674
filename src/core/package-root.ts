/**
 * memfold's own folder (where its package.json is) and the files of its build output that are run
 * or read by path: the search server's entry, the worker threads' scripts, the build stamp. Found by
 * walking up to the nearest package.json named memfold, so the answer holds at any depth: dist's ES
 * modules, a CommonJS bundle (whose import.meta.url names one file for all its modules:
 * scripts/bundle.mjs) and src/ under tsx (which then runs dist's files: `npm run build` first).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

interface Package {
  root: string;
  version: string;
}

function findPackage(): Package {
  const start = path.dirname(fileURLToPath(import.meta.url));
  for (let dir = start; ; dir = path.dirname(dir)) {
    try {
      const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as {
        name?: string;
        version?: string;
      };
      if (pkg.name === 'memfold')
        return { root: dir, version: typeof pkg.version === 'string' ? pkg.version : 'unknown' };
    } catch {
      // No package.json here (or not JSON): look one folder up.
    }
    if (path.dirname(dir) === dir) return { root: path.resolve(start, '../..'), version: 'unknown' };
  }
}

let found: Package | undefined;
const own = (): Package => (found ??= findPackage());

/** memfold's version, from its package.json. */
export const ownVersion = (): string => own().version;

/** The package's folder (falls back to two folders above this module's, where it is in src/ and dist/). */
export const packageRoot = (): string => own().root;

/** A file of the build output by its path below dist/, e.g. `cli/search-server.js`. */
export const distFile = (rel: string): string => path.join(own().root, 'dist', ...rel.split('/'));
