/**
 * `mem init --detect [--write]`: offers the first-day setup (src/workspace/first-setup.ts) and writes
 * it only with the user's say-so: `--write`, or a "y" typed at the prompt, which is asked only when
 * stdin and stdout are a terminal and neither --write nor --json was given. Without consent nothing
 * is written and the command that would write it is printed; after it, the next command to run.
 */
import readline from 'node:readline/promises';
import { tildePath } from '../core/home.js';
import { quote } from '../core/shell-quote.js';
import type { Output } from '../terminal/output.js';
import {
  applySetup,
  detectSources,
  hasChanges,
  KNOWN_SOURCE_PATHS,
  planSetup,
  type SetupPlan,
  type SourceSpec,
} from '../workspace/first-setup.js';

export interface SetupReport {
  detectedSources: SourceSpec[];
  setup: {
    /** Whether the files were written (false: `sources` and `defaultWorkspace` say what --write would do). */
    written: boolean;
    localFile: string;
    sources: SourceSpec[];
    alreadyRead: SourceSpec[];
    copiedFromConfig: number;
    userFile: string;
    defaultWorkspace: 'set' | 'same' | 'kept';
    previousDefault?: string;
    next: string;
  };
}

async function ask(question: string): Promise<boolean> {
  const rl = readline.createInterface({ input: process.stdin, output: process.stdout });
  try {
    return /^y(es)?$/i.test((await rl.question(question)).trim());
  } catch {
    // Ctrl+D closes the input: no answer is a no.
    process.stdout.write('\n');
    return false;
  } finally {
    rl.close();
  }
}

/** A path for a shell line, with `~` for the home folder left unquoted so the shell expands it. */
const shellPath = (abs: string) => {
  const p = tildePath(abs);
  return p === '~' || p.startsWith('~/') ? `~${p.length > 1 ? '/' + quote(p.slice(2)) : ''}` : quote(p);
};

const listed = (sources: SourceSpec[]) => sources.map((s) => `${s.name} (${s.kind}, ${s.path})`).join(', ');

/** The command that back-fills: plain when `mem` finds this workspace from anywhere, else with -C. */
function nextCommand(plan: SetupPlan, defaultIsThis: boolean): string {
  const where = defaultIsThis ? '' : `-C ${shellPath(plan.workspace)} `;
  return `mem ${where}microsync --since all`;
}

/** The writes a yes would make, one a line. */
function describeWrite(plan: SetupPlan): string {
  const parts: string[] = [];
  if (plan.sources.added.length) parts.push(`  add ${listed(plan.sources.added)} to ${tildePath(plan.localFile)}`);
  if (plan.defaultWorkspace.state === 'set')
    parts.push(`  set defaultWorkspace to ${tildePath(plan.workspace)} in ${tildePath(plan.userFile)}`);
  return parts.join('\n');
}

export async function offerSetup(
  workspace: string,
  opts: { write: boolean; json: boolean },
  out: Output,
): Promise<SetupReport> {
  const detected = detectSources();
  let plan = planSetup(workspace, detected);
  if (!detected.length) out.line(`no transcript folders found (looked for ${KNOWN_SOURCE_PATHS.join(', ')})`);
  else out.line(`transcript folders found: ${listed(detected)}`);
  const changes = hasChanges(plan);
  const interactive = !opts.write && !opts.json && !!process.stdin.isTTY && !!process.stdout.isTTY;
  const written =
    changes && (opts.write || (interactive && (await ask(`write this setup?\n${describeWrite(plan)}\n[y/N] `))));
  if (written) plan = await applySetup(workspace, detected);
  const dw = plan.defaultWorkspace;
  const defaultIsThis = dw.state === 'same' || (dw.state === 'set' && written);
  const next = nextCommand(plan, defaultIsThis);
  if (changes && !written) {
    out.line(
      `nothing written${interactive ? '' : ' (no --write)'}; to\n${describeWrite(plan)}\nrun: mem init ${shellPath(workspace)} --detect --write`,
    );
    if (plan.sources.added.length)
      out.line(
        `or add these to "sources" in mem.local.json (this machine) or mem.config.json:\n${JSON.stringify(plan.sources.added, null, 2)}`,
      );
  }
  if (written && plan.sources.added.length) {
    out.line(`${tildePath(plan.localFile)}: added ${listed(plan.sources.added)}`);
    if (plan.sources.copied)
      out.line(
        `  (its "sources" replace mem.config.json's on this machine, so the ${plan.sources.copied} configured there were copied in first)`,
      );
  }
  if (plan.sources.present.length) out.line(`already read: ${listed(plan.sources.present)}`);
  if (dw.state === 'set' && written)
    out.line(
      `${tildePath(plan.userFile)}: defaultWorkspace is now ${tildePath(workspace)}, so mem context and mem search work from any folder`,
    );
  else if (dw.state === 'same') out.line(`defaultWorkspace already names this workspace (${tildePath(plan.userFile)})`);
  else if (dw.state === 'kept') {
    out.warn(
      `defaultWorkspace stays ${dw.previous} (${tildePath(plan.userFile)}); to make ${tildePath(workspace)} the default, change "defaultWorkspace" in that file, or use -C / MEM_WORKSPACE`,
    );
  }
  // Without consent the command that writes the setup above is the next one.
  if (written || !changes) {
    if (!plan.sources.total)
      out.line(
        `next: add a transcript folder to "sources" in mem.config.json (docs/configuration.md, "Transcript sources"), then: ${next}`,
      );
    else
      out.line(
        `next: ${next}   # back-fill: read every transcript already on disk (a plain run reads only the last 24 hours)`,
      );
  }
  return {
    detectedSources: detected,
    setup: {
      written,
      localFile: plan.localFile,
      sources: plan.sources.added,
      alreadyRead: plan.sources.present,
      copiedFromConfig: plan.sources.copied,
      userFile: plan.userFile,
      defaultWorkspace: dw.state,
      ...(dw.previous !== undefined ? { previousDefault: dw.previous } : {}),
      next,
    },
  };
}
