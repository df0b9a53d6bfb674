/**
 * Which workspace a command acts on: -C, then MEM_WORKSPACE, then the nearest ancestor holding
 * mem.config.json, then the user-level defaultWorkspace (DESIGN §3). Never guesses beyond that.
 */
import fs from 'node:fs';
import path from 'node:path';
import { MemError } from '../core/errors.js';
import { CONFIG_FILE, readJsonFile, userConfigPath } from '../config/files.js';
import { expandHome } from '../core/home.js';

export { expandHome, tildePath } from '../core/home.js';

export function locateWorkspace(explicit: string | undefined, cwd = process.cwd(), env = process.env): string {
  const given = explicit ?? env.MEM_WORKSPACE;
  if (given) {
    const dir = path.resolve(cwd, expandHome(given));
    if (!fs.existsSync(path.join(dir, CONFIG_FILE))) {
      throw new MemError(
        'WORKSPACE_NOT_FOUND',
        `${dir} is not a memfold workspace (no ${CONFIG_FILE}); run "mem init ${given}" first`,
      );
    }
    return dir;
  }
  for (let dir = path.resolve(cwd); ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, CONFIG_FILE))) return dir;
    if (path.dirname(dir) === dir) break;
  }
  const user = readJsonFile(userConfigPath(env));
  if (typeof user?.defaultWorkspace === 'string') {
    const dir = path.resolve(expandHome(user.defaultWorkspace));
    if (fs.existsSync(path.join(dir, CONFIG_FILE))) return dir;
    throw new MemError(
      'WORKSPACE_NOT_FOUND',
      `defaultWorkspace ${dir} (from ${userConfigPath(env)}) has no ${CONFIG_FILE}`,
    );
  }
  throw new MemError(
    'WORKSPACE_NOT_FOUND',
    `no memfold workspace here or above ${cwd}; pass -C <dir>, set MEM_WORKSPACE, or run "mem init"`,
  );
}
