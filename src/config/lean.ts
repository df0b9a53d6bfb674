/**
 * loadConfig for the lean CLI path: the same files, merge, warnings, errors and result as load.ts,
 * without importing zod or luxon when the configuration is plainly valid (quick.ts). When the quick
 * check is not sure, zod decides (load.ts, imported only then), so a bad configuration gives exactly
 * the one-line error and exit code of every other command. With `schedule` (a command that reads the
 * schedule, `mem status`), the schedule is checked as load.ts checks it, at the same point, so the same
 * bad value gives the same error (node-cron loaded then); search, index and the other reads skip it.
 */
import { dropRootExtraPaths, readConfigLayers } from './files.js';
import type { LoadedConfig } from './load.js';
import { quickConfig } from './quick.js';
import { checkZone, systemZone } from '../core/zone.js';

export async function loadConfigLean(
  workspace: string,
  env: NodeJS.ProcessEnv = process.env,
  opts: { schedule?: boolean } = {},
): Promise<LoadedConfig> {
  const { merged, files, warnings, label } = readConfigLayers(workspace, env);
  const config = quickConfig(merged) ?? (await import('./load.js')).validateConfig(merged, label);
  if (opts.schedule) (await import('./schedule.js')).checkSchedule(config.schedule, label);
  dropRootExtraPaths(config, workspace, warnings);
  const zone = checkZone(config.timezone ?? systemZone());
  return { config, zone, files, warnings };
}
