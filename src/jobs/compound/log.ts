/**
 * The weekly log, `memory/archive/weekly-YYYY-Www.md` (DESIGN §1, §5): what each compound run of the
 * week changed and why, with dates and ids. A run that changes nothing adds nothing, so running
 * compound twice leaves the log as it was.
 */
import type { LogLine } from './plan.js';

export function weeklyLogFile(weekLabel: string): string {
  return `memory/archive/weekly-${weekLabel}.md`;
}

export function logHeader(weekLabel: string, firstDay: string, lastDay: string): string {
  return `# Weekly log ${weekLabel}\n\nWhat \`mem compound\` changed for ${firstDay} … ${lastDay}, and why. Entries are found by id (\`mem get <id>\`) wherever they live.\n`;
}

export function appendRun(current: string | undefined, header: string, runLabel: string, lines: Array<LogLine | string>): string {
  const base = current ?? header;
  const body = lines.map((l) => (typeof l === 'string' ? `- ${l}` : `- ${l.what}: ${l.text}`)).join('\n');
  return `${base.replace(/\n*$/, '\n')}\n## Run ${runLabel}\n\n${body}\n`;
}
