/** `mem import openclaw|claude-md|codex|claude-memory <path>`: adopt another memory's Markdown as entries; re-running adds nothing. */
import type { Command } from 'commander';
import { commandContext, type GlobalOptions } from '../context.js';
import { runImport } from '../../jobs/import.js';
import { refreshIndex } from './refresh-index.js';
import { count } from '../../core/count.js';

export function registerImport(program: Command): void {
  program
    .command('import')
    .argument(
      '<kind>',
      "openclaw (a workspace folder with MEMORY.md and memory/*.md), claude-md (a CLAUDE.md or its folder), codex (Codex's memories folder) or claude-memory (a ~/.claude/projects/<project>/memory folder)",
    )
    .argument('[path]', 'what to import (read only, never changed); codex default: ~/.codex/memories')
    .description(
      "adopt another memory as entries: OpenClaw's, a CLAUDE.md, Codex's memories or Claude Code's auto memory (origin manual, sources naming the file and lines)",
    )
    .option(
      '--scope <scope>',
      'scope for the imported entries (claude-md default: project:<folder of the CLAUDE.md>, or global for ~/.claude; codex: global; claude-memory: project:<the project folder>, user memories global)',
    )
    .option('--dry-run', 'print what would be added, write nothing')
    .addHelpText(
      'after',
      '\nExamples:\n  mem import openclaw ~/.openclaw/workspace\n  mem import claude-md ~/code/shop/CLAUDE.md --dry-run\n  mem import claude-md ~/.claude/CLAUDE.md --json\n  mem import codex --dry-run\n  mem import claude-memory ~/.claude/projects/-home-me-shop/memory',
    )
    .action(async (kind: string, given: string | undefined, o: { scope?: string; dryRun?: boolean }, cmd: Command) => {
      const { workspace, loaded, now, out } = commandContext(cmd.optsWithGlobals<GlobalOptions>());
      const r = await runImport({ workspace, loaded, now, kind, path: given, scope: o.scope, dryRun: !!o.dryRun });
      if (!r.dryRun && r.added.length) await refreshIndex(workspace, loaded, out);
      for (const w of r.warnings) out.warn(w);
      if (r.redacted) out.warn(`${count(r.redacted, 'secret')} redacted before writing`);
      out.json(r);
      const verb = r.dryRun ? 'would add' : 'added';
      out.result(
        [
          ...r.added.map((a) => `${verb} ${a.id} (${a.from}) to ${a.file}`),
          `import ${r.kind}: ${count(r.files.length, 'file')}, ${count(r.items, 'item')}, ${r.added.length} ${verb}, ${r.skipped} already held`,
        ].join('\n'),
      );
    });
}
