/**
 * Links out of the workspace (issue 29, item 7): `memory/x.md -> /etc/passwd` is neither indexed nor
 * served (search, MCP memory_search), one warning names the link; a daily file linked outside never
 * gets the outside content copied in by `mem remember`. A link inside the workspace still counts.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { BIN, childEnv, finished, mem, snapshot, tempDir } from './helpers/cli.js';

const NOW = '2026-11-22T09:00:00Z';
const OUTSIDE_TEXT = 'zebracorn outside ledger: the vault passphrase hint lives here';

async function setup(t: Parameters<typeof tempDir>[0]): Promise<{ ws: string; outside: string }> {
  const root = tempDir(t);
  const ws = join(root, 'ws');
  assert.equal((await mem(['init', ws])).code, 0);
  const outside = join(root, 'outside.md');
  writeFileSync(outside, `# Outside\n\n${OUTSIDE_TEXT}\n`);
  return { ws, outside };
}

test('a Markdown link leading outside is left out of index, search and MCP memory_search with one warning; one inside still counts', async (t) => {
  const { ws, outside } = await setup(t);
  symlinkSync(outside, join(ws, 'memory', 'x.md'));
  symlinkSync('/etc/passwd', join(ws, 'memory', 'passwd.md'));
  mkdirSync(join(ws, 'second-brain', 'research'), { recursive: true });
  writeFileSync(join(ws, 'second-brain', 'research', 'zebracorn.md'), '# Inside\n\nzebracorn inside note\n');
  symlinkSync(join(ws, 'second-brain', 'research', 'zebracorn.md'), join(ws, 'memory', 'inside.md'));

  const index = await mem(['-C', ws, 'index']);
  assert.equal(index.code, 0, index.stderr);
  assert.match(index.stderr, /^warning: memory\/x\.md is a link to .*outside\.md, outside the workspace: left out$/m);
  assert.equal(index.stderr.split('memory/x.md is a link').length - 1, 1, 'one warning');
  const search = await mem(['-C', ws, 'search', 'zebracorn', '--json']);
  assert.equal(search.code, 0, search.stderr);
  assert.doesNotMatch(search.stdout, /outside ledger|memory\/x\.md/);
  assert.match(search.stdout, /memory\/inside\.md/, 'a link inside the workspace is followed');
  const root = await mem(['-C', ws, 'search', 'root', '--deep', '--json']);
  assert.doesNotMatch(root.stdout, /passwd|\/bin\/(ba)?sh/);

  const child = spawn(process.execPath, [BIN, '-C', ws, '--now', NOW, 'mcp'], {
    env: childEnv(),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const done = finished(child);
  const request = (id: number, method: string, params: object) =>
    JSON.stringify({ jsonrpc: '2.0', id, method, params });
  child.stdin.end(
    [
      request(1, 'initialize', {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 't', version: '1' },
      }),
      JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
      request(2, 'tools/call', { name: 'memory_search', arguments: { query: 'ledger', deep: true } }),
      request(3, 'tools/call', { name: 'memory_search', arguments: { query: 'root', deep: true } }),
    ].join('\n') + '\n',
  );
  const r = await done;
  assert.equal(r.code, 0, r.stderr);
  assert.doesNotMatch(r.stdout, /passphrase|nologin|\/bin\/(ba)?sh|memory\/x\.md|passwd\.md/);
  assert.equal(r.stdout.trim().split('\n').length, 3, 'every request answered');
});

test('mem remember on a daily file that links outside refuses in one line and copies nothing in', async (t) => {
  const { ws, outside } = await setup(t);
  symlinkSync(outside, join(ws, 'memory', '2026-11-22.md'));
  const r = await mem(['-C', ws, 'remember', 'Deploys happen on Tuesdays only', '--now', NOW]);
  assert.equal(r.code, 1, r.stdout);
  // The entry reader's warning, then the one error line.
  assert.match(
    r.stderr,
    /^(warning: memory\/2026-11-22\.md is a link to .*outside\.md, outside the workspace: left out\n)?mem: remember: refused to write memory\/2026-11-22\.md: it is a link to .*outside\.md, outside the workspace\n$/,
  );
  assert.equal(readFileSync(outside, 'utf8'), `# Outside\n\n${OUTSIDE_TEXT}\n`, 'the outside file is untouched');
  // Every file but the link itself (read through, it is the outside file).
  for (const [rel, text] of snapshot(ws, (rel) => rel === 'memory/2026-11-22.md'))
    assert.ok(!text.includes('zebracorn'), `${rel} holds outside content`);
});
