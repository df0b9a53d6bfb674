/**
 * Labelled values of the secret table (secret-patterns.ts), the section after the shapes: KEY=value,
 * "key": "value", key: value, --key value, and their relatives, where a key names a secret and the
 * value is judged by that key (secret-keys.ts, secret-values.ts). Passwords on a command line follow
 * in secret-command-patterns.ts, labels in sentences in secret-prose-patterns.ts.
 */
import { DASH, UNQUOTED, VALUE } from './secret-fragments.js';
import { classifyKey } from './secret-keys.js';
import { acceptQuoted, acceptUnquoted, DASHES, looksSecretish, strongEnough } from './secret-values.js';
import { re, type PatternMatch, type SecretPattern } from './secret-pattern-kit.js';

const ASSIGNMENT_KINDS = ['password', 'secret', 'token', 'api-key', 'private-key'] as const;

export const LABELLED_PATTERNS: readonly SecretPattern[] = [
  // --- Labelled values: KEY=value, "key": "value", key: value, --key value, and their relatives.
  {
    kinds: [...ASSIGNMENT_KINDS],
    // The key's quote may be escaped to any depth (`\\\"password\\\":`, JSON in a JSON string in a
    // tool input), the same on both sides of it. A key never follows a backslash, so the quote's
    // run of backslashes is read from its first one only and a long run costs one pass.
    re: re(
      String.raw`(?<![\w.&?/@\\-])(?<kq>\\*["'])?(?<key>[A-Za-z_][\w.-]{0,63})\k<kq>(?<sep>[ \t]*(?::=|=>|:(?![:/])|=(?!=)|：)[ \t]*)${VALUE}`,
    ),
    check: (p) => keyedValue(p),
    tail: UNQUOTED.tail,
  },
  {
    kinds: [...ASSIGNMENT_KINDS],
    // CLI flags: --password hunter2, --api-key=…, --token "…". Smart typography makes `--` an en
    // or em dash (–password x, —token x), so a flag opens with one or two of any DASHES.
    re: re(
      String.raw`(?<![\w${DASHES}])${DASH}{1,2}(?<key>[A-Za-z][\w${DASHES}]{1,40})(?:=|[ \t]+)(?![${DASHES}$])${VALUE}`,
    ),
    check: (p) => keyedValue(p, '='),
    tail: UNQUOTED.tail,
  },
  {
    kinds: [...ASSIGNMENT_KINDS],
    // The key in one field, the value in the next: `<add key="ApiKey" value="…"/>` (web.config),
    // `- name: API_TOKEN` / `  value: "…"` (Kubernetes env), `{"name": "DB_PASSWORD", "value": "…"}`
    // (ECS), `{"ParameterKey": "DBPassword", "ParameterValue": "…"}` (CloudFormation).
    re: re(
      String.raw`(?<![\w\\-])(?<nq>\\*["']?)(?:parameter|option)?(?:name|key)\k<nq>[ \t]*[:=][ \t]*(?<kq>\\*["']?)(?<key>[A-Za-z_][\w.-]{0,63})\k<kq>[ \t]*,?[ \t]*(?:\r?\n[ \t]*)?\k<nq>(?:parameter|option)?value\k<nq>(?<sep>[ \t]*[:=][ \t]*)${VALUE}`,
      'i',
    ),
    check: (p) => keyedValue(p),
    tail: UNQUOTED.tail,
  },
  {
    kinds: [...ASSIGNMENT_KINDS],
    // `<password>…</password>` (Maven settings.xml): the element names the value, and its text is
    // judged as a quoted one (`vq1`): the tags delimit it.
    re: re(String.raw`<(?<key>[A-Za-z_][\w.:-]{0,63})>(?<vq1>[^<\r\n]{1,4096})</\k<key>>`),
    check: (p) => keyedValue(p),
  },
  {
    kinds: [...ASSIGNMENT_KINDS],
    // os.environ["OPENAI_API_KEY"] = "…", headers["Authorization"] = "…"
    re: re(
      String.raw`(?<=[\w\]])\[[ \t]*(?<kq>["'])(?<key>[A-Za-z_][\w.-]{0,63})\k<kq>[ \t]*\](?<sep>[ \t]*(?::=|=(?!=))[ \t]*)${VALUE}`,
    ),
    check: (p) => keyedValue(p),
    tail: UNQUOTED.tail,
  },
  {
    kinds: [...ASSIGNMENT_KINDS],
    // An environment variable set without `=`: Dockerfile `ENV DB_PASSWORD x`, fish
    // `set -gx OPENAI_API_KEY x`, Windows `setx OPENAI_API_KEY x`. Only a variable's name counts
    // (upper case), so "set secret santa" is prose; the value is judged as after `KEY=`. A bare
    // `set` or `env` is English too ("remember to set DATABASE_PASSWORD correctly"): unquoted, and
    // not a Dockerfile's `ENV` opening its line, the value must also look chosen.
    re: re(
      String.raw`(?<![\w-])(?:setx|set(?:[ \t]+-{1,2}[A-Za-z]{1,12}){1,3}|(?<bare>env|set))[ \t]+(?<key>[A-Za-z_]\w{0,63})[ \t]+${VALUE}`,
      'i',
    ),
    check: (p) => {
      if (!/^[A-Z][A-Z0-9_]*$/.test(p.m.groups?.key ?? '')) return false;
      const bare = p.m.groups?.bare;
      if (bare !== undefined && !p.quoted && !isDockerfileEnv(p, bare) && !looksSecretish(p.value)) return false;
      return keyedValue(p, '=');
    },
    tail: UNQUOTED.tail,
  },
];

/**
 * The kind of secret a key names, if its value is one: a literal accepted after `sep` (the
 * pattern's own separator unless given) and strong enough for that kind.
 */
function keyedValue(p: PatternMatch, sep = p.m.groups?.sep ?? ''): string | false {
  const key = p.m.groups?.key ?? '';
  const kind = classifyKey(key);
  if (kind === null) return false;
  const ok = p.quoted ? acceptQuoted(p.value, key, kind) : acceptUnquoted(p, key, sep);
  return ok && strongEnough(p.value, kind) && kind;
}

/** `ENV` in capitals at the start of a line: a Dockerfile instruction, never a word of prose. */
function isDockerfileEnv(p: PatternMatch, command: string): boolean {
  return command === 'ENV' && (p.m.index === 0 || /[\r\n]/.test(p.text.charAt(p.m.index - 1)));
}
