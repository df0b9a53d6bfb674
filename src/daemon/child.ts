/**
 * One job run as a child process of the CLI (`node bin/mem.js -C <ws> <job>`), so a time limit can
 * stop it whatever it is doing (DESIGN §7). Stopping is SIGTERM first — the child's lock library
 * removes its lock folders on the way out and every write is atomic, so nothing is half-written —
 * then SIGKILL after a grace; locks of a SIGKILLed child turn stale after `limits.lockStaleMs` and
 * the next run reclaims them.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { CLI_BIN } from '../core/cli-bin.js';

export interface ChildOutcome {
  job: string;
  pid: number;
  start: Date;
  end: Date;
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Stopped by the daemon: 'timeout' (time limit) or 'shutdown' (daemon stopping). */
  stoppedFor?: 'timeout' | 'shutdown';
  stderrTail: string[];
}

export interface RunningChild {
  job: string;
  child: ChildProcess;
  done: Promise<ChildOutcome>;
  stop(reason: 'timeout' | 'shutdown'): void;
}

export interface ChildOptions {
  workspace: string;
  job: string;
  args?: string[];
  timeoutMs: number;
  killGraceMs: number;
  env?: NodeJS.ProcessEnv;
  onLine?: (line: string) => void;
}

export function startChild(o: ChildOptions): RunningChild {
  const start = new Date();
  const child = spawn(process.execPath, [CLI_BIN, '-C', o.workspace, o.job, ...(o.args ?? [])], {
    cwd: o.workspace,
    env: { ...process.env, ...o.env, MEM_TRIGGER: 'daemon', NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const tail: string[] = [];
  const collect = (stream: NodeJS.ReadableStream | null, keep: boolean) => {
    let buf = '';
    stream?.setEncoding('utf8');
    stream?.on('data', (d: string) => {
      buf += d;
      const lines = buf.split('\n');
      buf = lines.pop() ?? '';
      for (const l of lines) {
        o.onLine?.(l);
        if (keep && l.trim()) tail.push(l) > 10 && tail.shift();
      }
    });
  };
  collect(child.stdout, false);
  collect(child.stderr, true);
  let stoppedFor: ChildOutcome['stoppedFor'];
  let killTimer: NodeJS.Timeout | undefined;
  const stop = (reason: 'timeout' | 'shutdown') => {
    if (stoppedFor || child.exitCode !== null || child.signalCode !== null) return;
    stoppedFor = reason;
    child.kill('SIGTERM');
    killTimer = setTimeout(() => child.kill('SIGKILL'), o.killGraceMs);
  };
  const limit = setTimeout(() => stop('timeout'), o.timeoutMs);
  const done = new Promise<ChildOutcome>((resolve) => {
    const finish = (code: number | null, signal: NodeJS.Signals | null) => {
      clearTimeout(limit);
      clearTimeout(killTimer);
      resolve({
        job: o.job,
        pid: child.pid ?? 0,
        start,
        end: new Date(),
        code,
        signal,
        ...(stoppedFor ? { stoppedFor } : {}),
        stderrTail: tail,
      });
    };
    child.on('error', (err) => {
      tail.push(err.message);
      finish(null, null);
    });
    child.on('close', finish);
  });
  return { job: o.job, child, done, stop };
}
