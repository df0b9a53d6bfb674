/**
 * The crontab block of one workspace, pure: rendering it and putting it into (or taking it out of) a
 * user's crontab text. The block is marked with the workspace path, so several workspaces coexist,
 * installing twice leaves one block, and uninstall removes exactly it and nothing of the user's.
 * A block whose end marker was edited away loses only its own lines (its marker, job lines and
 * notes), never the user's lines that now follow it.
 */
import { quote } from '../core/shell-quote.js';

export interface JobCommand {
  job: string;
  /** Expression in the system's zone. */
  cron: string;
  argv: string[];
  env: Record<string, string>;
  log: string;
}

/** A line's command as cron reads it: an unescaped `%` ends it (crontab(5)); cron drops the `\` of `\%`. */
const cronCommand = (s: string) => s.replaceAll('%', '\\%');

export const beginMarker = (ws: string) =>
  `# >>> memfold ${ws} (managed by "mem schedule"; edits inside are replaced) >>>`;
export const endMarker = (ws: string) => `# <<< memfold ${ws} <<<`;

export function renderCronBlock(ws: string, jobs: JobCommand[], notes: string[] = []): string {
  const lines = [beginMarker(ws), ...notes.map((n) => `# ${n}`)];
  for (const j of jobs) {
    const env = Object.entries(j.env)
      .map(([k, v]) => `${k}=${quote(v)}`)
      .join(' ');
    lines.push(
      `${j.cron} ${cronCommand(`${env ? env + ' ' : ''}${j.argv.map(quote).join(' ')} >> ${quote(j.log)} 2>&1`)}`,
    );
  }
  lines.push(endMarker(ws));
  return lines.join('\n') + '\n';
}

/** A line `renderCronBlock` writes for this workspace: a job line or a note about one. */
function isOwnLine(l: string, ws: string): boolean {
  if (l.startsWith('#')) return /^# \w+: ".*" in the system's zone /.test(l);
  return l.includes(' MEM_TRIGGER=cron ') && l.includes(` -C ${cronCommand(quote(ws))} `) && l.endsWith(' 2>&1');
}

/** The jobs this workspace's block in `current` runs (what `mem status` calls scheduled by cron). */
export function blockJobs(current: string, ws: string): string[] {
  const lines = current.split('\n');
  const begin = lines.indexOf(beginMarker(ws));
  if (begin < 0) return [];
  const end = lines.indexOf(endMarker(ws), begin + 1);
  return lines
    .slice(begin + 1, end < 0 ? undefined : end)
    .filter((l) => !l.startsWith('#') && isOwnLine(l, ws))
    .flatMap((l) => / (\w+) >> /.exec(l)?.[1] ?? []);
}

/** `current` without this workspace's block (and the blank line it added). */
export function removeCronBlock(current: string, ws: string): string {
  const lines = current.split('\n');
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (lines[i] !== beginMarker(ws)) {
      out.push(lines[i]!);
      continue;
    }
    const next = lines.indexOf(beginMarker(ws), i + 1);
    const stop = next < 0 ? lines.length : next;
    const end = lines.indexOf(endMarker(ws), i + 1);
    if (end >= 0 && end < stop) {
      i = end;
      continue;
    }
    // No end marker (edited away): which lines were the block's is unknown, so only its own kind go.
    out.push(...lines.slice(i + 1, stop).filter((l) => !isOwnLine(l, ws)));
    i = stop - 1;
  }
  // The blank line install put before the block goes with it.
  return out
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .replace(/^\n+/, '')
    .replace(/\n\n+$/, '\n');
}

export function installCronBlock(current: string, ws: string, block: string): string {
  const rest = removeCronBlock(current, ws).replace(/\n*$/, '');
  return rest ? `${rest}\n\n${block}` : block;
}
