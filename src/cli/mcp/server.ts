/**
 * `mem mcp`: an MCP server over stdio on the official SDK's low-level Server, so the protocol stays
 * exact: an unknown tool is a protocol error (MethodNotFound), while bad arguments and failures of a
 * known tool are tool results with `isError` and a message. stdout carries only protocol messages;
 * diagnostics go to stderr.
 *
 * A line the SDK's stdio transport cannot read is dropped there: it goes to the transport's onerror
 * and reading goes on, but nothing answers, and a client waits on it forever. JSON-RPC 2.0 owes it
 * an error with id null (no id could be read), so serveStdio answers from onerror.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
  type JSONRPCMessage,
} from '@modelcontextprotocol/sdk/types.js';
import { z, ZodError } from 'zod';
import { describeError } from '../../core/errors.js';
import { VERSION } from '../../core/version.js';
import { keepParsedFiles } from '../../entries/kept-files.js';
import { keepConnectionsAlive } from '../../search/embed/embed-http.js';
import { AnsweringStdioTransport } from './answering-transport.js';
import { terminatedLines } from './line-input.js';
import { redactStrings } from './redact.js';
import { screenRequest } from './screen.js';
import { DESCRIPTIONS, describeIssues, isToolName, SCHEMAS, type ToolName } from './tool-schemas.js';
import { HANDLERS, type ToolEnv } from './tools.js';

function inputSchema(name: ToolName): { type: 'object'; [k: string]: unknown } {
  const json = z.toJSONSchema(SCHEMAS[name], { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  delete json.$schema;
  return { ...json, type: 'object' };
}

export async function callTool(env: ToolEnv, name: string, args: unknown): Promise<CallToolResult> {
  if (!isToolName(name))
    throw new McpError(ErrorCode.MethodNotFound, `unknown tool "${name}"; tools: ${Object.keys(SCHEMAS).join(', ')}`);
  const parsed = SCHEMAS[name].safeParse(args ?? {});
  if (!parsed.success)
    return {
      isError: true,
      content: [{ type: 'text', text: `invalid arguments for ${name}: ${describeIssues(parsed.error)}` }],
    };
  try {
    const value = redactStrings(await HANDLERS[name](env, parsed.data as never)) as Record<string, unknown>;
    return { content: [{ type: 'text', text: JSON.stringify(value, null, 2) }], structuredContent: value };
  } catch (err) {
    return { isError: true, content: [{ type: 'text', text: `${name} failed: ${describeError(err)}` }] };
  }
}

export function createServer(env: ToolEnv): Server {
  const server = new Server({ name: 'memfold', version: VERSION }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: (Object.keys(SCHEMAS) as ToolName[]).map((name) => ({
      name,
      description: DESCRIPTIONS[name],
      inputSchema: inputSchema(name),
    })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (req) => callTool(env, req.params.name, req.params.arguments));
  return server;
}

/**
 * What JSON-RPC 2.0 answers a line the stdio transport could not read, told by the error it raised:
 * JSON.parse's SyntaxError (not JSON) or the SDK's zod schema refusing it (JSON, but no JSON-RPC
 * message). Other errors (stdin failed, a line over the SDK's buffer limit) answer no request.
 */
function unreadable(err: Error): { what: string; code: number; message: string } | undefined {
  if (err instanceof SyntaxError) return { what: 'not JSON', code: ErrorCode.ParseError, message: 'Parse error' };
  if (err instanceof ZodError)
    return { what: 'not a JSON-RPC message', code: ErrorCode.InvalidRequest, message: 'Invalid Request' };
  return undefined;
}

/**
 * Serves until stdin closes (the client went away) and every request read before has its reply;
 * warn gets one line per transport error.
 */
export async function serveStdio(env: ToolEnv, warn: (text: string) => void): Promise<void> {
  // A long-lived process: the entry table's buckets are parsed once per version (entries/kept-files.ts);
  // 8 of 32 buckets is about 50 MB at 10,000 files, and a memory_get reads one.
  keepParsedFiles(8);
  // Each memory_search embeds its query: the session's calls share one kept connection to the provider.
  keepConnectionsAlive();
  const server = createServer(env);
  const input = terminatedLines(process.stdin);
  const transport = new AnsweringStdioTransport(input);
  // Set before connect, which keeps it and calls it first.
  transport.onerror = (err) => {
    const u = unreadable(err);
    if (!u) return warn(`mcp: ${err.message}`);
    warn(`mcp: a line on stdin is ${u.what}: answered ${u.code} ${u.message}`);
    // The SDK's JSONRPCMessage type leaves an unknown id out; JSON-RPC 2.0 (§5) wants it null.
    const reply = { jsonrpc: '2.0', id: null, error: { code: u.code, message: u.message } };
    transport.send(reply as unknown as JSONRPCMessage).catch(() => {});
  };
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
    input.once('end', () => void transport.answered().then(resolve));
  });
  await server.connect(transport);
  // After connect, which wrapped onmessage: a request refused here never reaches the SDK.
  const sdk = transport.onmessage!;
  transport.onmessage = (message: JSONRPCMessage) => {
    const refusal = screenRequest(message, Object.keys(SCHEMAS));
    if (!refusal) return sdk(message);
    warn(`mcp: ${refusal.error.message}: answered ${refusal.error.code}`);
    transport.send(refusal as unknown as JSONRPCMessage).catch(() => {});
  };
  await closed;
  await server.close().catch(() => {});
}
