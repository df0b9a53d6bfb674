/**
 * Which job may start now (DESIGN §7), pure decisions over what is running: never two runs of one
 * job (a run due while the last one still runs is skipped, as cron's overlap would only pile up);
 * wrapup and compound never together (the later one waits its turn); background index refreshes wait
 * while compound rewrites MEMORY.md. At most one run of a job waits.
 */

export type Decision = 'start' | 'wait' | 'skip';

export const EXCLUSIVE: Record<string, string[]> = {
  wrapup: ['compound'],
  compound: ['wrapup'],
  index: ['compound'],
};

export function decide(job: string, running: ReadonlySet<string>, waiting: ReadonlySet<string>): Decision {
  if (running.has(job)) return job === 'index' && !waiting.has(job) ? 'wait' : 'skip';
  if (waiting.has(job)) return 'skip';
  return (EXCLUSIVE[job] ?? []).some((other) => running.has(other)) ? 'wait' : 'start';
}

export class JobQueue {
  readonly running = new Set<string>();
  readonly waiting = new Set<string>();
  private stopped = false;

  constructor(
    private readonly run: (job: string) => Promise<void>,
    private readonly onSkip: (job: string, why: string) => void,
  ) {}

  request(job: string): Decision {
    if (this.stopped) return 'skip';
    const d = decide(job, this.running, this.waiting);
    if (d === 'start') this.start(job);
    else if (d === 'wait') this.waiting.add(job);
    else this.onSkip(job, this.running.has(job) ? 'its previous run is still running' : 'a run is already waiting');
    return d;
  }

  stop(): void {
    this.stopped = true;
    this.waiting.clear();
  }

  idle(): boolean {
    return !this.running.size;
  }

  private start(job: string): void {
    this.running.add(job);
    void this.run(job).finally(() => {
      this.running.delete(job);
      if (this.stopped) return;
      for (const w of [...this.waiting]) {
        if (decide(w, this.running, new Set([...this.waiting].filter((x) => x !== w))) === 'start') {
          this.waiting.delete(w);
          this.start(w);
        }
      }
    });
  }
}
