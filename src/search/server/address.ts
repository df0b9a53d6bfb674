/**
 * Where the resident search server listens (import-lean: node: only, loaded before every served
 * search): one server per workspace, named by a hash of the workspace's real path. On Unix a socket
 * file in a private folder (`$XDG_RUNTIME_DIR/memfold`, else `<tmpdir>/memfold-<uid>`, mode 0700 and
 * owned by the user: the index's text is only ever served to its owner, never through the abstract
 * namespace, which any local user could reach); on Windows a named pipe.
 */
import fs from 'node:fs';
import path from 'node:path';

/** The workspace's real path (symlinks resolved), so two spellings share one server. */
export function realWorkspace(workspace: string): string {
  try {
    return fs.realpathSync.native(workspace);
  } catch {
    return path.resolve(workspace);
  }
}

function uid(): string {
  return typeof process.getuid === 'function' ? String(process.getuid()) : process.env.USERNAME || 'user';
}

/** os.tmpdir() on Unix, without loading node:os (this runs before every served search). */
function tmpdir(): string {
  const t = process.env.TMPDIR || process.env.TMP || process.env.TEMP || '/tmp';
  return t.length > 1 && t.endsWith('/') ? t.slice(0, -1) : t;
}

/** The private folder of this user's sockets (Unix). */
export function socketDir(): string {
  const runtime = process.env.XDG_RUNTIME_DIR;
  return runtime && path.isAbsolute(runtime) ? path.join(runtime, 'memfold') : path.join(tmpdir(), `memfold-${uid()}`);
}

/** 64-bit FNV-1a of the UTF-16 code units, as hex (names a socket; not a security boundary). */
export function hash64(s: string): string {
  let h1 = 0x811c9dc5;
  let h2 = 0x050c5d1f;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193) >>> 0;
    h2 = Math.imul(h2 ^ c, 0x01000193) >>> 0;
    h2 = (h2 ^ (h1 >>> 7)) >>> 0;
  }
  return h1.toString(16).padStart(8, '0') + h2.toString(16).padStart(8, '0');
}

/** Whether `dir` is a real folder owned by this user and closed to everyone else. */
export function privateDir(dir: string): boolean {
  if (process.platform === 'win32') return true;
  try {
    const st = fs.lstatSync(dir);
    return (
      st.isDirectory() &&
      (typeof process.getuid !== 'function' || st.uid === process.getuid()) &&
      (st.mode & 0o077) === 0
    );
  } catch {
    return false;
  }
}

export function socketAddress(realWs: string): string {
  const h = hash64(realWs);
  if (process.platform === 'win32') return `\\\\.\\pipe\\memfold-search-${hash64(uid()).slice(0, 8)}-${h}`;
  return path.join(socketDir(), `search-${h}.sock`);
}
