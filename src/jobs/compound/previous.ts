/**
 * The MEMORY.md a rewrite replaced, kept beside the weekly log (`memory/archive/MEMORY-before-
 * 2026-W47.md`) so `mem compound --revert` restores it byte for byte. The old text sits inside a
 * fence longer than any backtick run it holds, so entry headings in it are never parsed as entries.
 */

export const PREVIOUS_PREFIX = 'memory/archive/MEMORY-before-';

export function previousFile(weekLabel: string): string {
  return `${PREVIOUS_PREFIX}${weekLabel}.md`;
}

export function wrapPrevious(weekLabel: string, text: string): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(Math.max(4, longest + 1));
  const finalNewline = text.endsWith('\n');
  return [
    `# MEMORY.md before compound ${weekLabel}`,
    '',
    'Kept by `mem compound` so that `mem compound --revert` can restore it. The text between the fences is the file.',
    '',
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
