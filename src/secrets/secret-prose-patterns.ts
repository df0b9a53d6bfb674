/**
 * Secrets named in a sentence, after the command-line passwords in the secret table
 * (secret-patterns.ts): 密码：x, 令牌是 x, "the staging password is hunter2", "wifi password
 * correcthorse…". A sentence says more than passwords, so an unquoted value must look chosen or
 * random, and words that describe a password ("is required", "密码：请找运维") stay prose.
 */
import { CJK_VALUE, NUMBER_RANGE, PASS, PROSE, quotedValue, QUOTES } from './secret-fragments.js';
import { QUALIFIED_PASS } from './secret-keys.js';
import { acceptQuoted, isPlaceholder, isPlaceholderMatch, looksRandom, looksSecretish } from './secret-values.js';
import { byLabel, re, type SecretPattern } from './secret-pattern-kit.js';

/** Chinese, Japanese and Korean words for a password, key, token or credential. */
const CJK_LABELS =
  '密码|密碼|口令|访问令牌|訪問令牌|令牌|密钥|密鑰|金鑰|金钥|秘钥|秘鑰|私钥|私鑰|憑證|凭证|憑据|凭据|パスワード|비밀번호';
/** Words between such a label and 是/为 that keep the sentence saying what it is ("都是", "仍然是", "现在是"). */
const CJK_ADVERBS =
  '都|就|也|还|還|仍然|仍|依然|依旧|依舊|现在|現在|目前|已经|已經|其实|其實|暂时|暫時|默认|默認|统一|統一|一律|一直|应该|應該';
/** Verbs that give the label a new value ("改成了", "換成", "设为"). */
const CJK_CHANGES =
  '改成|改为|改為|换成|換成|换为|換為|设为|設為|设成|設成|设置为|設置為|设置成|設置成|设定为|設定為|变成|變成|更新为|更新為|更新成|重置为|重置為|重置成';

export const PROSE_PATTERNS: readonly SecretPattern[] = [
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
      if (
        !p.quoted &&
        (g.change !== undefined || g.nl !== undefined) &&
        !(looksRandom(p.value) && /[a-z]/.test(p.value))
      )
        return false;
      if (/令牌/.test(label)) return 'token';
      return /密码|密碼|口令|パスワード|비밀번호/.test(label) ? 'password' : 'secret';
    },
    tail: CJK_VALUE.tail,
  },
  {
    kinds: ['password'],
    // "ssh pass = x", "wifi pw=x": the words, not a key, so the assignment shapes above miss it.
    re: re(
      String.raw`\b(?<label>${QUALIFIED_PASS})[ \t]*=[ \t]*(?:${quotedValue(QUOTES.escaped, QUOTES.double, QUOTES.single)}|(?<vu>${PASS.char}{1,256}))`,
      'i',
    ),
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
      if (p.quoted ? !acceptQuoted(p.value, '', 'password') || p.value.length < 4 : !looksSecretish(p.value))
        return false;
      if (/(?:pass|pw)$/i.test(p.m.groups?.label ?? '')) return 'password';
      return byLabel(
        { pass: 'password', pwd: 'password', pin: 'password', secret: 'secret', api: 'api-key' },
        'token',
      )(p);
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
    re: re(
      String.raw`\b(?<owner>[A-Za-z][\w-]{0,30})[ \t]+(?:password|passphrase|passwd)[ \t]+(?:is|was)[ \t]+(?:now[ \t]+|still[ \t]+|just[ \t]+)?(?<vu>[A-Za-z][A-Za-z_-]{6,254}[A-Za-z])(?![\w@#$%^&*+=~/\\.-]*\w)`,
      'i',
    ),
    check: (p) => {
      const owner = (p.m.groups?.owner ?? '').toLowerCase();
      const word = p.value.toLowerCase();
      if (NOT_OWNERS.has(owner) || DESCRIBES_PASSWORD.has(word) || /(?:ed|ing|ly|able|ible|tion|sion)$/.test(word))
        return false;
      return !isPlaceholder(p.value);
    },
  },
];

/** Words before "password" that do not say whose it is. */
const NOT_OWNERS = new Set([
  'the',
  'a',
  'an',
  'this',
  'that',
  'these',
  'those',
  'which',
  'what',
  'whose',
  'no',
  'any',
  'some',
  'each',
  'every',
  'if',
  'and',
  'or',
  'is',
  'was',
]);
/** Words that say something about a password rather than being one ("the wifi password is required"). */
const DESCRIBES_PASSWORD = new Set(
  `required incorrect invalid reset expired wrong set changed missing optional mandatory different correct
  something anything nothing somewhere elsewhere unknown insecure secure strong weak visible hidden blank
  empty sensitive necessary available unchanged obsolete temporary permanent default disabled enabled
  ignored mismatch mismatched generated encrypted hashed rotated stored shared documented configured
  specified provided accepted rejected verified validated printed updated compromised leaked`.split(/\s+/),
);
