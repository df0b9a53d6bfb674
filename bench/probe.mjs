// probe.mjs — preloaded into a benchmarked process (`node --import ./bench/probe.mjs …`): at exit it
// writes the process's own peak RSS, CPU time (user + system) and read() byte count (Linux /proc/self/io `rchar`, which counts
// every byte the process read from files, cache hits included) as JSON to $MEMFOLD_BENCH_PROBE.
// Used beside /usr/bin/time -v, and instead of it where that is missing.
import fs from 'node:fs';

const out = process.env.MEMFOLD_BENCH_PROBE;
if (out) {
  process.on('exit', () => {
    let rchar = null;
    try {
      rchar = Number(/^rchar:\s*(\d+)/m.exec(fs.readFileSync('/proc/self/io', 'utf8'))?.[1] ?? NaN);
    } catch {
      /* not Linux */
    }
    const use = process.resourceUsage();
    fs.writeFileSync(
      out,
      JSON.stringify({ maxRssKb: use.maxRSS, cpuSeconds: (use.userCPUTime + use.systemCPUTime) / 1e6, rchar }),
    );
  });
}
