/**
 * The scope of a session, and of an entry made from one (DESIGN §5, issue 27). A session's scope is
 * its folder's (Turn.cwd, else the folder Claude Code's transcript path encodes) through the one
 * scope function; an OpenClaw main-agent session is global unless its folder is a git repository.
 * An entry written before scopes existed has none: it is given its session's when read, from
 * `source.session_path`, and when nothing says where it was said it stays unscoped, which is never
 * global: it is in no project's scope and not in every project's.
 */
import { getField, getSource, type Entry } from '../entries/model.js';
import { scopeOfFolder, type ScopeMapping } from './scope-of.js';
import { claudeProjectDir, folderOfSessionPath } from './session-folder.js';

/** `~/.openclaw/agents/main/sessions/<id>.jsonl`: the main agent's own sessions, not a project's. */
const OPENCLAW_MAIN = /[/\\]agents[/\\]main[/\\]sessions[/\\]/;

export type SessionScope = (session: { cwd?: string; sessionPath: string }) => string | undefined;

/**
 * The scope of a session (undefined: nothing says where it ran), cached per folder: a year of
 * sessions in one Claude Code project folder reads the disk once, not once a session.
 */
export function sessionScopes(mapping: ScopeMapping | undefined): SessionScope {
  const cache = new Map<string, string | undefined>();
  return (s) => {
    const main = OPENCLAW_MAIN.test(s.sessionPath);
    const id = `${main ? 'main' : ''}\0${s.cwd ?? claudeProjectDir(s.sessionPath) ?? s.sessionPath}`;
    if (cache.has(id)) return cache.get(id);
    const folder = s.cwd ?? folderOfSessionPath(s.sessionPath);
    const found = folder ? scopeOfFolder(folder, mapping) : undefined;
    const scope = main && !(found?.inRepo || found?.from === 'config') ? 'global' : found?.scope;
    cache.set(id, scope);
    return scope;
  };
}

/** An entry's scope: as written, else its session's (an entry from before scopes), else undefined. */
export function entryScopes(mapping: ScopeMapping | undefined): (entry: Entry) => string | undefined {
  const ofSession = sessionScopes(mapping);
  return (entry) => {
    const written = getField(entry, 'scope')?.trim();
    if (written) return written;
    const src = getSource(entry);
    if (!src?.session_path || src.session_id.startsWith('import:')) return undefined;
    return ofSession({ sessionPath: src.session_path });
  };
}

/** What a scope mapping decides, as one string: what entry scopes derived under it are stamped with. */
export function mappingKey(mapping: ScopeMapping | undefined): string {
  return JSON.stringify(mapping ?? null);
}
