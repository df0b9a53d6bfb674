/**
 * Output for people and for scripts (STYLE §6): results on stdout, diagnostics on stderr; colour only
 * on a terminal and never with NO_COLOR, CI or TERM=dumb; `--json` prints one stable object. The
 * resident search server prints a served client's output with the same class into strings (capture),
 * so a served answer is the cold one byte for byte.
 */
import { createColors, wantsColour } from './colors.js';
import type { Printed, Render } from './printed.js';

export interface OutputOptions {
  json: boolean;
  quiet: boolean;
  verbose: boolean;
}

export const c = createColors(wantsColour(!!process.stdout.isTTY));

/** Where an Output writes: the process's stdout and stderr, or strings (capture). */
interface Sink {
  out(text: string): void;
  err(text: string): void;
  /** A transient progress line (a terminal's alone), or with no text, clears it. */
  progress(text?: string): void;
}

const processSink: Sink = {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  progress: (text) => {
    if (process.stderr.isTTY) process.stderr.write(`\r\x1b[2K${text?.slice(0, (process.stderr.columns || 80) - 1) ?? ''}`);
  },
};

export class Output {
  constructor(
    readonly opts: OutputOptions,
    private readonly sink: Sink = processSink,
    readonly paint: ReturnType<typeof createColors> = c,
  ) {}

  /** A result line for people (suppressed by --json and --quiet). */
  line(text = ''): void {
    if (!this.opts.json && !this.opts.quiet) this.sink.out(text + '\n');
  }

  /** Results that must print even with --quiet (what the user asked to see). */
  result(text: string): void {
    if (!this.opts.json) this.sink.out(text.endsWith('\n') ? text : text + '\n');
  }

  json(value: unknown): void {
    if (this.opts.json) this.sink.out(JSON.stringify(value, null, 2) + '\n');
  }

  warn(text: string): void {
    if (!this.opts.quiet) this.sink.err(`${this.paint.yellow('warning:')} ${text}\n`);
  }

  info(text: string): void {
    if (this.opts.verbose) this.sink.err(`${this.paint.dim(text)}\n`);
  }

  /** A transient progress line on a terminal; nothing elsewhere. */
  progress(text: string): void {
    if (!this.opts.quiet && !this.opts.json) this.sink.progress(text);
  }

  endProgress(): void {
    if (!this.opts.quiet && !this.opts.json) this.sink.progress();
  }
}

/** The Output of the global options (`--json`, `-q`, `-v`); no config or time code is loaded for it. */
export function outputFor(g: { json?: boolean; quiet?: boolean; verbose?: boolean }): Output {
  return new Output({ json: !!g.json, quiet: !!g.quiet, verbose: !!g.verbose });
}

/**
 * An Output that prints into text, as the client described by `render` would print: what the
 * resident server sends a client to write (src/cli/served.ts). No progress is shown; clearing the
 * progress line is kept, as a terminal's stderr gets it.
 */
export function capture(render: Render): { output: Output; printed: Printed } {
  const printed: Printed = [];
  const write = (fd: 1 | 2) => (text: string) => {
    const last = printed[printed.length - 1];
    if (last?.[0] === fd) last[1] += text;
    else printed.push([fd, text]);
  };
  const err = write(2);
  const sink: Sink = {
    out: write(1),
    err,
    progress: (text) => {
      if (render.stderrTerminal && text === undefined) err('\r\x1b[2K');
    },
  };
  return { output: new Output({ json: render.json, quiet: render.quiet, verbose: false }, sink, createColors(render.colour)), printed };
}
