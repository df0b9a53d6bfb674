/**
 * Redaction is the gate for invariant 5 (no transcript secret in the workspace or an LLM request):
 * every shape in the corpus must be removed whole, labels and prose must survive, clean dev chat
 * must come through untouched, a second pass must change nothing, and big inputs must stay fast.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { SECRET_KINDS, containsSecret, findSecrets, redactSecrets, redactionMarker } from '../src/secrets/secrets.js';
import { stripControl } from '../src/extract/clean.js';
import { redactPath } from '../src/secrets/secret-path.js';
import { NON_SECRETS, SECRET_SAMPLES, synth } from './fixtures/secrets/corpus.js';

const CLEAN = readFileSync(new URL('./fixtures/secrets/clean.md', import.meta.url), 'utf8');

/** Every 8-character window of the secret that is still in the output: none may be. */
function leakedParts(output: string, secret: string): string[] {
  const leaks: string[] = [];
  for (let i = 0; i + 8 <= secret.length; i++) {
    const part = secret.slice(i, i + 8);
    if (output.includes(part)) leaks.push(part);
  }
  return leaks;
}

/** Words of 3+ letters outside the secret: the sentence around it must still read. */
function surroundingWords(text: string, secret: string): string[] {
  return text
    .split(secret)
    .flatMap((part) => part.match(/[\p{L}\p{N}_]{3,}/gu) ?? [])
    .filter((w) => /\p{L}/u.test(w));
}

test('public API', () => {
  assert.equal(typeof redactSecrets, 'function');
  assert.equal(typeof containsSecret, 'function');
  assert.equal(typeof findSecrets, 'function');
  assert.deepEqual(redactSecrets(''), { text: '', count: 0, kinds: [] });
  assert.deepEqual(findSecrets(''), []);
  assert.equal(containsSecret(''), false);
});

test('the corpus covers at least 30 kinds and every kind the patterns can report', () => {
  const covered = new Set(SECRET_SAMPLES.map((s) => s.kind));
  assert.ok(covered.size >= 30, `only ${covered.size} kinds in the corpus`);
  assert.deepEqual(
    SECRET_KINDS.filter((k) => !covered.has(k)),
    [],
    'kinds without a sample',
  );
  for (const kind of covered) assert.ok(SECRET_KINDS.includes(kind), `${kind} is not a known kind`);
  for (const s of SECRET_SAMPLES) assert.ok(s.text.includes(s.secret), `sample text lacks its secret: ${s.text}`);
});

for (const [i, sample] of SECRET_SAMPLES.entries()) {
  test(`redacts ${sample.kind} #${i}: ${sample.text.slice(0, 50).replace(/\s+/g, ' ')}`, () => {
    const out = redactSecrets(sample.text);
    assert.deepEqual(leakedParts(out.text, sample.secret), [], `secret survived in: ${out.text}`);
    assert.ok(out.text.includes(redactionMarker(sample.kind)), `no ${sample.kind} marker in: ${out.text}`);
    assert.ok(out.kinds.includes(sample.kind));
    for (const word of surroundingWords(sample.text, sample.secret)) {
      assert.ok(out.text.includes(word), `lost "${word}" from: ${out.text}`);
    }
    assert.ok(containsSecret(sample.text));
    assert.equal(redactSecrets(out.text).text, out.text, 'second pass changed the text');
    assert.equal(containsSecret(out.text), false, `still finds a secret in: ${out.text}`);
  });
}

test('findSecrets reports kinds and offsets that cover the secret', () => {
  for (const sample of SECRET_SAMPLES) {
    const at = sample.text.indexOf(sample.secret);
    const findings = findSecrets(sample.text);
    const cover = findings.find((f) => f.start <= at + 1 && f.end >= at + sample.secret.length - 1);
    assert.ok(cover, `no finding covers the secret in: ${sample.text}`);
    assert.equal(cover.kind, sample.kind);
    for (let j = 1; j < findings.length; j++) {
      assert.ok((findings[j - 1]?.end ?? 0) <= (findings[j]?.start ?? 0), 'findings overlap or are unsorted');
    }
  }
});

