/** `mem context`: the layered memory pack an agent reads at session start (stdout; see docs/agents.md). */
import type { Command } from 'commander';
import { commandContext, type GlobalOptions } from '../context.js';
import { MemError } from '../../core/errors.js';

export function registerContext(program: Command): void {
  program
    .command('context')
    .description('print the memory pack for an agent session: core memory (MEMORY.md pinned text and promotions, global rules and preferences), the project\'s rules, preferences, open tasks, goals and newest decisions, and query hits, within a token budget')
    .option('--scope <scope>', 'scope of layer 1, e.g. project:shop (default: project:<name of the current folder>)')
    .option('--query <text>', 'also include memories a search for this finds (layer 2)')
    .option('--budget <tokens>', 'token budget (o200k_base tokens), 50-200000', '2000')
    .option('--format <format>', 'md | json (--json is the same as --format json)', 'md')
    .option('--hook <host>', 'claude | codex: read the host\'s hook JSON on stdin (SessionStart: the pack for its cwd; UserPromptSubmit: only hits for the prompt, budget 600); any failure is one stderr line and exit 0')
    .option('--evidence', 'add up to 2 short transcript excerpts to each query item with confidence below 0.8, inside the budget')
    .addHelpText('after', [
      '',
      'Examples:',
      '  mem context',
      '  mem context --scope project:shop --query "deploy rollback" --budget 1200',
      '  MEM_WORKSPACE=~/memory mem context --format json | jq .tokens',
      '  echo \'{"hook_event_name":"SessionStart","cwd":"\'"$PWD"\'"}\' | mem context --hook claude',
      '',
      'The pack is wrapped in <memfold-context>…</memfold-context>, which microsync never extracts again.',
    ].join('\n'))
    .action(async (o: { scope?: string; query?: string; budget: string; format: string; evidence?: boolean; hook?: string }, cmd: Command) => {
      const g = cmd.optsWithGlobals<GlobalOptions>();
      if (o.hook !== undefined) {
        const budget = cmd.getOptionValueSource('budget') === 'default' ? undefined : o.budget;
        return (await import('../context-hook.js')).runContextHook({ host: o.hook, budget, scope: o.scope }, g);
      }
      if (o.format !== 'md' && o.format !== 'json') throw new MemError('USAGE', `--format "${o.format}" is not one of md, json`);
      const { workspace, loaded, now, out } = commandContext(g);
      const { buildContext, checkBudget } = await import('../../context/run.js');
      const r = await buildContext({ workspace, loaded, now, scope: o.scope, query: o.query, budget: checkBudget(o.budget), cwd: process.cwd(), via: 'context', ...(o.evidence ? { evidence: true } : {}) });
      for (const w of r.warnings) out.info(w);
      out.info(`context: ${r.items.length} items, ${r.tokens} of ${r.budget} tokens (${r.tokenizer}), scope ${r.scope}`);
      if (g.json || o.format === 'json') process.stdout.write(JSON.stringify(r, null, 2) + '\n');
      else process.stdout.write(r.text);
    });
}
