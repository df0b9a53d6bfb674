/** What every workspace command needs: the workspace, its effective configuration and `now`. */
import type { DateTime } from 'luxon';
import { loadConfig, type LoadedConfig } from '../config/load.js';
import { resolveNow } from '../core/time.js';
import { nowText } from '../core/now-text.js';
import { locateWorkspace } from '../workspace/locate.js';
import { outputFor, type Output } from '../terminal/output.js';

export { outputFor };

export interface GlobalOptions {
  workspace?: string;
  json?: boolean;
  quiet?: boolean;
  verbose?: boolean;
  now?: string;
}

export interface CommandContext {
  workspace: string;
  loaded: LoadedConfig;
  now: DateTime;
  out: Output;
}

export function commandContext(g: GlobalOptions): CommandContext {
  const out = outputFor(g);
  const workspace = locateWorkspace(g.workspace);
  const loaded = loadConfig(workspace);
  for (const w of loaded.warnings) out.warn(w);
  const now = resolveNow(nowText(g), loaded.zone);
  return { workspace, loaded, now, out };
}
