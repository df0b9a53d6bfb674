/**
 * One of Node's internal bindings through process.binding (DEP0111, a documentation-only
 * deprecation), for hot paths whose public APIs cost milliseconds a process: the scan's stat
 * (src/search/quick-stat.ts), and a served search's socket (src/search/server/raw-pipe.ts) and
 * terminal check (src/cli/served.ts). Each checks what it gets before use and falls back to the
 * public API. Undefined where
 * process.binding is not offered or could print a warning: with pending deprecation on, Node
 * replaces it by a wrapper that warns (named `deprecated`); the flag (`--pending-deprecation`,
 * `--pending_deprecation`, with any value) and the variable are checked too.
 */
type Binding = ((name: string) => unknown) & { name: string };

export function nodeBinding(name: string): Record<string, unknown> | undefined {
  const binding = (process as unknown as { binding?: Binding }).binding;
  const flags = `${process.execArgv.join(' ')} ${process.env.NODE_OPTIONS ?? ''}`;
  if (!binding || binding.name !== 'binding' || /--pending[-_]deprecation/.test(flags) || process.env.NODE_PENDING_DEPRECATION === '1') return undefined;
  try {
    const b = binding(name);
    return b && typeof b === 'object' ? (b as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
