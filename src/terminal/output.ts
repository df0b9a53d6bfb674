/**
 * Output for people and for scripts (STYLE §6): results on stdout, diagnostics on stderr; colour only
 * on a terminal and never with NO_COLOR, CI or TERM=dumb; `--json` prints one stable object. A
 * client of the resident search server prints the server's answer (data) with this class too, so a
 * served answer is the cold one byte for byte.
 */
import { createColors, wantsColour } from './colors.js';

export interface OutputOptions {
  json: boolean;
  quiet: boolean;
  verbose: boolean;
}

export const c = createColors(wantsColour(!!process.stdout.isTTY));

/** A transient progress line on stderr (a terminal's alone), or with no text, clears it. */
function progressLine(text?: string): void {
  if (process.stderr.isTTY)
    process.stderr.write(`\r\x1b[2K${text?.slice(0, (process.stderr.columns || 80) - 1) ?? ''}`);
}

export class Output {
  readonly paint: ReturnType<typeof createColors> = c;

  constructor(readonly opts: OutputOptions) {}

  /** A result line for people (suppressed by --json and --quiet). */
  line(text = ''): void {
    if (!this.opts.json && !this.opts.quiet) process.stdout.write(text + '\n');
  }

  /** Results that must print even with --quiet (what the user asked to see). */
  result(text: string): void {
    if (!this.opts.json) process.stdout.write(text.endsWith('\n') ? text : text + '\n');
  }

  json(value: unknown): void {
    if (this.opts.json) process.stdout.write(JSON.stringify(value, null, 2) + '\n');
  }

  warn(text: string): void {
    if (!this.opts.quiet) process.stderr.write(`${this.paint.yellow('warning:')} ${text}\n`);
  }

  info(text: string): void {
    if (this.opts.verbose) process.stderr.write(`${this.paint.dim(text)}\n`);
  }

  /** A transient progress line on a terminal; nothing elsewhere. */
  progress(text: string): void {
    if (!this.opts.quiet && !this.opts.json) progressLine(text);
  }

  endProgress(): void {
    if (!this.opts.quiet && !this.opts.json) progressLine();
  }
}

/** The Output of the global options (`--json`, `-q`, `-v`); no config or time code is loaded for it. */
export function outputFor(g: { json?: boolean; quiet?: boolean; verbose?: boolean }): Output {
  return new Output({ json: !!g.json, quiet: !!g.quiet, verbose: !!g.verbose });
}
