/** `mem mcp`: serve the memory to an agent over MCP (stdio). See docs/agents.md. */
import type { Command } from 'commander';
import { commandContext, type GlobalOptions } from '../context.js';
import { resolveNow } from '../../core/time.js';
import { nowText } from '../../core/now-text.js';

export function registerMcp(program: Command): void {
  program
    .command('mcp')
    .description(
      'run an MCP server over stdio with tools memory_search, memory_get, memory_context, memory_remember, memory_trace, memory_evidence',
    )
    .addHelpText(
      'after',
      '\nExamples:\n  mem -C ~/memory mcp\n  claude mcp add memfold -- mem -C ~/memory mcp\n\nstdout carries only MCP messages; warnings go to stderr. A line that is not JSON is answered with a JSON-RPC Parse error (-32700), JSON that is no JSON-RPC message with Invalid Request (-32600); the next lines are served. See docs/agents.md.',
    )
    .action(async (_o: unknown, cmd: Command) => {
      const g = cmd.optsWithGlobals<GlobalOptions>();
      const { workspace, loaded, out } = commandContext(g);
      const { serveStdio } = await import('../mcp/server.js');
      // A fixed --now (tests, replays) holds for every call; otherwise each call is stamped when it runs.
      const fixed = nowText(g);
      await serveStdio({ workspace, loaded, cwd: process.cwd(), now: () => resolveNow(fixed, loaded.zone) }, (text) =>
        out.warn(text),
      );
    });
}
