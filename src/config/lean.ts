/**
 * loadConfig for the lean CLI path: the same files, merge, warnings, errors and result as load.ts,
 * without importing zod or luxon when the configuration is plainly valid (quick.ts). When the quick
 * check is not sure, zod decides (load.ts, imported only then), so a bad configuration gives exactly
 * the one-line error and exit code of every other command.
 */
import { dropRootExtraPaths, readConfigLayers } from './files.js';
import type { LoadedConfig } from './load.js';
import { quickConfig } from './quick.js';
import { checkZone, systemZone } from '../core/zone.js';

export async function loadConfigLean(workspace: string, env: NodeJS.ProcessEnv = process.env): Promise<LoadedConfig> {
  const { merged, files, warnings, label } = readConfigLayers(workspace, env);
  const config = quickConfig(merged) ?? (await import('./load.js')).validateConfig(merged, label);
  dropRootExtraPaths(config, workspace, warnings);
  const zone = checkZone(config.timezone ?? systemZone());
  return { config, zone, files, warnings };
}
