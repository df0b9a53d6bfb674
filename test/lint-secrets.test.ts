/** `mem lint --secrets`: a secret pasted by hand anywhere in the workspace is found, never printed. */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
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
    assert.ok(out.secrets.some((h) => h.line >= span.first && h.line <= span.last), `lines ${span.first}-${span.last}: ${span.kind} not found`);
  }
  assert.ok(out.secrets.every((h) => h.file === 'memory/projects/pasted.md'), '.mem/ is derived and not scanned');
  const human = await mem(['-C', ws, 'lint', '--secrets']);
  assert.match(human.stdout, /^memory\/projects\/pasted\.md:3: looks like a secret \(/m);
  for (const s of SECRET_SAMPLES) assert.ok(!(human.stdout + human.stderr + r.stdout).includes(s.secret), `${s.kind} value printed`);
});
