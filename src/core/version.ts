/** memfold's version, from package.json (two folders up from src/core/ and from the bundles in dist/cli/). */
import { createRequire } from 'node:module';

export const VERSION: string = (createRequire(import.meta.url)('../../package.json') as { version: string }).version;
