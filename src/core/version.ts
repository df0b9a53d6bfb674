/** memfold's version, from its own package.json (core/package-root.ts finds it at any depth). */
import { ownVersion } from './package-root.js';

export const VERSION: string = ownVersion();
