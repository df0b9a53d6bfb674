/**
 * The scope a project folder gives its entries (scope-key.ts compares scopes). A folder name may hold
 * spaces, control characters or a secret, which a scope cannot (model.ts SCOPE), so `mem import
 * claude-md "proj/my shop/CLAUDE.md"` writes `project:my-shop`; `mem context` run in that folder
 * once looked for `project:my shop` and never found the imported rules. Both name a folder here.
 */
import { redactSecrets } from '../secrets/secrets.js';
import { NOT_IN_A_NAME } from './scope-key.js';

/** `project:<folder name>`, the name through the secret gate and written as a scope can hold it. */
export function projectScope(folderName: string): string {
  return `project:${redactSecrets(folderName).text.replace(NOT_IN_A_NAME, '-')}`;
}
