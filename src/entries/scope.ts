/**
 * The scope a project folder gives its entries (scope-key.ts compares scopes). A folder name may hold
 * spaces, control characters or a secret, which a scope cannot (model.ts SCOPE), so `mem import
 * claude-md "proj/my shop/CLAUDE.md"` writes `project:my-shop`; `mem context` run in that folder
 * once looked for `project:my shop` and never found the imported rules. Both name a folder here.
 */
import { redactSecrets } from '../secrets/secrets.js';
import { NOT_IN_A_NAME } from './scope-key.js';

/**
 * Names the secret gate of this very version is known to leave whole: the heads' project scopes,
 * each checked when the heads were built (heads-store.ts), so `mem context` run in a project's folder
 * skips the scan (its first call compiles every pattern: 5-10 ms). Only ever a shortcut to the result
 * the gate gives.
 */
const passed = new Set<string>();

export function passedSecretGate(names: readonly string[]): void {
  for (const n of names) passed.add(n);
}

/** `project:<folder name>`, the name through the secret gate and written as a scope can hold it. */
export function projectScope(folderName: string): string {
  return `project:${(passed.has(folderName) ? folderName : redactSecrets(folderName).text).replace(NOT_IN_A_NAME, '-')}`;
}
