/**
 * `mem init [dir]`: create or adopt a workspace; `--detect` finds transcript folders on this machine and
 * offers to write them and the user-level defaultWorkspace (src/cli/init-setup.ts; `--write` says yes).
 */
import path from 'node:path';
import type { Command } from 'commander';
import { outputFor, type GlobalOptions } from '../context.js';
import { MemError } from '../../core/errors.js';
import { setupGit } from '../../git/setup.js';
import { initWorkspace } from '../../workspace/init.js';
import { offerSetup } from '../init-setup.js';

/** `mem -C ws init` makes ws, as every other command works in ws; a folder named twice must be one folder. */
function initFolder(arg: string | undefined, workspace: string | undefined): string {
  if (arg === undefined || workspace === undefined) return arg ?? workspace ?? '.';
  if (path.resolve(arg) !== path.resolve(workspace))
    throw new MemError('USAGE', `-C ${workspace} and ${arg} name two different folders; give the workspace once`);
  return arg;
}

export function registerInit(program: Command): void {
  program
    .command('init')
    .argument('[dir]', 'workspace folder, created if missing (default: the -C folder, else the current one)')
    .option('--detect', 'also find transcript folders on this machine and offer to read them (asks on a terminal)')
    .option(
      '--write',
      'write what --detect offers without asking: the folders found to mem.local.json, this workspace as defaultWorkspace in the user-level config (implies --detect)',
    )
    .option(
      '--git',
      'register the memfold merge driver in the enclosing git repository (git init first when there is none) and install its pre-commit (secret scan) and post-merge (mem merge-finish) hooks',
    )
    .description('create a memory workspace, or adopt an existing folder without overwriting anything')
    .addHelpText(
      'after',
      '\nExamples:\n  mem init ~/memory\n  mem init --detect        # finds Claude Code, Codex, OpenClaw transcripts; asks before writing\n  mem init ~/memory --detect --write  # writes them to mem.local.json and sets defaultWorkspace\n  mem init ~/memory --git  # also register the git merge driver for memory files',
    )
    .action(async (arg: string | undefined, o: { detect?: boolean; write?: boolean; git?: boolean }, cmd: Command) => {
      const globals = cmd.optsWithGlobals<GlobalOptions>();
      const out = outputFor(globals);
      const r = await initWorkspace(initFolder(arg, globals.workspace));
      const git = o.git ? await setupGit(r.workspace) : undefined;
      const json = { ...r, ...(git ? { git } : {}) };
      if (!r.created.length)
        out.line(`${r.workspace} is already a memfold workspace${o.detect || o.write ? '' : '; nothing changed'}`);
      else out.line(`${r.adopted ? 'adopted' : 'created'} ${r.workspace}: ${r.created.join(', ')}`);
      if (git) {
        out.line(
          `${git.initialised ? 'initialised a git repository and ' : ''}registered the memfold merge driver in ${git.repo}/.git/config`,
        );
        if (git.hook.state === 'foreign')
          out.warn(
            `${git.hook.path} exists and is not memfold's; to scan for secrets before each commit, add this line to it:\n  ${git.hook.line}`,
          );
        else if (git.hook.state === 'added')
          out.line(`pre-commit hook updated: ${git.hook.path} now also runs "mem lint --secrets" on ${r.workspace}`);
        else
          out.line(
            `pre-commit hook ${git.hook.state === 'installed' ? 'installed' : 'already in place'}: ${git.hook.path} runs "mem lint --secrets"`,
          );
        const m = git.mergeHook;
        if (m.state === 'foreign')
          out.warn(
            `${m.path} exists and is not memfold's; to rename the citations of an id a merge renames in the files it takes whole, add this line to it:\n  ${m.line}`,
          );
        else
          out.line(
            `post-merge hook ${m.state === 'installed' ? 'installed' : m.state === 'added' ? 'updated' : 'already in place'}: ${m.path} runs "mem merge-finish"${m.state === 'added' ? ` on ${r.workspace} too` : ''}`,
          );
      }
      const setup =
        o.detect || o.write
          ? await offerSetup(r.workspace, { write: !!o.write, json: !!globals.json }, out)
          : undefined;
      out.json({ ...json, ...setup });
    });
}
