/**
 * The folder a session ran in, from its transcript's path where the format encodes it: Claude Code
 * keeps a project's sessions in `~/.claude/projects/<folder with every / and . as ->/`. Used when a
 * session's turns name no `cwd`, and to give entries written before scopes existed a scope when read
 * (`source.session_path`). The encoding loses which `-` was a `/`, so the folders on this machine
 * decide (the longest existing name at each level); past the last folder that exists, the rest of the
 * name is taken whole as the project folder's name (`-home-me-my-shop` → `my-shop`).
 */
import fs from 'node:fs';
import path from 'node:path';
import { expandHome } from '../core/home.js';

/** How Claude Code writes a folder name in its projects folder. */
const encode = (name: string) => name.replace(/[^A-Za-z0-9]/g, '-');

/** `<…>/.claude/projects/<encoded>/…`: the encoded folder, or undefined for any other layout. */
export function claudeProjectDir(sessionPath: string): string | undefined {
  const parts = expandHome(sessionPath).split(/[/\\]/);
  const at = parts.findIndex((p, i) => p === 'projects' && parts[i - 1] === '.claude');
  const dir = at >= 0 ? parts[at + 1] : undefined;
  return dir && dir.startsWith('-') && at + 2 < parts.length ? dir : undefined;
}

function children(dir: string): string[] {
  try {
    return fs
      .readdirSync(dir, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name);
  } catch {
    return [];
  }
}

/** A home-like prefix of an encoded path whose folders are not on this machine: `home-me-`, `Users-me-`, `root-`. */
const HOME_LIKE = /^(?:home-[^-]+-|Users-[^-]+-|root-)/;

/** The folder an encoded Claude Code project name stands for: found on this machine, or its best guess. */
export function decodeClaudeFolder(encoded: string): string {
  let dir = path.parse(process.cwd()).root;
  let rest = encoded.replace(/^-/, '');
  while (rest) {
    const next = children(dir)
      .filter((name) => rest === encode(name) || rest.startsWith(`${encode(name)}-`))
      .sort((a, b) => b.length - a.length)[0];
    if (!next) break;
    dir = path.join(dir, next);
    rest = rest.slice(encode(next).length + 1);
  }
  if (!rest) return dir;
  // A user's folder missing on this machine is not the project: `/home` + `me-my-shop` is `my-shop`.
  const root = path.parse(dir).root;
  const homes =
    dir === root
      ? rest.replace(HOME_LIKE, '')
      : path.dirname(dir) === root && /^(?:home|Users)$/.test(path.basename(dir))
        ? rest.replace(/^[^-]+-/, '')
        : rest;
  return path.join(dir, homes || rest);
}

/** The folder the session of `sessionPath` ran in, when its path says; undefined otherwise. */
export function folderOfSessionPath(sessionPath: string): string | undefined {
  const dir = claudeProjectDir(sessionPath);
  return dir ? decodeClaudeFolder(dir) : undefined;
}
