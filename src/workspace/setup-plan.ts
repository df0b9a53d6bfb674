/**
 * What `mem init --detect --write` changes, decided from file texts alone (no I/O): the detected
 * transcript folders this machine's mem.local.json does not read yet, and the user-level
 * `defaultWorkspace`. Re-running plans nothing (a source already read — same kind, same folder — is
 * never added twice), and a different defaultWorkspace the user already set is kept, never replaced.
 */
import path from 'node:path';
import { MemError } from '../core/errors.js';
import { expandHome } from '../core/home.js';

export interface SourceSpec {
  name: string;
  kind: string;
  path: string;
}

export interface LocalSourcesPlan {
  /** The new mem.local.json text; undefined when there is nothing to add. */
  text: string | undefined;
  added: SourceSpec[];
  /** Detected folders some configured source already reads. */
  present: SourceSpec[];
  /** mem.config.json's sources copied into mem.local.json, whose `sources` replaces them on this machine. */
  copied: number;
  /** How many sources this machine reads once the plan is applied. */
  total: number;
}

type Json = Record<string, unknown>;

function parseObject(text: string, file: string): Json {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new MemError('CONFIG_INVALID', `${file}: not valid JSON (${(err as Error).message})`);
  }
  if (!value || typeof value !== 'object' || Array.isArray(value))
    throw new MemError('CONFIG_INVALID', `${file}: expected a JSON object at the top level`);
  return value as Json;
}

/**
 * The folder a source's path searches, as one comparable string: `~` expanded, relative to the
 * workspace, no trailing `/`; for a glob, the folder before its first wildcard.
 */
function folderKey(workspace: string, p: string): string {
  const parts = expandHome(p).split(/[\\/]/);
  const wild = parts.findIndex((part) => /[*?[{]/.test(part));
  return path.resolve(workspace, (wild < 0 ? parts : parts.slice(0, wild)).join('/') || '.');
}

/** A source of the same kind already reads the folder, or a folder above it (sources are searched recursively). */
function readsAlready(existing: unknown[], workspace: string, s: SourceSpec): boolean {
  const folder = folderKey(workspace, s.path);
  return existing.some((e) => {
    const o = e as Partial<SourceSpec> | null;
    if (!o || o.kind !== s.kind || typeof o.path !== 'string') return false;
    const read = folderKey(workspace, o.path);
    return folder === read || folder.startsWith(read.endsWith(path.sep) ? read : read + path.sep);
  });
}

function freeName(taken: Set<string>, name: string): string {
  let n = 2;
  let candidate = name;
  while (taken.has(candidate)) candidate = `${name}-${n++}`;
  return candidate;
}

/**
 * `localText` is mem.local.json (undefined when missing), `committedSources` mem.config.json's
 * `sources`. Arrays are replaced whole by the later file (DESIGN §3), so a mem.local.json without
 * `sources` starts from the committed ones: adding to it must not stop this machine reading them.
 */
export function planLocalSources(
  workspace: string,
  localText: string | undefined,
  committedSources: unknown,
  detected: SourceSpec[],
  file = 'mem.local.json',
): LocalSourcesPlan {
  const local = localText === undefined || !localText.trim() ? {} : parseObject(localText, file);
  const own = local.sources;
  if (own !== undefined && !Array.isArray(own))
    throw new MemError('CONFIG_INVALID', `${file}: "sources" must be a list`);
  const base: unknown[] = own ?? (Array.isArray(committedSources) ? committedSources : []);
  const copied = own === undefined ? base.length : 0;
  const taken = new Set(
    base.map((e) => (e as { name?: unknown } | null)?.name).filter((n): n is string => typeof n === 'string'),
  );
  const added: SourceSpec[] = [];
  const present: SourceSpec[] = [];
  for (const s of detected) {
    if (readsAlready([...base, ...added], workspace, s)) {
      present.push(s);
      continue;
    }
    const name = freeName(taken, s.name);
    taken.add(name);
    added.push({ name, kind: s.kind, path: s.path });
  }
  if (!added.length) return { text: undefined, added, present, copied: 0, total: base.length };
  const text = JSON.stringify({ ...local, sources: [...base, ...added] }, null, 2) + '\n';
  return { text, added, present, copied, total: base.length + added.length };
}

export type DefaultWorkspaceState = 'set' | 'same' | 'kept';

export interface DefaultWorkspacePlan {
  /** set: written now; same: already this workspace; kept: another workspace, left as it is. */
  state: DefaultWorkspaceState;
  /** The value found in the file, when there was one. */
  previous?: string;
  /** The new user-level file text, when state is "set". */
  text?: string;
}

/** `value` is what to store (the workspace with `~` for the home folder); `workspace` is its absolute path. */
export function planDefaultWorkspace(
  userText: string | undefined,
  workspace: string,
  value: string,
  file: string,
): DefaultWorkspacePlan {
  const user = userText === undefined || !userText.trim() ? {} : parseObject(userText, file);
  const previous = user.defaultWorkspace;
  if (previous !== undefined) {
    const same = typeof previous === 'string' && path.resolve(expandHome(previous)) === path.resolve(workspace);
    return {
      state: same ? 'same' : 'kept',
      previous: typeof previous === 'string' ? previous : JSON.stringify(previous),
    };
  }
  return { state: 'set', text: JSON.stringify({ ...user, defaultWorkspace: value }, null, 2) + '\n' };
}
