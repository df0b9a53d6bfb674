/**
 * Labelled values of the secret table (secret-patterns.ts), the last section: KEY=value,
 * "key": "value", key: value, --key value, and their relatives, where a label says a secret may follow.
 */
import { CJK_VALUE, DASH, NUMBER_RANGE, PASS, PROSE, quotedValue, QUOTES, UNQUOTED, VALUE } from './secret-fragments.js';
import { classifyKey, QUALIFIED_PASS } from './secret-keys.js';
import {
  acceptQuoted,
  acceptUnquoted,
  DASHES,
  isPlaceholder,
  isPlaceholderMatch,
  looksRandom,
  looksSecretish,
  strongEnough,
} from './secret-values.js';
import { byLabel, re, type PatternMatch, type SecretPattern } from './secret-pattern-kit.js';

const ASSIGNMENT_KINDS = ['password', 'secret', 'token', 'api-key', 'private-key'] as const;

/** Chinese, Japanese and Korean words for a password, key, token or credential. */
const CJK_LABELS = '密码|密碼|口令|访问令牌|訪問令牌|令牌|密钥|密鑰|金鑰|金钥|秘钥|秘鑰|私钥|私鑰|憑證|凭证|憑据|凭据|パスワード|비밀번호';
/** Words between such a label and 是/为 that keep the sentence saying what it is ("都是", "仍然是", "现在是"). */
const CJK_ADVERBS = '都|就|也|还|還|仍然|仍|依然|依旧|依舊|现在|現在|目前|已经|已經|其实|其實|暂时|暫時|默认|默認|统一|統一|一律|一直|应该|應該';
/** Verbs that give the label a new value ("改成了", "換成", "设为"). */
const CJK_CHANGES = '改成|改为|改為|换成|換成|换为|換為|设为|設為|设成|設成|设置为|設置為|设置成|設置成|设定为|設定為|变成|變成|更新为|更新為|更新成|重置为|重置為|重置成';

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
    re: re(String.raw`(?<![\w${DASHES}])${DASH}{1,2}(?<key>[A-Za-z][\w${DASHES}]{1,40})(?:=|[ \t]+)(?![${DASHES}$])${VALUE}`),
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
    re: re(String.raw`(?<=[\w\]])\[[ \t]*(?<kq>["'])(?<key>[A-Za-z_][\w.-]{0,63})\k<kq>[ \t]*\](?<sep>[ \t]*(?::=|=(?!=))[ \t]*)${VALUE}`),
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
    re: re(String.raw`(?<![\w-])(?:setx|set(?:[ \t]+-{1,2}[A-Za-z]{1,12}){1,3}|(?<bare>env|set))[ \t]+(?<key>[A-Za-z_]\w{0,63})[ \t]+${VALUE}`, 'i'),
    check: (p) => {
      if (!/^[A-Z][A-Z0-9_]*$/.test(p.m.groups?.key ?? '')) return false;
      const bare = p.m.groups?.bare;
      if (bare !== undefined && !p.quoted && !isDockerfileEnv(p, bare) && !looksSecretish(p.value)) return false;
      return keyedValue(p, '=');
    },
    tail: UNQUOTED.tail,
  },
  {
    kinds: ['password'],
    // mysql -uroot -phunter2 (the password glued to -p); sshpass -p 'x'; docker login -u ci -p x.
    // The flag is the same command's, and its value no shell operator: `docker login … && docker
    // run -p 8080:80` sets a port, `mysql -u root -p && mkdir -p out` prompts for the password.
    re: re(
      String.raw`[ \t]-p(?<=\b(?:mysql|mysqldump|mysqladmin|mariadb|sshpass|(?:docker|podman|nerdctl|buildah|skopeo)[ \t]+login)\b[^\r\n;&|]{0,200}-p)[ \t]*(?:${quotedValue(QUOTES.single, QUOTES.double)}|(?<vu>[^\s'"|;&<>-][^\s'"|;&<>]*))`,
    ),
    check: (p) => !isPlaceholderMatch(p),
  },
  {
    kinds: ['password'],
    // redis-cli -a hunter2
    re: re(String.raw`[ \t]-a(?<=\bredis-cli\b[^\r\n;&|]{0,200}-a)[ \t]+(?:${quotedValue(QUOTES.single, QUOTES.double)}|(?<vu>[^\s'"|;&<>-][^\s'"|;&<>]*))`),
    check: (p) => !isPlaceholderMatch(p),
  },
  {
    kinds: ['password'],
    // echo 'hunter2' | sudo -S apt update: the password piped to sudo's standard input.
    re: re(
      String.raw`\becho[ \t]+(?:-[neE]{1,3}[ \t]+)?(?:${quotedValue(QUOTES.single, QUOTES.double)}|(?<vu>[^\s'"|;&<>]{1,256}))[ \t]*\|[ \t]*sudo\b[^|;&\r\n]{0,100}?[ \t](?:-[A-Za-z]{0,8}S|--stdin)\b`,
    ),
    check: (p) => p.value.length >= 4 && !isPlaceholderMatch(p),
  },
  {
    kinds: ['password'],
    // htpasswd -b[c] file user hunter2, htpasswd -nb user hunter2: `-b` takes the password from the command line.
    re: re(
      String.raw`\bhtpasswd(?<flags>(?:[ \t]+-[A-Za-z]{1,8}){1,4})[ \t]+[^\s-]\S{0,255}(?:[ \t]+[^\s'"|;&<>-]\S{0,255})?[ \t]+(?:${quotedValue(QUOTES.single, QUOTES.double)}|(?<vu>[^\s'"|;&<>]{1,256}))`,
    ),
    check: (p) => (p.m.groups?.flags ?? '').includes('b') && p.value.length >= 4 && !isPlaceholderMatch(p),
  },
  {
    kinds: ['password'],
    // ~/.netrc: machine host login user password hunter2
    re: re(String.raw`\bmachine[ \t]+\S+(?:[ \t]+login[ \t]+\S+)?[ \t]+password[ \t]+(?<vu>\S+)`),
    check: (p) => !isPlaceholderMatch(p),
  },
  {
    kinds: ['password', 'token', 'secret'],
    // 密码：hunter2 / 密碼: 'x' / 令牌是 abc… (full-width or ASCII colon, or 是/为). The value is an
    // ASCII run or a quoted string: Chinese text after the label is prose ("密码：请找运维"). Also
    // a word before 是 ("密码都是 x", "憑證仍然是 x"), a note in brackets after the label ("密码（正式環境）是 x"),
    // the value on the line after the colon, and a change of value ("密码改成了 x", "令牌換成 x", "密钥设为 x").
    re: re(
      String.raw`(?<label>${CJK_LABELS})(?<note>[ \t]*[（(][^）)\r\n]{1,24}[）)])?[ \t]*(?<sep>(?:${CJK_ADVERBS})?(?:是|为|為)[ \t]*[:：]?|(?<change>(?:已经|已經|已|都|先)?(?:${CJK_CHANGES})了?)[ \t]*[:：]?|[:：=](?<nl>[ \t]*\r?\n)?|(?=[ \t])|(?=[\x21-\x7e]))[ \t]*(?:${quotedValue(QUOTES.corner, QUOTES.curly, QUOTES.escaped, QUOTES.double, QUOTES.single, QUOTES.backtick)}|(?<vu>${CJK_VALUE.char}{1,512}))`,
    ),
    check: (p) => {
      if (isPlaceholderMatch(p)) return false;
      const g = p.m.groups ?? {};
      const sep = g.sep ?? '';
      if (!p.quoted && p.value.length < 4) return false; // "密码：6 位数字" states a rule
      // "密码：8-16位" is a length: a number run straight into Chinese text.
      if (NUMBER_RANGE.test(p.value) && /^[\u3400-\u9fff]/.test(p.text.charAt(p.rawEnd))) return false;
      const label = g.label ?? '';
      // Without a colon the value must look chosen: "密码 Abc@123456", not "密码 MD5 加密"; glued to
      // the label, random: "数据库密码Zq8RmT4v…", not "密钥AES256加密".
      const glued = !/[ \t]/.test(p.text.charAt(p.m.index + label.length));
      if (sep === '' && (g.note !== undefined || !(glued ? looksRandom : looksSecretish)(p.value))) return false;
      // A change names a new value or a new method ("密钥换成 PBKDF2-SHA256"), and the line after a
      // colon may be a list or prose ("密钥：\nAES256 for data"): only a random value with a lower-case letter is a secret.
      if (!p.quoted && (g.change !== undefined || g.nl !== undefined) && !(looksRandom(p.value) && /[a-z]/.test(p.value))) return false;
      if (/令牌/.test(label)) return 'token';
      return /密码|密碼|口令|パスワード|비밀번호/.test(label) ? 'password' : 'secret';
    },
    tail: CJK_VALUE.tail,
  },
  {
    kinds: ['password'],
    // "ssh pass = x", "wifi pw=x": the words, not a key, so the assignment shapes above miss it.
    re: re(String.raw`\b(?<label>${QUALIFIED_PASS})[ \t]*=[ \t]*(?:${quotedValue(QUOTES.escaped, QUOTES.double, QUOTES.single)}|(?<vu>${PASS.char}{1,256}))`, 'i'),
    check: (p) => (p.quoted ? p.value.length >= 4 && !isPlaceholder(p.value) : looksSecretish(p.value)),
    tail: PASS.tail,
  },
  {
    kinds: ['password', 'secret', 'token', 'api-key'],
    // Prose: "the staging password is hunter2!", "ssh pass is x", "API key for prod was `abc123…`", "Password for
    // wifi: x", "set the password to x". Unquoted values must look chosen or random, so "the
    // password is rotated weekly" stays.
    re: re(
      String.raw`\b(?<label>passwords?|passphrase|passwd|pwd|pin|${QUALIFIED_PASS}|secret(?:[ _-]key)?|api[ _-]?key|access[ _-]?token|token)\b(?:[ \t]+(?:for|of|on|to|in)(?:[ \t]+[\w.@-]{1,40}){1,3}?)?(?:[ \t]+(?:is|was|are|to)[ \t]*:?[ \t]+|[ \t]*:[ \t]*)(?:now[ \t]+|still[ \t]+|just[ \t]+|set[ \t]+to[ \t]+)?(?:${quotedValue(QUOTES.escaped, QUOTES.double, QUOTES.single, QUOTES.backtick)}|(?<vu>${PROSE.char}{1,256}))`,
      'i',
    ),
    check: (p) => {
      if (p.quoted ? !acceptQuoted(p.value, '', 'password') || p.value.length < 4 : !looksSecretish(p.value)) return false;
      if (/(?:pass|pw)$/i.test(p.m.groups?.label ?? '')) return 'password';
      return byLabel({ pass: 'password', pwd: 'password', pin: 'password', secret: 'secret', api: 'api-key' }, 'token')(p);
    },
    tail: PROSE.tail,
  },
  {
    kinds: ['password'],
    // "Always use that nexus password MvnRep0Pa55wordQx9 for releases", "passwd hunter2hunter2": no
    // `is` or `:` after the word, so only a value that looks random counts ("password reset flow").
    re: re(
      String.raw`\b(?:passwords?|passphrase|passwd|${QUALIFIED_PASS})[ \t]+(?:${quotedValue(QUOTES.escaped, QUOTES.double, QUOTES.single, QUOTES.backtick)}|(?<vu>${PROSE.char}{1,256}))`,
      'i',
    ),
    check: (p) => looksRandom(p.value),
    tail: PROSE.tail,
  },
  {
    kinds: ['password'],
    // "the wifi password is correcthorsebatterystaple": after an owner ("wifi", "my", "admin"), one
    // word of 8+ letters is the password whatever it looks like, unless it is a word that describes
    // one ("…is required", "…is incorrect") or a determiner stands for the owner ("the password is…").
    re: re(String.raw`\b(?<owner>[A-Za-z][\w-]{0,30})[ \t]+(?:password|passphrase|passwd)[ \t]+(?:is|was)[ \t]+(?:now[ \t]+|still[ \t]+|just[ \t]+)?(?<vu>[A-Za-z][A-Za-z_-]{6,254}[A-Za-z])(?![\w@#$%^&*+=~/\\.-]*\w)`, 'i'),
    check: (p) => {
      const owner = (p.m.groups?.owner ?? '').toLowerCase();
      const word = p.value.toLowerCase();
      if (NOT_OWNERS.has(owner) || DESCRIBES_PASSWORD.has(word) || /(?:ed|ing|ly|able|ible|tion|sion)$/.test(word)) return false;
      return !isPlaceholder(p.value);
    },
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

/** Words before "password" that do not say whose it is. */
const NOT_OWNERS = new Set(['the', 'a', 'an', 'this', 'that', 'these', 'those', 'which', 'what', 'whose', 'no', 'any', 'some', 'each', 'every', 'if', 'and', 'or', 'is', 'was']);
/** Words that say something about a password rather than being one ("the wifi password is required"). */
const DESCRIBES_PASSWORD = new Set(
  `required incorrect invalid reset expired wrong set changed missing optional mandatory different correct
  something anything nothing somewhere elsewhere unknown insecure secure strong weak visible hidden blank
  empty sensitive necessary available unchanged obsolete temporary permanent default disabled enabled
  ignored mismatch mismatched generated encrypted hashed rotated stored shared documented configured
  specified provided accepted rejected verified validated printed updated compromised leaked`.split(/\s+/),
);
