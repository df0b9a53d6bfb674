/** `mem get <id>`: one entry, with its file and lines. */
import type { Command } from 'commander';
import { commandContext, type GlobalOptions } from '../context.js';
import { c } from '../../terminal/output.js';
import { MemError } from '../../core/errors.js';
import { entryJson } from '../../entries/json.js';
import { readEntryTable } from '../../entries/table-store.js';
import { appendUsage } from '../../runlog/usage-log.js';

export function registerGet(program: Command): void {
  program
    .command('get')
    .argument('<id>', 'entry id, e.g. DECISION-20261121-move-event-store-to-postgresql')
    .description('print one entry with its file and line')
    .addHelpText('after', '\nExamples:\n  mem get RULE-20261120-every-migration-needs-a-rollback-script\n  mem get DECISION-20261121-放弃-redis-缓存-改用本地-lru --json')
    .action(async (id: string, _o: unknown, cmd: Command) => {
      const { workspace, now, out } = commandContext(cmd.optsWithGlobals<GlobalOptions>());
      const table = await readEntryTable(workspace);
      const found = table.records.filter((r) => r.id === id);
      if (!found[0]) throw new MemError('NOT_FOUND', `no entry with id ${id} (find ids with "mem search" or "mem export")`);
      const r = await table.whole(found[0]);
      if (found.length > 1) out.warn(`${found.length} entries share id ${id}; showing the first (run "mem lint")`);
      out.json(entryJson(r));
      out.result(`${c.dim(`${r.file}:${r.block.startLine}-${r.block.endLine}`)}\n${r.block.raw.trimEnd()}`);
      const warning = await appendUsage(workspace, now, 'access', 'get', [id]);
      if (warning) out.info(warning);
    });
}
