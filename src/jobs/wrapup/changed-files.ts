/**
 * The files a session's tools changed (its sub-agents' included): the file of every write or edit
 * call — Claude Code Write/Edit/MultiEdit/NotebookEdit, Codex apply_patch, an agent's write/edit —
 * whose result was not an error or a refused permission. Paths are shown relative to the folder the
 * session started in, else with `~` for the home folder, and through the secret gate: a file name can
 * hold a token. Pure; a call's text may be cut (TOOL_TEXT_MAX), so paths are read by pattern, not JSON.
 */
import path from 'node:path';
import { tildePath } from '../../core/home.js';
import { redactPath } from '../../secrets/secret-path.js';
import type { Turn } from '../../transcripts/index.js';

const EDIT_TOOLS = new Set([
  'write',
  'edit',
  'multiedit',
  'notebookedit',
  'apply_patch',
  'create_file',
  'str_replace_editor',
  'str_replace_based_edit_tool',
]);
const PATH_FIELD = /"(?:file_path|notebook_path|path)"\s*:\s*"((?:[^"\\]|\\.)*)"/g;
const PATCH_FILE = /\*\*\* (?:Add|Update|Delete) File: ([^\n\\"]+)/g;
const FAILED =
  /^\s*<tool_use_error>|requested permissions|permission (?:was )?denied|was rejected|user doesn'?t want|^error:/i;

/** A call, not its result: a JSON argument object or a patch. */
const isCall = (t: Turn) => /^\s*\{/.test(t.text) || t.text.includes('*** Begin Patch');

function pathsOf(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(PATH_FIELD)) {
    try {
      out.push(JSON.parse(`"${m[1]!}"`) as string);
    } catch {
      // A path cut by the tool text limit: not a path anyone can open.
    }
  }
  for (const m of text.matchAll(PATCH_FILE)) out.push(m[1]!.trim());
  return out;
}

function shown(p: string, cwd: string | undefined): string {
  const rel = cwd && path.isAbsolute(p) ? path.relative(cwd, p) : '';
  const display = rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel : tildePath(p);
  return redactPath(display.split(path.sep).join('/'));
}

export function changedFiles(turns: Turn[]): { paths: string[]; first: number; last: number } {
  const pending = new Map<string, Array<{ turn: Turn; paths: string[] }>>();
  const done: Array<{ turn: Turn; paths: string[] }> = [];
  for (const t of turns) {
    const tool = t.toolName?.toLowerCase();
    if (t.role !== 'tool' || !tool || !EDIT_TOOLS.has(tool)) continue;
    const queue = pending.get(tool) ?? [];
    pending.set(tool, queue);
    if (isCall(t)) {
      const paths = pathsOf(t.text);
      if (paths.length) queue.push({ turn: t, paths });
      continue;
    }
    // A result answers the oldest open call of its tool; an error or a refusal changed nothing.
    const call = queue.shift();
    if (call && !FAILED.test(t.text)) done.push(call);
  }
  // Calls whose result is not in the day's turns are counted: the transcript may end before it.
  for (const queue of pending.values()) done.push(...queue);
  done.sort((a, b) => a.turn.index - b.turn.index);
  // Relative to where the session started: a `cd` into a subfolder does not change how a file is named.
  const base = turns.find((t) => t.cwd)?.cwd;
  const paths = [...new Set(done.flatMap((c) => c.paths.map((p) => shown(p, base))))];
  return { paths, first: done[0]?.turn.index ?? 0, last: done[done.length - 1]?.turn.index ?? 0 };
}
