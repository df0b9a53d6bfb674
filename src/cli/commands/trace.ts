/** `mem trace <id>`: an entry's supersedes chain with dates, statuses and weekly-log lines; reads only. */
import type { Command } from 'commander';
import { commandContext, type GlobalOptions } from '../context.js';
import { MemError } from '../../core/errors.js';
import { readEntryTable } from '../../entries/table-store.js';
import { buildTrace, formatTrace, type Trace } from '../../governance/trace.js';
import { findLogLines, type LogHit } from '../../governance/weekly-log.js';

/** The trace of `id` with the weekly-log lines of every entry in its chain (shared with the MCP tool). */
export async function traceOf(workspace: string, id: string): Promise<Trace> {
  // A chain needs only the table's fields (entries/table.ts): no daily file is parsed unless it changed.
  const { records } = await readEntryTable(workspace);
  const chain = buildTrace(records, id, () => []);
  if (!chain) throw new MemError('NOT_FOUND', `no entry with id ${id}`);
  const logs = new Map<string, LogHit[]>();
  for (const s of chain.chain) logs.set(s.id, await findLogLines(workspace, s.id));
  return buildTrace(records, id, (x) => logs.get(x) ?? [])!;
}

export function registerTrace(program: Command): void {
  program
    .command('trace')
    .argument('<id>', 'entry id')
    .description("an entry's whole supersedes chain, oldest to newest, with statuses and the weekly-log lines that changed them")
    .addHelpText('after', '\nExamples:\n  mem trace DECISION-20261120-move-the-event-store-to-postgresql\n  mem trace RULE-20261120-cap-uploads-at-25-mb --json | jq .current')
    .action(async (id: string, _o: unknown, cmd: Command) => {
      const { workspace, out } = commandContext(cmd.optsWithGlobals<GlobalOptions>());
      const t = await traceOf(workspace, id);
      out.json(t);
      out.result(formatTrace(t));
    });
}
