/**
 * `mem context --hook claude|codex`: the pack for a host's hook, which never breaks a session. The host
 * sends its hook JSON on stdin (context/hook-input.ts) and adds the hook's stdout, at exit 0, to the
 * model's context. SessionStart prints the pack for the session's folder (`cwd`: its name gives the
 * project scope, and the workspace is looked for from it as from the current folder); UserPromptSubmit
 * prints only what a search for the prompt finds, in a small budget, and nothing at all when nothing
 * matches (the session start already injected the core and project layers). Whatever goes wrong — no
 * workspace, input that is no hook JSON, a broken file — is one line on stderr and exit 0: a memory
 * that cannot answer must not stop the person's session.
 */
import fs from 'node:fs';
import { loadConfig } from '../config/load.js';
import { describeError, MemError } from '../core/errors.js';
import { nowText } from '../core/now-text.js';
import { readInstant } from '../core/instant.js';
import {
  HOOK_HOSTS,
  HOOK_INPUT_LIMIT,
  isHookEvent,
  isHookHost,
  parseHookInput,
  promptQuery,
  type HookInput,
} from '../context/hook-input.js';
import { outputFor } from '../terminal/output.js';
import { locateWorkspace } from '../workspace/locate.js';
import type { GlobalOptions } from './context.js';

/** UserPromptSubmit's default budget: a few hits, not a second pack, on every prompt. */
export const PROMPT_BUDGET = 600;

export interface HookOptions {
  host: string;
  /** `--budget` when given on the command line; else the event's default. */
  budget?: string;
  scope?: string;
}

async function readStdin(limit: number): Promise<string> {
  if (process.stdin.isTTY)
    throw new MemError('USAGE', "--hook reads the host's hook JSON on stdin; run it from a hook (see docs/agents.md)");
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of process.stdin as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) {
      process.stdin.destroy();
      throw new MemError('USAGE', `hook input is over ${limit / 1024 / 1024} MB; refused unread`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The session's folder when it names one that exists, else the current folder (the host runs hooks there too). */
function sessionFolder(input: HookInput): string {
  const cwd = input.cwd?.trim();
  if (cwd && fs.statSync(cwd, { throwIfNoEntry: false })?.isDirectory()) return cwd;
  return process.cwd();
}

async function answer(o: HookOptions, g: GlobalOptions): Promise<string> {
  if (!isHookHost(o.host)) throw new MemError('USAGE', `--hook "${o.host}" is not one of ${HOOK_HOSTS.join(', ')}`);
  const input = parseHookInput(await readStdin(HOOK_INPUT_LIMIT));
  if (!isHookEvent(input.event))
    throw new MemError('USAGE', `hook event ${input.event} is not SessionStart or UserPromptSubmit; nothing to add`);
  const folder = sessionFolder(input);
  // -C and MEM_WORKSPACE are read from where the hook command runs; the search upwards starts at the session's folder.
  const workspace = locateWorkspace(g.workspace, g.workspace || process.env.MEM_WORKSPACE ? process.cwd() : folder);
  const loaded = loadConfig(workspace);
  const out = outputFor(g);
  for (const w of loaded.warnings) out.warn(w);
  const at = await readInstant(nowText(g), loaded.zone);
  const { buildContext, checkBudget } = await import('../context/run.js');
  const { DEFAULT_BUDGET } = await import('../pack/fit.js');
  const prompt = input.event === 'UserPromptSubmit';
  if (prompt && !input.prompt?.trim()) return '';
  const via = `hook:${o.host}:${input.event}`;
  const budget = checkBudget(o.budget ?? (prompt ? PROMPT_BUDGET : DEFAULT_BUDGET));
  // A session start's pack from the resident server when one runs (served-context.ts): the same pack,
  // with memory/'s stats from its watcher; its configuration's warnings were printed above already.
  const served = prompt
    ? undefined
    : await (
        await import('./served-context.js')
      ).askPack(workspace, process.env, {
        at,
        cwd: folder,
        ...(o.scope !== undefined ? { scope: o.scope } : {}),
        budget: String(budget),
        via,
      });
  const r =
    served?.pack ??
    (await buildContext({
      workspace,
      loaded,
      at,
      cwd: folder,
      scope: o.scope,
      via,
      budget,
      ...(prompt ? { query: promptQuery(input.prompt!), queryOnly: true } : {}),
    }));
  for (const w of r.warnings) out.info(w);
  out.info(
    `context (${input.event}): ${r.items.length} items, ${r.tokens} of ${r.budget} tokens (${r.tokenizer}), scope ${r.scope}`,
  );
  return prompt && !r.items.length ? '' : r.text;
}

/** Prints the hook's answer; never throws, so the command exits 0 whatever happened. */
export async function runContextHook(o: HookOptions, g: GlobalOptions): Promise<void> {
  try {
    const text = await answer(o, g);
    if (text) process.stdout.write(text);
  } catch (err) {
    process.stderr.write(
      `mem context --hook: ${describeError(err).split('\n').join(' ')} (nothing added to the session)\n`,
    );
  }
}
