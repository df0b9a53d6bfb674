/**
 * Long-running commands (`mem daemon`, `mem watch`) outlive whoever reads their output: `mem daemon
 * 2>&1 | head -n 1`, a closed terminal. A write then fails with EPIPE (a pipe nobody reads) or EIO
 * (a terminal that went away), which Node raises as an 'error' event nobody handled: the process
 * died mid-run, leaving its pid file and its job child behind (or, on stdout, bin/mem.cjs ended it
 * at once: right for `mem search | head`, not for a watcher). Here such a stream is dropped (the
 * failed stream is destroyed: later writes to it go nowhere) and the command runs on.
 */
export function outliveOutputReaders(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.removeAllListeners('error');
    stream.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code !== 'EPIPE' && err.code !== 'EIO') throw err;
    });
  }
}
