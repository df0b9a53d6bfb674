/**
 * The MEMORY.md a week's first rewrite replaced, kept beside the weekly log (`memory/archive/
 * MEMORY-before-2026-W47.md`) so `mem compound --revert` restores it byte for byte; a second run in
 * the week keeps it, so the version from before the week is never lost. Each copy records when it
 * was kept (the clock's time, not `--now`): `--revert` restores the copy kept last, which is not the
 * newest week's when an older week was compounded after it (`--week`). `--revert` in turn keeps
 * the MEMORY.md it replaces (`MEMORY-replaced-<time>.md`): pinned hand edits made since the rewrite
 * are never thrown away. The old text sits inside a fence longer than any backtick run it holds, so
 * entry headings in it are never parsed as entries.
 */

export const PREVIOUS_PREFIX = 'memory/archive/MEMORY-before-';
export const REPLACED_PREFIX = 'memory/archive/MEMORY-replaced-';

export function previousFile(weekLabel: string): string {
  return `${PREVIOUS_PREFIX}${weekLabel}.md`;
}

export function wrapPrevious(weekLabel: string, text: string, keptAt: Date): string {
  return wrapMemory(
    `MEMORY.md before compound ${weekLabel}`,
    'Kept by `mem compound` so that `mem compound --revert` can restore it.',
    text,
    `kept-at: ${keptAt.toISOString()}`,
  );
}

/**
 * The copy kept last, of `MEMORY-before-*.md` copies by path. A copy without a `kept-at` line (kept
 * by a memfold before it wrote one) counts as older than any with one; those go by week.
 */
export function lastKept(copies: ReadonlyArray<{ rel: string; wrapped: string }>): string | undefined {
  const keptAt = (wrapped: string) => Date.parse(/^kept-at: (\S+)\nfinal-newline: /m.exec(wrapped)?.[1] ?? '') || 0;
  const order = copies
    .map((c) => ({ rel: c.rel, at: keptAt(c.wrapped) }))
    .sort((a, b) => a.at - b.at || a.rel.localeCompare(b.rel));
  return order.at(-1)?.rel;
}

export function wrapReplaced(from: string, text: string): string {
  return wrapMemory(
    `MEMORY.md replaced by \`mem compound --revert\``,
    `Kept when \`mem compound --revert\` restored ${from} over it; copy back by hand what you need.`,
    text,
  );
}

function wrapMemory(title: string, why: string, text: string, keptAt?: string): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(Math.max(4, longest + 1));
  const finalNewline = text.endsWith('\n');
  return [
    `# ${title}`,
    '',
    `${why} The text between the fences is the file.`,
    '',
    ...(keptAt ? [keptAt] : []),
    `final-newline: ${finalNewline}`,
    '',
    `${fence}markdown`,
    finalNewline ? text.slice(0, -1) : text,
    fence,
    '',
  ].join('\n');
}

export function unwrapPrevious(wrapped: string): string | undefined {
  const m = /^final-newline: (true|false)\n\n(`{4,})markdown\n([\s\S]*)\n\2\n?$/m.exec(wrapped);
  if (!m) return undefined;
  return m[3]! + (m[1] === 'true' ? '\n' : '');
}
