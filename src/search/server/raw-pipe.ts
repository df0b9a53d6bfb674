/**
 * The client's end of the server's socket (protocol.ts exchange): node:net's Socket, behind a small
 * interface (connected, bytes, the end, once) so the exchange knows no stream details. Node's public
 * API only (issue 30): the pipe handle taken from Node's bindings on Node 20 is gone.
 */
import { createRequire } from 'node:module';

/** What the exchange hears: connected, bytes, and the end, once (`absent`: no server listens there). */
export interface PipeEvents {
  connected(): void;
  data(chunk: Buffer): void;
  ended(why: 'absent' | 'closed' | 'failed'): void;
}

export interface Conn {
  write(text: string): void;
  close(): void;
}

export type Connect = (address: string, on: PipeEvents) => Conn;

function viaNet(address: string, on: PipeEvents): Conn {
  // Required, not import()ed: in the CommonJS bundles a dynamic import sets up the ES-module loader
  // first, about 2 ms of a served search.
  const net = createRequire(import.meta.url)('node:net') as typeof import('node:net');
  const sock = net.createConnection(address);
  let open = true;
  const end = (why: 'absent' | 'closed' | 'failed') => {
    if (!open) return;
    open = false;
    sock.destroy();
    on.ended(why);
  };
  sock.on('connect', () => on.connected());
  sock.on('data', (chunk: Buffer) => on.data(chunk));
  sock.on('error', (err: NodeJS.ErrnoException) =>
    end(err.code === 'ENOENT' || err.code === 'ECONNREFUSED' ? 'absent' : 'failed'),
  );
  sock.on('close', () => end('closed'));
  return { write: (text) => void sock.write(text), close: () => end('closed') };
}

/** The way to connect: node:net. */
export function connector(): Connect {
  return viaNet;
}
