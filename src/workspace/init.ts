/**
 * `mem init`: creates the layout of DESIGN §1 from templates/ and adopts an existing folder without
 * overwriting anything in it; a folder whose configuration is invalid is refused before anything is
 * written. Re-running finds nothing to do and says so.
 */
import fs from 'node:fs';
import path from 'node:path';
import { CONFIG_FILE, loadConfig } from '../config/load.js';
import { MemError } from '../core/errors.js';
import { systemZone } from '../core/time.js';
import { defaultLockOptions } from '../write/defaults.js';
import { WorkspaceWriter } from '../write/writer.js';
import { LAYOUT_DIRS, MEMORY_FILE } from './layout.js';
import { MEMORY_EXAMPLE, TEMPLATES_DIR } from './templates.js';

export { MEMORY_EXAMPLE, TEMPLATES_DIR };

export interface InitResult {
  workspace: string;
  created: string[];
  adopted: boolean;
}

function template(name: string): string {
  return fs.readFileSync(path.join(TEMPLATES_DIR, name), 'utf8');
}

/** Lines of `wanted` missing from `current`, appended; undefined when nothing is missing. */
export function addGitignoreLines(current: string | undefined, wanted: string): string | undefined {
  const have = new Set((current ?? '').split(/\r?\n/).map((l) => l.trim()));
  const missing = wanted.split('\n').filter((l) => l.trim() && !l.startsWith('#') && !have.has(l.trim()));
  if (!missing.length) return undefined;
  const header = wanted.split('\n').find((l) => l.startsWith('#')) ?? '';
  const base = current ? current.replace(/\n*$/, '\n\n') : '';
  return `${base}${header}\n${missing.join('\n')}\n`;
}

/**
 * The nearest existing part of `workspace` when it is not a folder (the path itself, or a parent of
 * it, is a file or a dangling symbolic link) and what it is: mkdir would fail with a raw EEXIST or
 * ENOTDIR. Undefined when the nearest existing part is a folder, or when the walk meets any other
 * error (mkdir then reports it).
 */
function inTheWay(workspace: string): { at: string; what: string } | undefined {
  for (let p = workspace; ; p = path.dirname(p)) {
    let st: fs.Stats;
    try {
      st = fs.statSync(p);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' && fs.lstatSync(p, { throwIfNoEntry: false })?.isSymbolicLink())
        return { at: p, what: 'a symbolic link to nothing' };
      if ((code === 'ENOENT' || code === 'ENOTDIR') && path.dirname(p) !== p) continue;
      return undefined;
    }
    return st.isDirectory() ? undefined : { at: p, what: 'a file' };
  }
}

export async function initWorkspace(dir: string, zone = systemZone()): Promise<InitResult> {
  const workspace = path.resolve(dir);
  const blocker = inTheWay(workspace);
  if (blocker) {
    throw new MemError(
      'USAGE',
      `cannot create a workspace at ${workspace}: ${blocker.at === workspace ? 'it is' : `${blocker.at} is`} ${blocker.what}, not a folder`,
    );
  }
  // A configuration every other command would refuse is not adopted: the same one-line error (exit 4), the file left as it is.
  if (fs.existsSync(path.join(workspace, CONFIG_FILE))) loadConfig(workspace);
  await fs.promises.mkdir(workspace, { recursive: true });
  const adopted = fs.readdirSync(workspace).some((n) => n !== '.git');
  const writer = new WorkspaceWriter(workspace, 'init', defaultLockOptions());
  const created: string[] = [];
  const createIfMissing = async (rel: string, text: () => string) => {
    if (fs.existsSync(path.join(workspace, rel))) return;
    await writer.write(rel, text());
    created.push(rel);
  };
  await createIfMissing(CONFIG_FILE, () => {
    const cfg = JSON.parse(template('mem.config.json')) as Record<string, unknown>;
    return JSON.stringify({ ...cfg, timezone: zone }, null, 2) + '\n';
  });
  await createIfMissing(MEMORY_FILE, () => fs.readFileSync(MEMORY_EXAMPLE, 'utf8'));
  for (const d of LAYOUT_DIRS) {
    if (fs.existsSync(path.join(workspace, d))) continue;
    await writer.write(`${d}/.gitkeep`, '');
    created.push(`${d}/`);
  }
  if (await writer.update('.gitignore', (cur) => addGitignoreLines(cur, template('gitignore'))))
    created.push('.gitignore');
  // The merge driver's attribute (docs/operations.md); `mem init --git` registers the driver itself.
  if (await writer.update('.gitattributes', (cur) => addGitignoreLines(cur, template('gitattributes'))))
    created.push('.gitattributes');
  return { workspace, created, adopted };
}
