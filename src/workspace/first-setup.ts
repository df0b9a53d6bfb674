/**
 * The first-day setup `mem init --detect` offers and writes only with the user's say-so (`--write`
 * or a yes on the terminal): transcript folders found on this machine go to the workspace's
 * mem.local.json (they are this machine's paths, not the committed config's), and the user-level
 * config names the workspace as `defaultWorkspace` so `mem context` works from any project folder.
 * The user-level file is the one write outside the workspace here (DESIGN §2); an existing different
 * defaultWorkspace is kept. Both writes are atomic and re-planned on the file as it is when written.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CONFIG_FILE, LOCAL_CONFIG_FILE, readJsonFile, userConfigPath } from '../config/files.js';
import { writeRefused } from '../core/errors.js';
import { tildePath } from '../core/home.js';
import { ensureDir, writeFileAtomic } from '../write/atomic.js';
import { defaultLockOptions } from '../write/defaults.js';
import { WorkspaceWriter } from '../write/writer.js';
import {
  planDefaultWorkspace,
  planLocalSources,
  type DefaultWorkspacePlan,
  type LocalSourcesPlan,
  type SourceSpec,
} from './setup-plan.js';

export type { SourceSpec };

const KNOWN_SOURCES: readonly SourceSpec[] = [
  { name: 'claude', kind: 'claude-code', path: '~/.claude/projects' },
  { name: 'codex', kind: 'codex', path: '~/.codex/sessions' },
  { name: 'openclaw', kind: 'openclaw', path: '~/.openclaw/agents' },
];

export const KNOWN_SOURCE_PATHS = KNOWN_SOURCES.map((s) => s.path);

export function detectSources(home = os.homedir()): SourceSpec[] {
  return KNOWN_SOURCES.filter((s) => fs.existsSync(path.join(home, s.path.slice(2)))).map((s) => ({ ...s }));
}

export interface SetupPlan {
  workspace: string;
  localFile: string;
  sources: LocalSourcesPlan;
  userFile: string;
  defaultWorkspace: DefaultWorkspacePlan;
}

function readText(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw writeRefused(err, file);
  }
}

function planSources(workspace: string, localText: string | undefined, detected: SourceSpec[]): LocalSourcesPlan {
  const committed = readJsonFile(path.join(workspace, CONFIG_FILE))?.sources;
  return planLocalSources(workspace, localText, committed, detected, path.join(workspace, LOCAL_CONFIG_FILE));
}

function planDefault(workspace: string, userFile: string): DefaultWorkspacePlan {
  return planDefaultWorkspace(readText(userFile), workspace, tildePath(workspace), userFile);
}

/** What a write would change, read from the files as they are now; writes nothing. */
export function planSetup(workspace: string, detected: SourceSpec[], env: NodeJS.ProcessEnv = process.env): SetupPlan {
  const localFile = path.join(workspace, LOCAL_CONFIG_FILE);
  const userFile = userConfigPath(env);
  return {
    workspace,
    localFile,
    sources: planSources(workspace, readText(localFile), detected),
    userFile,
    defaultWorkspace: planDefault(workspace, userFile),
  };
}

export function hasChanges(plan: SetupPlan): boolean {
  return plan.sources.added.length > 0 || plan.defaultWorkspace.state === 'set';
}

/** Applies the setup, each file planned again as it is at the moment it is written. */
export async function applySetup(
  workspace: string,
  detected: SourceSpec[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<SetupPlan> {
  let sources: LocalSourcesPlan | undefined;
  const writer = new WorkspaceWriter(workspace, 'init', defaultLockOptions());
  await writer.update(LOCAL_CONFIG_FILE, (current) => (sources = planSources(workspace, current, detected)).text);
  const userFile = userConfigPath(env);
  const defaultWorkspace = planDefault(workspace, userFile);
  if (defaultWorkspace.text !== undefined) {
    // A user-level file that is a link (dotfiles kept elsewhere) stays one: its target is written.
    const target = fs.existsSync(userFile) ? fs.realpathSync(userFile) : userFile;
    try {
      await ensureDir(path.dirname(target));
    } catch (err) {
      throw writeRefused(err, userFile, 'nothing was written to it');
    }
    await writeFileAtomic(target, defaultWorkspace.text, userFile);
  }
  return {
    workspace,
    localFile: path.join(workspace, LOCAL_CONFIG_FILE),
    sources: sources!,
    userFile,
    defaultWorkspace,
  };
}
