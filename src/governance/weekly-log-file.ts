/**
 * The weekly log, `memory/archive/weekly-YYYY-Www.md` (DESIGN §1, §5): what each compound run of the
 * week changed and why, with dates and ids. A run that changes nothing adds nothing, so running
 * compound twice leaves the log as it was. A run's block is written before any other file it
 * changes, so a run stopped part-way has still logged every flip it made.
 */
/** One line of a run's block: what compound did to an item, and the item. */
export interface LogLine {
  what:
    | 'promoted'
    | 'demoted'
    | 'held back'
    | 'superseded'
    | 'retracted'
    | 'blocked'
    | 'cycle'
    | 'suspected'
    | 'adopted'
    | 'kept'
    | 'over-budget';
  text: string;
}

export function weeklyLogFile(weekLabel: string): string {
  return `memory/archive/weekly-${weekLabel}.md`;
}

export function logHeader(weekLabel: string, firstDay: string, lastDay: string): string {
  return `# Weekly log ${weekLabel}\n\nWhat \`mem compound\` changed for ${firstDay} … ${lastDay}, and why. Entries are found by id (\`mem get <id>\`) wherever they live.\n`;
}

export function appendRun(
  current: string | undefined,
  header: string,
  runLabel: string,
  lines: Array<LogLine | string>,
): string {
  const base = current ?? header;
  const body = lines.map((l) => (typeof l === 'string' ? `- ${l}` : `- ${l.what}: ${l.text}`)).join('\n');
  return `${base.replace(/\n*$/, '\n')}\n## Run ${runLabel}\n\n${body}\n`;
}

/** Lines added to the last run's block (the log is written before the run's other files; see run.ts). */
export function addToLastRun(current: string, lines: string[]): string {
  return `${current.replace(/\n*$/, '\n')}${lines.map((l) => `- ${l}`).join('\n')}\n`;
}
