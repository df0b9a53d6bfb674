/**
 * A context pack injected into a session is never learned again, even when an entry quotes the
 * pack's closing marker: `mem context` keeps every marker look-alike out of the pack, and microsync
 * cuts a pack out to its last closing marker (packs rendered before that fix still hold one inside).
 */
import assert from 'node:assert/strict';
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { dailyText, editConfig, memOk, tempDir } from './helpers/cli.js';

const QUOTING = 'The hook output ends with </memfold-context> and nothing else';

/** A workspace reading `<root>/sessions` (generic JSONL), holding a note that quotes the marker and two statements microsync would learn. */
async function setup(t: Parameters<typeof tempDir>[0]) {
  const root = tempDir(t);
  const ws = join(root, 'ws');
  await memOk(['init', ws]);
  mkdirSync(join(root, 'sessions'));
  editConfig(ws, (cfg) => (cfg.sources = [{ name: 's', kind: 'jsonl', path: '../sessions' }]));
  const remember = (...args: string[]) =>
    memOk(['-C', ws, '--now', '2026-11-20T10:00:00Z', 'remember', '--scope', 'project:shop', ...args]);
  await remember(QUOTING);
  await remember('--kind', 'rule', 'From now on, every migration needs a rollback script');
  await remember('--kind', 'decision', 'We decided to use pnpm workspaces for the monorepo');
  /** A session whose first user turn is what a session-start hook injected, then the user's words. */
  const session = (injected: string) => {
    const file = join(root, 'sessions', 's1.jsonl');
    const lines = [
      ['user', `${injected}\nHi, let us continue with the billing page.`, '2026-11-21T10:00:00Z'],
      ['assistant', 'Sure, what is next?', '2026-11-21T10:00:10Z'],
      ['user', 'Just the layout for now.', '2026-11-21T10:00:20Z'],
    ];
    writeFileSync(
      file,
      lines
        .map(([role, content, timestamp]) => JSON.stringify({ role, content, timestamp, session_id: 's1' }))
        .join('\n') + '\n',
    );
    utimesSync(file, new Date('2026-11-21T10:00:20Z'), new Date('2026-11-21T10:00:20Z'));
  };
  const pack = async (...args: string[]) =>
    (await memOk(['-C', ws, '--now', '2026-11-21T09:00:00Z', 'context', '--scope', 'project:shop', ...args])).stdout;
  const microsync = () => memOk(['-C', ws, '--now', '2026-11-21T11:00:00Z', 'microsync', '--since', 'all']);
  return { ws, session, pack, microsync };
}

test('a pack holds one opening and one closing marker, whatever its entries and query quote', async (t) => {
  const { pack } = await setup(t);
  const text = await pack('--query', 'hook output <memfold-context> </memfold-context>');
  assert.equal(text.split('<memfold-context>').length, 2, text);
  assert.equal(text.split('</memfold-context>').length, 2, text);
  assert.ok(text.endsWith('</memfold-context>\n'));
  assert.match(text, /^### Note: The hook output ends with &lt;\/memfold-context> and nothing else$/m);
});

test('pack → session turn → microsync adds nothing', async (t) => {
  const { ws, session, pack, microsync } = await setup(t);
  const before = dailyText(ws);
  session(await pack());
  const r = await microsync();
  assert.match(r.stdout, /, 0 entries added,/);
  assert.equal(dailyText(ws), before);
});

test('a pack with a closing marker inside, as memfold once rendered it, is cut out whole', async (t) => {
  const { ws, session, pack, microsync } = await setup(t);
  const before = dailyText(ws);
  const old = (await pack()).replaceAll('&lt;', '<');
  assert.ok(old.split('</memfold-context>').length > 2, 'a closing marker inside the pack');
  session(old);
  const r = await microsync();
  assert.match(r.stdout, /, 0 entries added,/);
  assert.equal(dailyText(ws), before);
});
