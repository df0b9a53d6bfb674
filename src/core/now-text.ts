/**
 * The moment text a run is measured from (DESIGN §3): `--now`, else `$MEM_NOW`, with the name of
 * the one it came from, so an invalid value is reported as the source the user set. A given `--now`
 * is always parsed, so `--now ''` is an invalid date rather than "now"; an empty MEM_NOW counts as
 * unset (`MEM_NOW= mem …` in a shell means "no fixed moment"). Luxon-free: the lean search path uses it.
 */
export interface NowText {
  value: string;
  what: '--now' | 'MEM_NOW';
}

export function nowText(g: { now?: string }, env: NodeJS.ProcessEnv = process.env): NowText | undefined {
  if (g.now !== undefined) return { value: g.now, what: '--now' };
  return env.MEM_NOW ? { value: env.MEM_NOW, what: 'MEM_NOW' } : undefined;
}
