/** "1 file", "2 files", "1 entry", "3 entries": a count that agrees with its noun. */
export const count = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;
