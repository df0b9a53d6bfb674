/**
 * Secrets that passed redaction (issue 29, item 8), each redacted now, and the look-alikes that must
 * stay: git SHAs, UUIDs (session ids), entry ids, typed message ids, prose with "use" and "key is", Chinese
 * sentences that change a password rule or a key's method.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { redactSecrets } from '../src/secrets/secrets.js';

const AWS_SECRET = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCY8XAMPLEKEY';
const awsFile = `[default]\naws_access_key_id = AKIAIOSFODNN7EXAMPLE\naws_secret_access_key = ${AWS_SECRET}\n`;
const pem =
  '-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA1c7+9z5Pad7OejecsQ0bu3aumtsdmU1f6o1ZZn0PwwcGz0n0\nvq1aP2TJH9Gm8pWBPDyxJbVrZ1kP1GqrDVyHRO2ee7wnYhRpKj45N4UoIGQZKQ==\n-----END RSA PRIVATE KEY-----\n';
const b64 = (s: string) => Buffer.from(s).toString('base64');

const LEAKS: Array<[string, string, string]> = [
  ['base64 of an AWS credentials file', `here it is: ${b64(awsFile)} ok`, b64(awsFile)],
  ['base64 of a PEM slice', `slice ${b64(pem.slice(40, 160))}`, b64(pem.slice(40, 160))],
  ['an AWS secret key ending a sentence', `aws key AKIAIOSFODNN7EXAMPLE and ${AWS_SECRET}.`, AWS_SECRET],
  ['憑證 before a value', '憑證 Tr0ub4dor&3xyz', 'Tr0ub4dor&3xyz'],
  ['凭证 before a value', '凭证：Tr0ub4dor&3xyz', 'Tr0ub4dor&3xyz'],
  ['a key-shaped token after "use"', 'use q8Zk3vN1xTp7Lw2RmY5bHc9D for the staging API', 'q8Zk3vN1xTp7Lw2RmY5bHc9D'],
  ['a key-shaped token after "key is"', 'the key is q8Zk3vN1xTp7Lw2RmY5bHc9D', 'q8Zk3vN1xTp7Lw2RmY5bHc9D'],
  ['a password pasted bare after an e-mail address', 'login alice@example.com Sup3rS3cret!Pass', 'Sup3rS3cret!Pass'],
  ['a password after an e-mail address and a slash', 'alice@example.com / hunter2Pass99', 'hunter2Pass99'],
  ['the first half of a split GitHub token', 'first half ghp_1234567890abcdefghij', '1234567890abcdefghij'],
  ['the second half of a split token, a message of its own', 'KLMN0PQR5TUVWXYZab3def', 'KLMN0PQR5TUVWXYZab3def'],
  ['a Chinese label given a new value (改成了)', '生产环境的密码改成了 Hx7pQ2mZk9Lw，别外传', 'Hx7pQ2mZk9Lw'],
  ['a Chinese label given a new value (換成)', '令牌換成 Zq8RmT4vK2pX9wLb 了', 'Zq8RmT4vK2pX9wLb'],
  ['a Chinese label, a word before 是 (都是)', '正式環境的憑證都是 Tr0ub4dor&3xyz', 'Tr0ub4dor&3xyz'],
  ['a Chinese label with a note in brackets', '密碼（正式環境）是 Tr0ub4dor&3xyz', 'Tr0ub4dor&3xyz'],
  [
    'a Chinese label before full-width letters and digits',
    '正式環境的憑證是 Ｔｒ０ｕｂ４ｄｏｒ９，請保密',
    'Ｔｒ０ｕｂ４ｄｏｒ９',
  ],
  ['a Chinese label, the value on the next line', '金鑰：\np4ss-w0rd-k9x7', 'p4ss-w0rd-k9x7'],
];

for (const [what, text, secret] of LEAKS) {
  test(`redacts ${what}`, () => {
    const r = redactSecrets(text);
    assert.ok(r.count > 0 && !r.text.includes(secret), r.text);
    for (let i = 0; i + 12 <= secret.length; i++)
      assert.ok(!r.text.includes(secret.slice(i, i + 12)), `a piece of it stays: ${r.text}`);
    assert.equal(redactSecrets(r.text).text, r.text, 'idempotent');
  });
}

const CLEAN = [
  'commit 3f2a9c1d8e7b6a5f4e3d2c1b0a9f8e7d6c5b4a39 fixed it',
  '3f2a9c1d8e7b6a5f4e3d2c1b0a9f8e7d6c5b4a39',
  'session 0b7e4c1a-93d2-4f5e-a6b8-c9d0e1f2a3b4 resumed',
  '0b7e4c1a-93d2-4f5e-a6b8-c9d0e1f2a3b4',
  'see DECISION-20261122-the-deploy-window-is-wednesday',
  'DECISION-20261122-the-deploy-window-is-wednesday',
  'toolu_01FHpVtawG6NqQ943umBMky8',
  'msg_01TqDZoU6FcpxB4u2AmpgWfZ',
  'use pnpm for installs, not npm',
  'use TypeScriptStrictMode everywhere',
  'the key is to test early and often',
  'write to alice@example.com tomorrow about the release',
  'alice@example.com: please review PR 1234',
  `base64 of plain text: ${b64('The deploy window is Tuesday, after the standup at ten.')}`,
  'ReadMe',
  'useEffectCleanup runs on unmount',
  '密钥换成 PBKDF2-SHA256 派生，令牌改成 JWT 格式，密码改为 8 位以上，密码都改成了 MD5 校验，密钥设置为 4096bit',
  '密码（至少 8 位）必须包含数字',
  '密钥：\nAES256 for data at rest',
  '密码：\n- 至少 8 位\n- 包含数字',
];

test('look-alikes stay: git SHAs, UUIDs, entry ids, message ids, prose', () => {
  for (const text of CLEAN) assert.equal(redactSecrets(text).text, text);
});