test('keeps the label so the sentence still reads', () => {
  assert.equal(
    redactSecrets('the staging password is hunter2-FAKE!').text,
    'the staging password is [REDACTED:password]',
  );
  assert.equal(redactSecrets('DB_PASSWORD=hunter2-FAKE').text, 'DB_PASSWORD=[REDACTED:password]');
  assert.equal(redactSecrets('{"password": "s3cret-FAKE"}').text, '{"password": "[REDACTED:password]"}');
  assert.equal(redactSecrets('密码：Xk92-FAKE，别外传').text, '密码：[REDACTED:password]，别外传');
  assert.equal(redactSecrets('密碼: FakeTw-2026').text, '密碼: [REDACTED:password]');
  assert.equal(
    redactSecrets('postgres://app:S3cr3t-FAKE@db:5432/shop').text,
    'postgres://app:[REDACTED:database-password]@db:5432/shop',
  );
  assert.equal(
    redactSecrets('Authorization: Bearer FAKEabc123def456ghi789').text,
    'Authorization: Bearer [REDACTED:bearer-token]',
  );
});

test('a value longer than the bound its pattern judges it on is removed whole', () => {
  const v = (n: number) => `FAKE${synth(`long-${n}`, n - 4)}1`;
  const dotted = `${v(255)}.${v(40)}`; // the bound falls just after the dot that trimming drops
  for (const [text, expected, secret] of [
    [`my password is ${v(300)} ok`, 'my password is [REDACTED:password] ok', v(300)],
    [`the password is ${dotted} ok`, 'the password is [REDACTED:password] ok', dotted],
    [`ssh pass = ${v(300)}`, 'ssh pass = [REDACTED:password]', v(300)],
    [`密码：${v(600)}，别外传`, '密码：[REDACTED:password]，别外传', v(600)],
    [`DB_PASSWORD=${v(1100)}`, 'DB_PASSWORD=[REDACTED:password]', v(1100)],
    [`tool --token ${v(1100)} run`, 'tool --token [REDACTED:token] run', v(1100)],
    [`GET /x?access_token=${v(5000)}&page=2`, 'GET /x?access_token=[REDACTED:token]&page=2', v(5000)],
    [`Cookie: sid=${v(5000)}`, 'Cookie: [REDACTED:cookie]', `sid=${v(5000)}`],
    [`the password is "${v(300)} ${v(300)}" ok`, 'the password is "[REDACTED:password]" ok', `${v(300)} ${v(300)}`],
  ] as const) {
    const out = redactSecrets(text).text;
    assert.deepEqual(leakedParts(out, secret), [], `tail survived in: ${out.slice(0, 120)}`);
    assert.equal(out, expected);
    assert.equal(redactSecrets(out).text, out);
  }
});

test('a quoted value longer than the 4,096 characters a quote is read to is removed whole, up to its closing quote', () => {
  const v = (n: number, seed = 'q') => `FAKE${synth(`long-quoted-${seed}-${n}`, n - 4)}`;
  const spaced = `${v(3000, 'a')} ${v(3000, 'b')}`;
  const escapedQuote = `${v(3000, 'c')}\\"${v(3000, 'd')}`; // a JSON-escaped quote inside the value
  for (const [text, expected, secret] of [
    [`{"password": "${v(5000)}"}`, '{"password": "[REDACTED:password]"}', v(5000)],
    [
      `{"password": "${escapedQuote}", "user": "ci"}`,
      '{"password": "[REDACTED:password]", "user": "ci"}',
      escapedQuote,
    ],
    [`{\\"password\\": \\"${v(5000)}\\"}`, '{\\"password\\": \\"[REDACTED:password]\\"}', v(5000)],
    [`API_KEY='${v(4097)}' make deploy`, "API_KEY='[REDACTED:api-key]' make deploy", v(4097)],
    [`tool --token "${v(5000)}" run`, 'tool --token "[REDACTED:token]" run', v(5000)],
    [`my password is '${v(5000)}' ok`, "my password is '[REDACTED:password]' ok", v(5000)],
    [`the password is "${spaced}" ok`, 'the password is "[REDACTED:password]" ok', spaced],
    [`ssh pass = "${v(5000)}"`, 'ssh pass = "[REDACTED:password]"', v(5000)],
    [`密码：「${v(5000)}」，别外传`, '密码：「[REDACTED:password]」，别外传', v(5000)],
    [`mysql -uroot -p'${v(5000)}' shop`, "mysql -uroot -p'[REDACTED:password]' shop", v(5000)],
    // Still open at the end of the line: everything to the line break goes.
    [`password: "${v(5000)}\nnext line`, 'password: "[REDACTED:password]\nnext line', v(5000)],
  ] as const) {
    const out = redactSecrets(text).text;
    assert.deepEqual(leakedParts(out, secret), [], `survived in: ${out.slice(0, 120)}`);
    assert.equal(out, expected);
    assert.equal(redactSecrets(out).text, out);
  }
});

