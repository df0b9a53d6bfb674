/** What every workspace command needs: the workspace, its effective configuration and `now`. */
import type { DateTime } from 'luxon';
import type { LoadedConfig } from '../config/load.js';
import { resolveNow } from '../core/time.js';
import type { Output } from './output.js';
import { outputFor, workspaceContext } from './workspace-context.js';

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
  const { workspace, loaded, out } = workspaceContext(g);
  const now = resolveNow(g.now ?? process.env.MEM_NOW, loaded.zone);
  return { workspace, loaded, now, out };
}
