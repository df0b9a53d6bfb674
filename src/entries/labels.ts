/**
 * The `key` and `scope` a person or an agent gives an entry (`mem remember`, `mem import`, the MCP
 * tool memory_remember). Unlike text they are identities, written as they are and never redacted, so
 * one shaped like a secret is refused, and the error never repeats it; any other bad value is shown
 * JSON-quoted, so a newline in it cannot break the one-line error.
 */
import { MemError } from '../core/errors.js';
import { findSecrets } from '../secrets/secrets.js';
import { SCOPE, TYPED_KEY } from './model.js';

const RULES = {
  key: {
    ok: (v: string) => TYPED_KEY.test(v) && v.length <= 200,
    want: 'a typed key such as pref:writing:tone or decision:shop:database (at most 200 characters)',
  },
  scope: { ok: (v: string) => SCOPE.test(v), want: 'global, project:<name> or lang:<name>' },
};

export type Label = keyof typeof RULES;

/**
 * How the caller names a label in its errors: the CLI by its flag (the default), the MCP tool by
 * its parameter, so an agent is never told about a `--key` it cannot pass.
 */
export type LabelName = (label: Label) => string;

const flag: LabelName = (label) => `--${label}`;

export function checkLabels(labels: { key?: string; scope?: string }, nameOf: LabelName = flag): void {
  for (const name of ['key', 'scope'] as const) {
    const value = labels[name];
    if (value === undefined) continue;
    const secret = findSecrets(value)[0];
    if (secret)
      throw new MemError(
        'USAGE',
        `${nameOf(name)} holds something shaped like a secret (${secret.kind}); a ${name} is written to memory as it is: name the thing, not its value`,
      );
    if (!RULES[name].ok(value))
      throw new MemError('USAGE', `${nameOf(name)} ${JSON.stringify(value)} is not ${RULES[name].want}`);
  }
}
