// gen-kit.mjs — what the benchmark generators share: `--name value` arguments and a seeded PRNG
// (mulberry32), so the same arguments always give byte-identical output.

/** `arg(name, def)`: the value after `--name`, true for a bare flag, else def. */
export function argReader(args = process.argv.slice(2)) {
  return (name, def) => {
    const i = args.indexOf(`--${name}`);
    if (i === -1) return def;
    const v = args[i + 1];
    return v === undefined || v.startsWith('--') ? true : v;
  };
}

/** rnd() in [0, 1) from a 32-bit seed, and the helpers built on it. */
export function seeded(seed) {
  let state = seed || 1;
  const rnd = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    rnd,
    int: (lo, hi) => lo + Math.floor(rnd() * (hi - lo + 1)),
    pick: (arr) => arr[Math.floor(rnd() * arr.length)],
    chance: (p) => rnd() < p,
  };
}
