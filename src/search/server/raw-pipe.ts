/**
 * The client's end of the server's socket (protocol.ts exchange): node:net's Socket, or on Node 20
 * the libuv pipe handle that Socket wraps, taken straight from Node's bindings (node-binding.ts).
 * A fresh process spends about 2.5 ms loading node:net and setting up its first Socket before the
 * request can leave; the handle alone is ready in a fraction of a millisecond, and a served search is
 * mostly start-up (issue #3: ≤ 1.3× `node -e 0`). The handle is used as Node 20's lib/net.js uses
 * it, and only where its parts are all there with the expected shapes (not on Windows, where the
 * server is a named pipe, nor where process.binding could warn); anywhere else, node:net.
 */
import { createRequire } from 'node:module';
import { constants } from 'node:os';
import { nodeBinding } from '../../core/node-binding.js';

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

interface Handle {
  connect(req: object, address: string): number;
  readStart(): number;
  writeUtf8String(req: object, text: string): number;
  close(): void;
  onread: (buf: ArrayBuffer | undefined) => void;
}
interface ConnectReq {
  oncomplete: (status: number) => void;
  address: string;
}
interface WriteReq {
  handle: Handle;
  oncomplete: () => void;
  async: boolean;
}
interface Parts {
  Pipe: new (type: number) => Handle;
  ConnectWrap: new () => ConnectReq;
  WriteWrap: new () => WriteReq;
  socketType: number;
  /** Where the binding leaves a read's byte count (or error) and its offset in the buffer. */
  state: Int32Array;
  nread: number;
  offset: number;
}

const gone = (status: number) => status === -constants.errno.ENOENT || status === -constants.errno.ECONNREFUSED;

function parts(): Parts | undefined {
  if (process.platform === 'win32' || process.versions.node.split('.')[0] !== '20') return undefined;
  const pipe = nodeBinding('pipe_wrap');
  const stream = nodeBinding('stream_wrap');
  const types = pipe?.constants as Record<string, unknown> | undefined;
  if (!pipe || !stream || typeof pipe.Pipe !== 'function' || typeof pipe.PipeConnectWrap !== 'function' || typeof stream.WriteWrap !== 'function') return undefined;
  if (typeof types?.SOCKET !== 'number' || !(stream.streamBaseState instanceof Int32Array)) return undefined;
  if (typeof stream.kReadBytesOrError !== 'number' || typeof stream.kArrayBufferOffset !== 'number') return undefined;
  const proto = (pipe.Pipe as { prototype: Record<string, unknown> }).prototype;
  if (!['connect', 'readStart', 'writeUtf8String', 'close'].every((m) => typeof proto[m] === 'function')) return undefined;
  return {
    Pipe: pipe.Pipe as Parts['Pipe'], ConnectWrap: pipe.PipeConnectWrap as Parts['ConnectWrap'], WriteWrap: stream.WriteWrap as Parts['WriteWrap'],
    socketType: types.SOCKET, state: stream.streamBaseState, nread: stream.kReadBytesOrError, offset: stream.kArrayBufferOffset,
  };
}

function viaHandle(p: Parts): Connect {
  return (address, on) => {
    const handle = new p.Pipe(p.socketType);
    let open = true;
    // A write the kernel did not take at once completes later: its request must live until then.
    const writes = new Set<WriteReq>();
    const end = (why: 'absent' | 'closed' | 'failed') => {
      if (!open) return;
      open = false;
      handle.close();
      on.ended(why);
    };
    const req = new p.ConnectWrap();
    req.address = address;
    req.oncomplete = (status) => {
      if (!open) return;
      if (status < 0) return end(gone(status) ? 'absent' : 'failed');
      // The binding calls onread for every read (it must be a function before reading starts): a
      // count of bytes, or a negative one at the end of the stream (UV_EOF) or on an error.
      handle.onread = (buf) => {
        const n = p.state[p.nread]!;
        if (n > 0 && buf) on.data(Buffer.from(buf, p.state[p.offset]!, n));
        else if (n < 0) end('closed');
      };
      if (handle.readStart() < 0) return end('failed');
      on.connected();
    };
    const status = handle.connect(req, address);
    if (status < 0) {
      open = false;
      handle.close();
      // As a Socket reports a failed connection: after this call has returned.
      setImmediate(() => on.ended(gone(status) ? 'absent' : 'failed'));
    }
    return {
      write(text) {
        if (!open) return;
        const w = new p.WriteWrap();
        w.handle = handle;
        w.async = false;
        w.oncomplete = () => writes.delete(w);
        writes.add(w);
        if (handle.writeUtf8String(w, text) < 0) end('failed');
      },
      close: () => end('closed'),
    };
  };
}

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
  sock.on('error', (err: NodeJS.ErrnoException) => end(err.code === 'ENOENT' || err.code === 'ECONNREFUSED' ? 'absent' : 'failed'));
  sock.on('close', () => end('closed'));
  return { write: (text) => void sock.write(text), close: () => end('closed') };
}

let chosen: Connect | undefined;

/** The way to connect in this process: the pipe handle where it is checked to be there, else node:net. */
export function connector(): Connect {
  if (!chosen) {
    const p = parts();
    chosen = p ? viaHandle(p) : viaNet;
  }
  return chosen;
}

/** Both ways, for tests that hold one to the other: the handle's is undefined where it is not used. */
export const connectors: { handle: Connect | undefined; net: Connect } = {
  get handle() {
    const p = parts();
    return p && viaHandle(p);
  },
  net: viaNet,
};
