/**
 * The crontab block of one workspace, pure: rendering it and putting it into (or taking it out of) a
 * user's crontab text. The block is marked with the workspace path, so several workspaces coexist,
 * installing twice leaves one block, and uninstall removes exactly it and nothing of the user's.
 */

export interface JobCommand {
  job: string;
  /** Expression in the system's zone. */
  cron: string;
  argv: string[];
  env: Record<string, string>;
  log: string;
}

export function quote(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replaceAll("'", `'\\''`)}'`;
}

export const beginMarker = (ws: string) => `# >>> memfold ${ws} (managed by "mem schedule"; edits inside are replaced) >>>`;
export const endMarker = (ws: string) => `# <<< memfold ${ws} <<<`;

export function renderCronBlock(ws: string, jobs: JobCommand[], notes: string[] = []): string {
  const lines = [beginMarker(ws), ...notes.map((n) => `# ${n}`)];
  for (const j of jobs) {
    const env = Object.entries(j.env).map(([k, v]) => `${k}=${quote(v)}`).join(' ');
    lines.push(`${j.cron} ${env ? env + ' ' : ''}${j.argv.map(quote).join(' ')} >> ${quote(j.log)} 2>&1`);
  }
  lines.push(endMarker(ws));
  return lines.join('\n') + '\n';
}

/** `current` without this workspace's block (and the blank line it added). */
export function removeCronBlock(current: string, ws: string): string {
  const lines = current.split('\n');
  const out: string[] = [];
  let inside = false;
  for (const l of lines) {
    if (l === beginMarker(ws)) inside = true;
    else if (inside && l === endMarker(ws)) inside = false;
    else if (!inside) out.push(l);
  }
  // The blank line install put before the block goes with it.
  return out.join('\n').replace(/\n{3,}/g, '\n\n').replace(/^\n+/, '').replace(/\n\n+$/, '\n');
}

export function installCronBlock(current: string, ws: string, block: string): string {
  const rest = removeCronBlock(current, ws).replace(/\n*$/, '');
  return rest ? `${rest}\n\n${block}` : block;
}