test('a prefixed token pasted with Unicode dashes is removed whole and keeps its kind', () => {
  // Hyphens and dashes U+2010-2015, minus, soft, small and full-width hyphens: what a rendered page,
  // a PDF or a chat client puts where the key had `-`.
  const dashes = ['\u2010', '\u2011', '\u2012', '\u2013', '\u2014', '\u2015', '\u2212', '\u00ad', '\ufe63', '\uff0d'];
  const labelled = /^(?:password|secret|token|api-key|database-password|url-password|cookie|bearer-token|basic-auth)$/;
  const dashed = SECRET_SAMPLES.filter((s) => !labelled.test(s.kind) && s.secret.includes('-'));
  const kinds = new Set(dashed.map((s) => s.kind));
  for (const kind of [
    'slack-token',
    'anthropic-key',
    'openrouter-key',
    'gitlab-token',
    'age-secret-key',
    'rsa-private-key',
  ]) {
    assert.ok(kinds.has(kind), `no dashed ${kind} sample`);
  }
  for (const sample of dashed) {
    for (const dash of dashes) {
      const secret = sample.secret.replaceAll('-', dash);
      const text = sample.text.replace(sample.secret, secret);
      const out = redactSecrets(text);
      const where = `${sample.kind} with U+${dash.codePointAt(0)?.toString(16)}`;
      assert.deepEqual(leakedParts(out.text, secret), [], `${where} survived in: ${out.text}`);
      const at = text.indexOf(secret);
      const cover = findSecrets(text).find((f) => f.start <= at + 1 && f.end >= at + secret.length - 1);
      assert.equal(cover?.kind, sample.kind, `${where}: ${out.text}`);
    }
  }
});

test('a NUL, a control or an invisible character inside a secret does not hide it: removed whole, splitters included', () => {
  // A NUL after every character is a UTF-16 file read as UTF-8 (PowerShell's `>` writes UTF-16LE).
  const splitters: [string, (s: string) => string][] = [
    ['one NUL', (s) => s.slice(0, 6) + '\0' + s.slice(6)],
    ['a NUL after every character', (s) => Array.from(s).join('\0') + '\0'],
    ['a zero-width space', (s) => s.slice(0, 9) + '\u200b' + s.slice(9)],
    ['a byte-order mark and an escape', (s) => s.slice(0, 4) + '\ufeff' + s.slice(4, 12) + '\u001b' + s.slice(12)],
  ];
  for (const sample of SECRET_SAMPLES) {
    for (const [name, split] of splitters) {
      const secret = split(sample.secret);
      const text = sample.text.replace(sample.secret, secret);
      const out = redactSecrets(text);
      const where = `${sample.kind} with ${name}`;
      const visible = (s: string) => s.replace(/[\0\u200b\ufeff\u001b]/g, '');
      assert.deepEqual(
        leakedParts(visible(out.text), visible(secret)),
        [],
        `${where} survived in: ${JSON.stringify(out.text)}`,
      );
      assert.ok(containsSecret(text), where);
      const rest = text.split(secret);
      assert.ok(
        out.text.startsWith(rest[0]!.slice(0, Math.max(0, rest[0]!.length - 40))),
        `${where}: text before it kept`,
      );
    }
  }
  // Between words, not inside a token, they change nothing; text without a secret comes back as it was.
  for (const clean of ['hello\u200bworld', 'pasted \0 text', 'a\0b\0c', '\ufeff# Notes', 'emoji 👍\u200d👍']) {
    assert.equal(redactSecrets(clean).text, clean);
  }
  // What is written to memory: a control character between visible ones goes, any other is a space.
  assert.equal(stripControl('pasted \0 text\u0007!'), 'pasted text!');
  assert.equal(stripControl('h\0i\0 \0t\0h\0e\0r\0e\0'), 'hi there ');
  assert.equal(stripControl('token sk-proj-\0Ab3d'), 'token sk-proj-Ab3d');
});

