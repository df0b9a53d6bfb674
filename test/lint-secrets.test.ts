/** `mem lint --secrets`: a secret pasted by hand anywhere in the workspace is found, never printed. */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { SECRET_SAMPLES } from './fixtures/secrets/corpus.js';
import { mem, tempDir } from './helpers/cli.js';

test('finds every corpus shape by file and line, prints no value, exits 5; a clean workspace exits 0', async (t) => {
  const ws = tempDir(t);
  await mem(['init', ws]);
  const clean = await mem(['-C', ws, 'lint', '--secrets']);
  assert.equal(clean.code, 0, clean.stderr);
  assert.match(clean.stdout, /files scanned, 0 secrets found/);

  // Each sample pasted as it came (multi-line ones too), a blank line apart; remember where each starts.
  let text = '# Pasted by hand\n\n';
  const spans = SECRET_SAMPLES.map((s) => {
    const first = text.split('\n').length;
    text += `${s.text.replace(/\r\n/g, '\n')}\n\n`;
    return { first, last: text.split('\n').length - 2, kind: s.kind };
  });
  writeFileSync(join(ws, 'memory', 'projects', 'pasted.md'), text);
  mkdirSync(join(ws, '.mem'), { recursive: true });
  writeFileSync(join(ws, '.mem', 'cache.json'), JSON.stringify({ k: SECRET_SAMPLES[0]!.secret }));
  const r = await mem(['-C', ws, '--json', 'lint', '--secrets']);
  assert.equal(r.code, 5, r.stderr);
  const out = JSON.parse(r.stdout) as { secrets: Array<{ file: string; line: number; kind: string }> };
  for (const span of spans) {
    assert.ok(
      out.secrets.some((h) => h.line >= span.first && h.line <= span.last),
      `lines ${span.first}-${span.last}: ${span.kind} not found`,
    );
  }
  assert.ok(
    out.secrets.every((h) => h.file === 'memory/projects/pasted.md'),
    '.mem/ is derived and not scanned',
  );
  const human = await mem(['-C', ws, 'lint', '--secrets']);
  assert.match(human.stdout, /^memory\/projects\/pasted\.md:3: looks like a secret \(/m);
  for (const s of SECRET_SAMPLES)
    assert.ok(!(human.stdout + human.stderr + r.stdout).includes(s.secret), `${s.kind} value printed`);
});

test('a file over 8 MB and a text file with a NUL byte are scanned; a binary file is named as not scanned', async (t) => {
  const ws = tempDir(t);
  await mem(['init', ws]);
  mkdirSync(join(ws, 'second-brain', 'research'), { recursive: true });
  // 900,000 lines (~27 MB), the key on the last: read in windows, never whole.
  writeFileSync(
    join(ws, 'second-brain', 'research', 'big.md'),
    `${'filler line of research notes\n'.repeat(900_000)}aws key AKIAIOSFODNN7EXAMPLE\n`,
  );
  writeFileSync(
    join(ws, 'memory', 'projects', 'nul.md'),
    '# notes\x00\ntoken ghp_abcdefghijklmnopqrstuvwxyz0123456789\n',
  );
  // gzip of random bytes: data, not text.
  writeFileSync(join(ws, 'second-brain', 'photo.gz'), gzipSync(randomBytes(4096)));
  const r = await mem(['-C', ws, '--json', 'lint', '--secrets']);
  assert.equal(r.code, 5, r.stderr);
  const out = JSON.parse(r.stdout) as { secrets: unknown[]; skipped: unknown[] };
  assert.deepEqual(out.secrets, [
    { file: 'memory/projects/nul.md', line: 2, kind: 'github-pat' },
    { file: 'second-brain/research/big.md', line: 900_001, kind: 'aws-access-key-id' },
  ]);
  assert.deepEqual(out.skipped, [{ file: 'second-brain/photo.gz', reason: 'mostly not UTF-8' }]);

  // A binary file alone is reported, one line, but does not fail the scan (nor block a commit).
  rmSync(join(ws, 'second-brain', 'research', 'big.md'));
  rmSync(join(ws, 'memory', 'projects', 'nul.md'));
  const human = await mem(['-C', ws, '-q', 'lint', '--secrets']);
  assert.equal(human.code, 0, human.stderr);
  assert.equal(human.stdout, 'second-brain/photo.gz: not scanned: binary (mostly not UTF-8)\n');
});

test("an entry's id holding a secret from its title is found: the title cut at its limit, or redacted since; look-alike ids are not", async (t) => {
  const ws = tempDir(t);
  await mem(['init', ws]);
  const entry = (title: string, id: string) =>
    `## Note: ${title}\n- id: ${id}\n- date: 2026-11-21\n- origin: user\n- status: active\n\n`;
  const cut = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCY';
  writeFileSync(
    join(ws, 'memory', '2026-11-21.md'),
    '# 2026-11-21\n\n' +
      [
        // Written before titles were redacted ahead of the cut: 30 characters of an AWS secret, lower-cased in the id (lines 3-4).
        entry(
          `Always sign staging uploads with ${cut}`,
          'NOTE-20261121-always-sign-staging-uploads-with-wjalrxutnfemi-k7mdeng-bpxrficy',
        ),
        // The title redacted by hand since; the id was made from it before (lines 9-10).
        entry(
          'Staging bucket signs with [REDACTED:aws-secret-access-key]',
          'NOTE-20261121-staging-bucket-signs-with-wjalrxutnfemi-k7mdeng-bpxrficy',
        ),
        // Look-alikes: ids made from redacted titles (one cut, with a collision suffix), a SHA, a UUID, a CamelCase title.
        entry('The staging key is [REDACTED:api-key]', 'NOTE-20261121-the-staging-key-is-redacted-api-key'),
        entry(
          'Deploys to the staging bucket in eu-west-1 sign with key [REDACTED:api-key]',
          'NOTE-20261121-deploys-to-the-staging-bucket-in-eu-west-1-sign-with-key-2',
        ),
        entry(
          'Revert 3f2a9c1d8e7b6a5f4e3d2c1b0a9f8e7d6c5b4a39 on main',
          'NOTE-20261121-revert-3f2a9c1d8e7b6a5f4e3d2c1b0a9f8e7d6c5b4a39-on-main',
        ),
        entry(
          'Session 0b7e4c1a-93d2-4f5e-a6b8-c9d0e1f2a3b4 resumed',
          'NOTE-20261121-session-0b7e4c1a-93d2-4f5e-a6b8-c9d0e1f2a3b4-resumed',
        ),
        entry('OAuth2MigrationPlanV3', 'NOTE-20261121-oauth2migrationplanv3'),
      ].join(''),
  );
  const r = await mem(['-C', ws, '--json', 'lint', '--secrets']);
  assert.equal(r.code, 5, r.stderr);
  const hits = (JSON.parse(r.stdout) as { secrets: Array<{ line: number; in?: string }> }).secrets;
  assert.deepEqual(
    hits.map((h) => [h.line, h.in ?? 'file']),
    [
      [3, 'file'],
      [4, 'id'],
      [10, 'id'],
    ],
  );
  const human = await mem(['-C', ws, 'lint', '--secrets']);
  assert.match(
    human.stdout,
    /^memory\/2026-11-21\.md:10: the entry's id holds a secret \(aws-secret-access-key\) from its title; give the entry a new id/m,
  );
  assert.ok(!human.stdout.toLowerCase().includes(cut.slice(0, 12).toLowerCase()), 'no value printed');
});
