/**
 * Symbolic links that lead out of the places memfold reads. git carries links between machines, so
 * `memory/x.md -> /etc/passwd` committed by anyone was indexed and served by search and MCP, and a
 * daily file linked outside had that file's content written back into the workspace by `mem remember`.
 * A link is followed only when its target lies inside the workspace (or a configured extra path or
 * source root); otherwise it is left out, with one warning naming the link.
 */
import fs from 'node:fs';
import path from 'node:path';

let warn: (line: string) => void = (line) => process.stderr.write(`warning: ${line}\n`);
const warned = new Set<string>();

/** Where the one-line warnings go (the CLI's output; tests). */
export function setLinkWarning(sink: (line: string) => void): void {
  warn = sink;
}

function real(p: string): string | undefined {
  try {
    return fs.realpathSync(p);
  } catch {
    return undefined;
  }
}

const within = (file: string, root: string) =>
  file === root || file.startsWith(root.endsWith(path.sep) ? root : root + path.sep);

/** The real target of link `abs` when it lies outside every root (each real-pathed), else undefined. */
export function outsideTarget(abs: string, roots: string[]): string | undefined {
  const target = real(abs);
  if (target === undefined) return undefined; // dangling: the readers leave it out as not a file
  return roots.some((r) => within(target, real(r) ?? r)) ? undefined : target;
}

/** Says once per process that `shown` (a workspace-relative path) links outside and is left out. */
export function warnOutsideLink(shown: string, target: string): void {
  if (warned.has(shown)) return;
  warned.add(shown);
  warn(`${shown} is a link to ${target}, outside the workspace: left out`);
}

/** Whether `abs` is a symbolic link (lstat; never throws). */
export function isLink(abs: string): boolean {
  try {
    return fs.lstatSync(abs, { throwIfNoEntry: false })?.isSymbolicLink() ?? false;
  } catch {
    return false;
  }
}