test('a labelled value runs through every Unicode dash, after a CJK label and in KEY=value', () => {
  const dashes = ['\u2010', '\u2011', '\u2012', '\u2013', '\u2014', '\u2015', '\u2212', '\u00ad', '\ufe63', '\uff0d'];
  for (const d of dashes) {
    for (const [text, expected] of [
      [`密码：Xk92${d}FAKE${d}pq，别外传`, '密码：[REDACTED:password]，别外传'],
      [`访问令牌：FAKEtok${d}5a6b7c8d9e 有效期一天`, '访问令牌：[REDACTED:token] 有效期一天'],
      [`パスワード：FakeJp${d}pass12 です`, 'パスワード：[REDACTED:password] です'],
      [`SECRET_KEY_BASE=FAKE${d}rails${d}base${d}7f9a2c`, 'SECRET_KEY_BASE=[REDACTED:secret]'],
      [`export DB_PASSWORD=hunter2${d}FAKE && psql`, 'export DB_PASSWORD=[REDACTED:password] && psql'],
      [`{"api_key": FAKEa1b2${d}c3d4e5f6a7b8}`, '{"api_key": [REDACTED:api-key]}'],
    ] as const) {
      assert.equal(redactSecrets(text).text, expected, `U+${d.codePointAt(0)?.toString(16)}`);
    }
  }
  // A dash that ends the value is the sentence's, and stays.
  assert.equal(redactSecrets('密码：Xk92FAKEpq——别外传').text, '密码：[REDACTED:password]——别外传');
  assert.equal(redactSecrets('SECRET_KEY_BASE=FAKErails7f9a2c－').text, 'SECRET_KEY_BASE=[REDACTED:secret]－');
});

test("a CLI flag typed with an en or em dash (smart typography's `--`) is a flag", () => {
  for (const [text, expected] of [
    ['mysql-backup \u2013password FakeFlag-55 --all', 'mysql-backup \u2013password [REDACTED:password] --all'],
    ['tool \u2014token FAKEabc123def456ghi789 run', 'tool \u2014token [REDACTED:token] run'],
    [
      'deploy \u2014\u2014api\u2011key=FAKEa1b2c3d4e5f6a7b8 now',
      'deploy \u2014\u2014api\u2011key=[REDACTED:api-key] now',
    ],
    ['app \u2013db\u2013password "Fake Quoted 9"', 'app \u2013db\u2013password "[REDACTED:password]"'],
    [
      'curl \u2013user admin:Fake-Curl-77x https://ci.example.test',
      'curl \u2013user admin:[REDACTED:password] https://ci.example.test',
    ],
    // The next flag is not a value; prose around a dash is not a flag.
    ['mysql-backup \u2013password \u2013verbose', null],
    ['Use \u2014password-stdin \u2014 never \u2014password on the command line.', null],
    ['The form\u2019s field\u2014password reset emails go out hourly.', null],
  ] as const) {
    assert.equal(redactSecrets(text).text, expected ?? text);
  }
});

