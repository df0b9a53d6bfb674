/**
 * A real MCP client on `mem mcp` over stdio, as an agent host runs it: closed when the test ends.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { BIN, childEnv } from './cli.js';

export type McpResult = {
  isError?: boolean;
  content: Array<{ type: string; text?: string }>;
  structuredContent?: Record<string, any>;
};

export async function connectMcp(
  t: { after(fn: () => Promise<void> | void): void },
  ws: string,
  now: string,
): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, '-C', ws, '--now', now, 'mcp'],
    env: childEnv() as Record<string, string>,
    stderr: 'pipe',
  });
  const client = new Client({ name: 'memfold-test', version: '1.0.0' });
  await client.connect(transport);
  t.after(() => client.close());
  return client;
}

export const callTool = async (c: Client, name: string, args: Record<string, unknown>) =>
  (await c.callTool({ name, arguments: args })) as McpResult;
