/**
 * `mem mcp`: an MCP server over stdio on the official SDK's low-level Server, so the protocol stays
 * exact: an unknown tool is a protocol error (MethodNotFound), while bad arguments and failures of a
 * known tool are tool results with `isError` and a message. stdout carries only protocol messages;
 * diagnostics go to stderr.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { describeError } from '../core/errors.js';
import { VERSION } from '../cli/version.js';
import { DESCRIPTIONS, describeIssues, HANDLERS, isToolName, SCHEMAS, type ToolEnv, type ToolName } from './tools.js';

function inputSchema(name: ToolName): { type: 'object'; [k: string]: unknown } {
  const json = z.toJSONSchema(SCHEMAS[name], { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  delete json.$schema;
  return { ...json, type: 'object' };
}

export async function callTool(env: ToolEnv, name: string, args: unknown): Promise<CallToolResult> {
  if (!isToolName(name)) throw new McpError(ErrorCode.MethodNotFound, `unknown tool "${name}"; tools: ${Object.keys(SCHEMAS).join(', ')}`);
  const parsed = SCHEMAS[name].safeParse(args ?? {});
  if (!parsed.success) return { isError: true, content: [{ type: 'text', text: `invalid arguments for ${name}: ${describeIssues(parsed.error)}` }] };
  try {
    const value = (await HANDLERS[name](env, parsed.data as never)) as Record<string, unknown>;
    return { content: [{ type: 'text', text: JSON.stringify(value, null, 2) }], structuredContent: value };
  } catch (err) {
    return { isError: true, content: [{ type: 'text', text: `${name} failed: ${describeError(err)}` }] };
  }
}

export function createServer(env: ToolEnv): Server {
  const server = new Server({ name: 'memfold', version: VERSION }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: (Object.keys(SCHEMAS) as ToolName[]).map((name) => ({ name, description: DESCRIPTIONS[name], inputSchema: inputSchema(name) })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (req) => callTool(env, req.params.name, req.params.arguments));
  return server;
}

/** Serves until stdin closes (the client went away). */
export async function serveStdio(env: ToolEnv): Promise<void> {
  const server = createServer(env);
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
    process.stdin.once('end', () => resolve());
  });
  await server.connect(transport);
  await closed;
  await server.close().catch(() => {});
}
