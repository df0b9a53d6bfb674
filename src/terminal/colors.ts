/**
 * Terminal colours: picocolors' createColors (ISC, © Alexey Raspopov), ported so that the CLI's
 * start-up loads no CommonJS module at all (loading the first one costs a lean `mem search` several
 * milliseconds of CommonJS loader set-up). Same escape codes, same handling of nested styles (a
 * style's close code inside the text is re-opened), so the output is byte for byte picocolors'.
 */
type Format = (input: unknown) => string;

/** Whether output is coloured: on a terminal, and never with NO_COLOR, CI or TERM=dumb. */
export function wantsColour(isTTY: boolean, env: NodeJS.ProcessEnv = process.env): boolean {
  return isTTY && !env.NO_COLOR && !env.CI && env.TERM !== 'dumb';
}

function formatter(open: string, close: string, replace = open): Format {
  return (input) => {
    const string = '' + input;
    const index = string.indexOf(close, open.length);
    return ~index ? open + replaceClose(string, close, replace, index) + close : open + string + close;
  };
}

function replaceClose(string: string, close: string, replace: string, index: number): string {
  let result = '';
  let cursor = 0;
  do {
    result += string.substring(cursor, index) + replace;
    cursor = index + close.length;
    index = string.indexOf(close, cursor);
  } while (~index);
  return result + string.substring(cursor);
}

export function createColors(enabled: boolean) {
  const f = enabled ? formatter : (): Format => String;
  return {
    isColorSupported: enabled,
    reset: f('\x1b[0m', '\x1b[0m'),
    bold: f('\x1b[1m', '\x1b[22m', '\x1b[22m\x1b[1m'),
    dim: f('\x1b[2m', '\x1b[22m', '\x1b[22m\x1b[2m'),
    italic: f('\x1b[3m', '\x1b[23m'),
    underline: f('\x1b[4m', '\x1b[24m'),
    inverse: f('\x1b[7m', '\x1b[27m'),
    hidden: f('\x1b[8m', '\x1b[28m'),
    strikethrough: f('\x1b[9m', '\x1b[29m'),
    black: f('\x1b[30m', '\x1b[39m'),
    red: f('\x1b[31m', '\x1b[39m'),
    green: f('\x1b[32m', '\x1b[39m'),
    yellow: f('\x1b[33m', '\x1b[39m'),
    blue: f('\x1b[34m', '\x1b[39m'),
    magenta: f('\x1b[35m', '\x1b[39m'),
    cyan: f('\x1b[36m', '\x1b[39m'),
    white: f('\x1b[37m', '\x1b[39m'),
    gray: f('\x1b[90m', '\x1b[39m'),
  };
}
