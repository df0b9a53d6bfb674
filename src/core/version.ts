/**
 * memfold's version, from its own package.json: the nearest one named memfold above this module, so
 * the answer holds at any depth (src/core/, dist/core/, and a bundle whose import.meta.url names a file
 * deeper in dist/, as the index bundle's names dist/search/index/ for its worker threads).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

function ownVersion(): string {
  for (let dir = path.dirname(fileURLToPath(import.meta.url)); ; dir = path.dirname(dir)) {
    try {
      const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as {
        name?: string;
        version?: string;
      };
      if (pkg.name === 'memfold' && typeof pkg.version === 'string') return pkg.version;
    } catch {
      // No package.json here (or not JSON): look one folder up.
    }
    if (path.dirname(dir) === dir) return 'unknown';
  }
}

export const VERSION: string = ownVersion();
