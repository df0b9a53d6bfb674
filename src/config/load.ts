/**
 * Effective configuration: user-level file < mem.config.json < mem.local.json (DESIGN §3).
 * Every problem is one line naming the file and the key; nothing here writes. Reading and merging
 * the files is in files.ts (no zod), so the lean search path can share it (lean.ts).
 */
import { MemError } from '../core/errors.js';
import { checkZone, systemZone } from '../core/zone.js';
import { dropRootExtraPaths, readConfigLayers, type Json } from './files.js';
import { checkSchedule } from './schedule.js';
import { configSchema, type Config } from './schema.js';

export { CONFIG_FILE, LOCAL_CONFIG_FILE, mergeConfig, readJsonFile, userConfigPath } from './files.js';

export interface LoadedConfig {
  config: Config;
  /** The zone every day and window is measured in. */
  zone: string;
  files: string[];
  warnings: string[];
}

export function validateConfig(raw: Json, label: string): Config {
  const parsed = configSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = issue.path.length ? issue.path.join('.') : '(top level)';
    throw new MemError('CONFIG_INVALID', `${label}: ${where}: ${issue.message}`);
  }
  return parsed.data;
}

export function loadConfig(workspace: string, env: NodeJS.ProcessEnv = process.env): LoadedConfig {
  const { merged, files, warnings, label } = readConfigLayers(workspace, env);
  const config = validateConfig(merged, label);
  checkSchedule(config.schedule, label);
  dropRootExtraPaths(config, workspace, warnings);
  const zone = checkZone(config.timezone ?? systemZone());
  return { config, zone, files, warnings };
}
