/** What a served client prints and how: the resident search server fills these for the client to write out. */
/**
 * How the client would print (its --json and --quiet, whether its stdout gets colour, whether its
 * stderr is a terminal, where a progress line is cleared): the server prints the answer so into
 * text (src/terminal/output.ts capture), and the client writes it out.
 */
export interface Render {
  json: boolean;
  quiet: boolean;
  colour: boolean;
  stderrTerminal: boolean;
}

export function isRender(r: unknown): r is Render {
  const o = r as Record<string, unknown> | null;
  return typeof o === 'object' && o !== null && ['json', 'quiet', 'colour', 'stderrTerminal'].every((k) => typeof o[k] === 'boolean');
}

/** What a client writes, in order: text for its stdout (1) or its stderr (2). */
export type Printed = [1 | 2, string][];
