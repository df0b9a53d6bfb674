/**
 * The stdio transport of `mem mcp`, keeping the ids of the requests it read and has not answered,
 * so that the server answers every request read before stdin closed and only then closes. Closing
 * the SDK's Server aborts the handlers still running: their effects happen (memory_remember writes
 * its entry) but their replies are dropped, and a client that wrote its requests and closed stdin
 * gets none of them. The SDK keeps its running handlers private; the transport is its public seam:
 * connect keeps an onmessage set before it and calls it first, and every reply goes out by send.
 */
import type { Readable } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import {
  isJSONRPCErrorResponse,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';

export class AnsweringStdioTransport extends StdioServerTransport {
  private readonly open = new Set<RequestId>();
  private readonly whenAnswered: Array<() => void> = [];

  constructor(stdin?: Readable) {
    super(stdin);
    this.onmessage = (message) => {
      if (isJSONRPCRequest(message)) this.open.add(message.id);
    };
  }

  override async send(message: JSONRPCMessage): Promise<void> {
    await super.send(message);
    if (!isJSONRPCResultResponse(message) && !isJSONRPCErrorResponse(message)) return;
    if (message.id !== undefined) this.open.delete(message.id);
    if (this.open.size > 0) return;
    for (const resolve of this.whenAnswered.splice(0)) resolve();
  }

  /** Resolves once every request read so far has its reply written to stdout. */
  answered(): Promise<void> {
    if (this.open.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.whenAnswered.push(resolve));
  }
}
