/**
 * The launchd label prefix of a workspace's agents (`com.memfold.<hash of its real path>.`): what
 * install writes and what `mem status` and uninstall look for. Apart from launchd.ts, whose plist
 * rendering loads luxon, so a status on Linux reads the LaunchAgents folder name only.
 */
import { createHash } from 'node:crypto';

export function labelPrefix(ws: string): string {
  return `com.memfold.${createHash('sha256').update(ws).digest('hex').slice(0, 12)}.`;
}
