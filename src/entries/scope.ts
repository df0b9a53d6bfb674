/**
 * The scope a project folder gives its entries, and how scopes are compared. A folder name may hold
 * spaces, control characters or a secret, which a scope cannot (model.ts SCOPE), so `mem import
 * claude-md "proj/my shop/CLAUDE.md"` writes `project:my-shop`; `mem context` run in that folder
 * once looked for `project:my shop` and never found the imported rules. Both name a folder here.
 */
import { redactSecrets } from '../extract/secrets.js';

/** Runs of what a scope name cannot hold; each becomes one `-`. */
const NOT_IN_A_NAME = /[\s\\\p{Cc}]+/gu;

/** `project:<folder name>`, the name through the secret gate and written as a scope can hold it. */
export function projectScope(folderName: string): string {
  return `project:${redactSecrets(folderName).text.replace(NOT_IN_A_NAME, '-')}`;
}

/** A scope as it is compared: case-insensitive, and `project:my shop` the same as `project:my-shop`. */
export function scopeKey(scope: string): string {
  return scope.trim().replace(NOT_IN_A_NAME, '-').toLowerCase();
}