test('a labelled value may hold a backslash; an escape (`\\n` of re-encoded JSON) ends it; a Windows path stays', () => {
  for (const [text, expected] of [
    ['password is hunter2\\nnext', 'password is [REDACTED:password]\\nnext'],
    ['password is hunter2\\\\nnext', 'password is [REDACTED:password]\\\\nnext'], // JSON-encoded twice
    [
      'the staging password is Hunter2-FAKE\\r\\nthen restart',
      'the staging password is [REDACTED:password]\\r\\nthen restart',
    ],
    ['ssh pass = Hunter22x\\tnext', 'ssh pass = [REDACTED:password]\\tnext'],
    ['DB_PASSWORD=hunter2-FAKE\\nDB_HOST=db.internal', 'DB_PASSWORD=[REDACTED:password]\\nDB_HOST=db.internal'],
    ['密码：Xk92FAKE\\n下一行', '密码：[REDACTED:password]\\n下一行'],
    ['my password is Fake\\Pass99 ok', 'my password is [REDACTED:password] ok'],
    ['{"text": "the password is \\"Hunter2-FAKE\\" ok"}', '{"text": "the password is \\"[REDACTED:password]\\" ok"}'],
    ['{"text": "ssh pass = \\"Hunter2-FAKE\\""}', '{"text": "ssh pass = \\"[REDACTED:password]\\""}'],
    ['{"text": "密码：\\"Hunter2-FAKE\\"，别外传"}', '{"text": "密码：\\"[REDACTED:password]\\"，别外传"}'],
    // Where a secret lives on Windows, single or JSON-doubled backslashes: not a secret.
    ['password file is C:\\\\secrets\\\\app.pem', null],
    ['the password is C:\\secrets\\app.pem', null],
    ['the password is C:\\\\secrets\\\\app.pem', null],
    ['the password is \\\\fs01\\ops\\pw2.txt', null],
    ['the api key is keys\\prod2.pem and the token is %APPDATA%\\gh\\tok2.txt', null],
    ['Password: C:\\temp\\pw2.txt', null],
  ] as const) {
    assert.equal(redactSecrets(text).text, expected ?? text, text);
  }
});

test('a value holding `/` after a label is a password unless it looks like a path or URL', () => {
  for (const [text, expected] of [
    ['the db password is p/a55w0rd!x.', 'the db password is [REDACTED:password].'],
    ['Password: p/a55w0rd!x please', 'Password: [REDACTED:password] please'],
    ['ssh pass = ab/cd12!x', 'ssh pass = [REDACTED:password]'],
    ['the password file is /etc/app/secret.conf', null],
    ['the password is ~/.pgpass', null],
    ['the password is ../keys/prod.pem', null],
    ['the api key is config/prod2.env', null],
    ['the token is https://example.test/a1/b2', null],
    ['the token is api.example.test/v2/t0ken', null],
    ['the pin is 2024/11/21', null],
  ] as const) {
    assert.equal(redactSecrets(text).text, expected ?? text);
  }
});

test('a variable set without `=`: after a bare `set` or `env` the value must look chosen, unless quoted or on a Dockerfile `ENV` line', () => {
  for (const [text, expected] of [
    ['FROM postgres:16\nENV POSTGRES_PASSWORD postgres', 'FROM postgres:16\nENV POSTGRES_PASSWORD [REDACTED:password]'],
    ['set DB_PASSWORD "postgres"', 'set DB_PASSWORD "[REDACTED:password]"'],
    ['we set DB_PASSWORD Xk92pq77FAKE first', 'we set DB_PASSWORD [REDACTED:password] first'],
    ['env API_TOKEN Xk92pq77FAKEtoken', 'env API_TOKEN [REDACTED:token]'],
    ['set DB_PASSWORD postgres', null],
    ['the image runs ENV POSTGRES_PASSWORD postgres by default', null],
  ] as const) {
    assert.equal(redactSecrets(text).text, expected ?? text, text);
  }
});

