/**
 * How scopes are compared, everywhere one is matched (`mem context`, `mem search --scope`): a folder
 * name may hold spaces or control characters, which a written scope cannot, so `project:My Shop`,
 * `project:my shop` and `project:my-shop` are one scope. No imports: the lean search path loads it.
 */

/** Runs of what a scope name cannot hold; each becomes one `-`. */
export const NOT_IN_A_NAME = /[\s\\\p{Cc}]+/gu;

/** A scope as it is compared: case-insensitive, and `project:my shop` the same as `project:my-shop`. */
export function scopeKey(scope: string): string {
  return scope.trim().replace(NOT_IN_A_NAME, '-').toLowerCase();
}
