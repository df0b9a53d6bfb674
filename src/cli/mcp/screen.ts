/**
 * Requests the server answers itself, before the SDK sees them: the SDK's schema check of a
 * `tools/call` without a tool name ends in -32603 (internal error) with a multi-line zod dump, where
 * JSON-RPC 2.0 owes -32602 (invalid params) and an agent needs one line. As the -32700 path does for
 * an unreadable line, such a request gets its error here.
 */
import { ErrorCode, isJSONRPCRequest, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

export interface Refusal {
  jsonrpc: '2.0';
  id: string | number;
  error: { code: number; message: string };
}

export function screenRequest(message: JSONRPCMessage, tools: readonly string[]): Refusal | undefined {
  if (!isJSONRPCRequest(message) || message.method !== 'tools/call') return undefined;
  const params = message.params as Record<string, unknown> | undefined;
  const name = params?.name;
  if (typeof name === 'string' && name.length > 0) return undefined;
  const what = name === undefined ? 'has no params.name' : 'has a params.name that is not a tool name';
  return {
    jsonrpc: '2.0',
    id: message.id,
    error: {
      code: ErrorCode.InvalidParams,
      message: `tools/call ${what}: give the tool to call (${tools.join(', ')})`,
    },
  };
}
