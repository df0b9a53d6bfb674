/**
 * The workspace, its effective configuration and the output of a command that needs no `now`
 * (`mem index`): the same as commandContext (context.ts) without loading luxon to resolve a time.
 */
import { loadConfig, type LoadedConfig } from '../config/load.js';
import { locateWorkspace } from '../workspace/locate.js';
import { Output } from './output.js';
import type { GlobalOptions } from './context.js';

export interface WorkspaceContext {
  workspace: string;
  loaded: LoadedConfig;
  out: Output;
}

export function outputFor(g: GlobalOptions): Output {
  return new Output({ json: !!g.json, quiet: !!g.quiet, verbose: !!g.verbose });
}

export function workspaceContext(g: GlobalOptions): WorkspaceContext {
  const out = outputFor(g);
  const workspace = locateWorkspace(g.workspace);
  const loaded = loadConfig(workspace);
  for (const w of loaded.warnings) out.warn(w);
  return { workspace, loaded, out };
}
