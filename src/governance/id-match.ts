/**
 * Where a text names an entry id as a whole id (`X` never matches inside `X-2` or a longer CJK
 * slug). Ids hold CJK characters (DESIGN §5), so the boundary is Unicode-aware: an id ends where no
 * letter, digit, mark, `-` or `_` follows. An ASCII-only `\w` boundary took `NOTE-…-部署前检查` to be
 * named by `NOTE-…-部署前检查数据库迁移脚本`, and `forget --hard` deleted that other entry's id line.
 * Every id matcher (forget, trace, the weekly log) goes through this one helper.
 */
const ID_CHAR = String.raw`\p{L}\p{N}\p{M}_\-`;

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** A regex (no `g` flag, so `test` keeps no state) matching `id` as a whole id anywhere in a text. */
export function idMention(id: string): RegExp {
  return new RegExp(`(?<![${ID_CHAR}])${escape(id)}(?![${ID_CHAR}])`, 'u');
}
