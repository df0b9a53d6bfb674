/**
 * Where the package's own files are: templates/ (what `mem init` writes) and MEMORY.md.example
 * (which context and compound compare a MEMORY.md against, to tell the untouched template). A module
 * of its own, two folders below the package root, so the readers that need the example path load
 * neither `mem init` nor the configuration schema, and a bundle that defines import.meta.url as a
 * file two folders below the root (scripts/bundle.mjs) finds the same files.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const TEMPLATES_DIR = path.join(ROOT, 'templates');
export const MEMORY_EXAMPLE = path.join(ROOT, 'MEMORY.md.example');
