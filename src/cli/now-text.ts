/**
 * The moment text a run is measured from (DESIGN §3): `--now`, else `$MEM_NOW`. A given `--now` is
 * always parsed, so `--now ''` is an invalid date rather than "now"; an empty MEM_NOW counts as unset
 * (`MEM_NOW= mem …` in a shell means "no fixed moment"). Luxon-free: the lean search path uses it.
 */
export function nowText(g: { now?: string }, env: NodeJS.ProcessEnv = process.env): string | undefined {
  return g.now ?? (env.MEM_NOW || undefined);
}
