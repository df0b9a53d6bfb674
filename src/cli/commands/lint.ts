/** `mem lint`: validate every entry; problems as path:line, exit 5 when there are any. */
import type { Command } from 'commander';
import { commandContext, type CommandContext, type GlobalOptions } from '../context.js';
import { MemError } from '../../core/errors.js';
import { lintEntries } from '../../entries/lint.js';
import { readMemoryFiles, recordsOf } from '../../entries/store.js';
import { scanWorkspaceForSecrets } from '../../jobs/secret-scan.js';
import { count } from '../../core/count.js';

export function registerLint(program: Command): void {
  program
    .command('lint')
    .description(
      'check every entry: required fields, id format, status, dangling or cyclic supersedes, duplicate ids, repeated fields, unclosed code fences, empty titles, control characters, oversized daily files',
    )
    .option('--secrets', 'also scan every file of the workspace for API keys, tokens, passwords and private keys')
    .addHelpText(
      'after',
      '\nExamples:\n  mem lint\n  mem lint --secrets          # what the pre-commit hook of "mem init --git" runs\n  mem lint --json | jq ".problems[].message"',
    )
    .action(async (o: { secrets?: boolean }, cmd: Command) => {
      const { workspace, loaded, out } = commandContext(cmd.optsWithGlobals<GlobalOptions>());
      if (o.secrets) return lintSecrets(workspace, out);
      const files = await readMemoryFiles(workspace);
      const records = files.flatMap((f) => recordsOf(f.file, f.text));
      const problems = lintEntries(records, files, {
        maxEntriesPerDailyFile: loaded.config.limits.entriesPerDailyFile,
      });
      out.json({ entries: records.length, problems });
      for (const p of problems) out.result(`${p.file}:${p.line}: ${p.id ? p.id + ': ' : ''}${p.message}`);
      out.line(`lint: ${count(records.length, 'entry', 'entries')}, ${count(problems.length, 'problem')}`);
      if (problems.length) throw new MemError('LINT_PROBLEMS', `lint found ${count(problems.length, 'problem')}`);
    });
}

async function lintSecrets(workspace: string, out: CommandContext['out']): Promise<void> {
  const { files, hits, skipped } = await scanWorkspaceForSecrets(workspace);
  out.json({ files, secrets: hits, skipped });
  for (const h of hits) {
    out.result(
      h.in === 'id'
        ? `${h.file}:${h.line}: the entry's id holds a secret (${h.kind}) from its title; give the entry a new id and fix what cites it`
        : `${h.file}:${h.line}: looks like a secret (${h.kind}); remove it or replace it with [REDACTED:${h.kind}]`,
    );
  }
  // Reported, not failed: a binary file (an image) in the workspace must not block every commit.
  for (const s of skipped) out.result(`${s.file}: not scanned: binary (${s.reason})`);
  const notScanned = skipped.length ? `, ${count(skipped.length, 'binary file')} not scanned` : '';
  out.line(`lint --secrets: ${count(files, 'file')} scanned, ${count(hits.length, 'secret')} found${notScanned}`);
  if (hits.length)
    throw new MemError('LINT_PROBLEMS', `${count(hits.length, 'secret')} found in the workspace; nothing was changed`);
}