test('a multi-line PEM block is removed whole, also CRLF, JSON-escaped and truncated', () => {
  const body = Array.from({ length: 8 }, (_, i) =>
    synth(`pem-${i}`, 64, 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'),
  );
  const begin = ['-----BEGIN', 'RSA PRIVATE KEY-----'].join(' ');
  const end = ['-----END', 'RSA PRIVATE KEY-----'].join(' ');
  const block = [begin, 'Proc-Type: 4,ENCRYPTED', 'DEK-Info: AES-128-CBC,FAKE0011223344', '', ...body, end].join('\n');
  for (const [name, text] of [
    ['LF', `before\n${block}\nafter`],
    ['CRLF', `before\r\n${block.replace(/\n/g, '\r\n')}\r\nafter`],
    ['JSON', `{"key": "${block.replace(/\n/g, '\\n')}", "after": 1}`],
    ['truncated', `before\n${block.split('\n').slice(0, 8).join('\n')}\n[output truncated]`],
  ] as const) {
    const out = redactSecrets(text).text;
    for (const line of body.slice(0, name === 'truncated' ? 4 : 8)) {
      assert.deepEqual(leakedParts(out, line), [], `${name}: body survived in ${out}`);
    }
    assert.ok(!out.includes('BEGIN RSA') && !out.includes('DEK-Info'), `${name}: header survived in ${out}`);
    assert.ok(out.includes('[REDACTED:rsa-private-key]'), name);
    assert.ok(out.includes('after') || name === 'truncated', `${name}: lost the text after the block`);
    if (name !== 'JSON') assert.ok(out.startsWith('before'), name);
  }
});

test('PEM armour whose dashes smart typography shortened (any 2-5 dashes) is still a private key', () => {
  const body = Array.from({ length: 4 }, (_, i) =>
    synth(`smart-pem-${i}`, 64, 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'),
  );
  for (const dashes of [
    '\u2014\u2013',
    '\u2014\u2014-',
    '\u2011\u2011\u2011\u2011',
    '--',
    '\u2013\u2013\u2013\u2013\u2013',
    '\uff0d\uff0d',
  ]) {
    const armour = (word: string) => `${dashes}${word} RSA PRIVATE KEY${dashes}`;
    const block = [armour('BEGIN'), ...body, armour('END')].join('\n');
    assert.equal(redactSecrets(`before\n${block}\nafter`).text, 'before\n[REDACTED:rsa-private-key]\nafter', dashes);
    const json = `{"type": "service_account", "private_key": "${block.replace(/RSA /g, '').replace(/\n/g, '\\n')}\\n", "x": 1}`;
    assert.equal(
      redactSecrets(json).text,
      '{"type": "service_account", "private_key": "[REDACTED:gcp-service-account-key]", "x": 1}',
      dashes,
    );
  }
  // Armour of anything but a private key, or dashes that open no BEGIN/END line, stays.
  for (const text of [
    '\u2014\u2013BEGIN PUBLIC KEY\u2014\u2013 and \u2014\u2013BEGIN CERTIFICATE\u2014\u2013 are safe to share',
    '## Step 2 \u2014\u2013 BEGIN the private key rotation \u2014\u2013 PRIVATE KEY handling',
    '\u2014BEGIN PRIVATE KEY\u2014 is one dash short',
  ]) {
    assert.deepEqual(findSecrets(text), [], text);
  }
});

test('the clean fixture (dev chat with SHAs, UUIDs, URLs, paths, code, Chinese) has no findings', () => {
  assert.ok(CLEAN.length > 3000);
  assert.deepEqual(
    findSecrets(CLEAN).map((f) => `${f.kind}: ${CLEAN.slice(f.start, f.end)}`),
    [],
  );
  assert.equal(redactSecrets(CLEAN).text, CLEAN);
});

for (const text of NON_SECRETS) {
  test(`leaves alone: ${text.slice(0, 60)}`, () => {
    assert.deepEqual(
      findSecrets(text).map((f) => `${f.kind}: ${text.slice(f.start, f.end)}`),
      [],
    );
  });
}

test('a marker is never a secret, so redaction is idempotent', () => {
  for (const kind of SECRET_KINDS) {
    const marker = redactionMarker(kind);
    for (const text of [
      marker,
      `password: ${marker}`,
      `TOKEN=${marker}`,
      `密码：${marker}`,
      `https://u:${marker}@h.test/`,
    ]) {
      assert.deepEqual(findSecrets(text), [], text);
    }
  }
  const all = SECRET_SAMPLES.map((s) => s.text).join('\n\n');
  const once = redactSecrets(all);
  assert.ok(once.count >= SECRET_SAMPLES.length);
  assert.deepEqual(redactSecrets(once.text), { text: once.text, count: 0, kinds: [] });
});

test('property: redaction is idempotent and leaves nothing findable', () => {
  const pieces = [...SECRET_SAMPLES.map((s) => s.text), ...NON_SECRETS, ...CLEAN.split('\n')];
  const glue = fc.constantFrom(' ', '\n', ', ', ': ', '=', '"', "'", '@', '：', '', ' is ', '?a=', '&');
  const doc = fc.array(fc.oneof(fc.constantFrom(...pieces), glue, fc.string({ maxLength: 12 })), { maxLength: 12 });
  fc.assert(
    fc.property(doc, (parts) => {
      const once = redactSecrets(parts.join(''));
      assert.equal(redactSecrets(once.text).text, once.text);
      assert.equal(containsSecret(once.text), false);
    }),
    { numRuns: 400 },
  );
});

// A guard against catastrophic backtracking, not a speed target: quadratic or worse regexes take
// minutes on 1 MB, while the linear ones take milliseconds even on a loaded CI machine.
test('no catastrophic backtracking: 1 MB of mixed chat with secrets, and adversarial inputs', () => {
  const mixed: string[] = [];
  let size = 0;
  for (let i = 0; size < 1_000_000; i++) {
    const piece = i % 10 === 0 ? (SECRET_SAMPLES[i % SECRET_SAMPLES.length]?.text ?? '') : CLEAN;
    mixed.push(piece);
    size += piece.length + 1;
  }
  const inputs: Record<string, string> = {
    mixed: mixed.join('\n'),
    'one long word': 'a'.repeat(1_000_000),
    'uppercase run': 'AKIA'.repeat(250_000),
    'repeated labels': 'password='.repeat(110_000),
    'repeated url heads': 'postgres://u:'.repeat(80_000),
    'unterminated PEM headers': `${['-----BEGIN', 'PRIVATE KEY-----'].join(' ')}\n`.repeat(35_000),
    'base64 soup': synth('soup', 1_000_000, 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/='),
    'Chinese labels': '密码：'.repeat(330_000),
    'labels with spaces': 'password: '.repeat(100_000),
    'unclosed quotes': 'password="'.repeat(100_000),
    'query pairs': 'a=b&'.repeat(250_000),
    'already redacted': '[REDACTED:password] '.repeat(50_000),
    'a punctuation run inside an accepted value': `password is abc123${'.'.repeat(1_000_000)}x`,
  };
  for (const [name, text] of Object.entries(inputs)) {
    const t0 = performance.now();
    redactSecrets(text);
    const ms = performance.now() - t0;
    assert.ok(ms < 5000, `${name}: ${ms.toFixed(0)} ms for ${(text.length / 1e6).toFixed(1)} MB`);
  }
});

test('redactPath: each folder and file name is redacted as text, a key=value after a / too', () => {
  const token = ['gh', 'p_', synth('path-ghp', 36)].join('');
  assert.equal(
    redactPath(`/home/dev/t/-home-dev-${token}/notes-password=PathPw0rdXq7Zr.jsonl`),
    '/home/dev/t/-home-dev-[REDACTED:github-pat]/notes-password=[REDACTED:password]',
  );
  assert.equal(redactPath('~/x/api_key=abcd1234efgh5678/y.md'), '~/x/api_key=[REDACTED:api-key]/y.md');
  for (const clean of [
    '~/.claude/projects/-home-dev-shop/0f0e0d0c-0000-4000-8000-000000000001.jsonl',
    '/x/my_secret_notes/token-ideas.md',
    '/srv/passwords/reset.md',
  ])
    assert.equal(redactPath(clean), clean);
});
