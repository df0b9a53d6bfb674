/** `mem forget` (soft and --hard), `mem restore` and their logs, through the built CLI. */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, test } from 'node:test';
import { mem } from './helpers/cli.js';
import { daily, entry, files, grep, markdownOnly, workspace } from './fixtures/governance/workspace.js';

const NOW = ['--now', '2026-11-25T09:00:00Z'];
const SECRET_ID = 'NOTE-20261121-staging-vault-lives-on-port-8201';
const SECRET_TEXT = 'the staging vault lives on port 8201 behind the bastion';
const KEEP_ID = 'RULE-20261121-every-migration-needs-a-rollback-script';

function setup(t: { after(fn: () => void): void }): string {
  return workspace(t, {
    'MEMORY.md': `# Memory\n\n## Notes\n- Staging vault port is documented (${SECRET_ID}).\n  It moved in November.\n- Every migration needs a rollback script (${KEEP_ID}).\n`,
    'memory/2026-11-21.md': daily('2026-11-21', [
      entry({
        id: SECRET_ID,
        title: 'Staging vault lives on port 8201',
        date: '2026-11-21',
        fields: { conclusion: SECRET_TEXT, origin: 'manual' },
      }),
      entry({
        id: KEEP_ID,
        title: 'Every migration needs a rollback script',
        date: '2026-11-21',
        fields: { conclusion: 'every migration ships with a rollback script', refs: SECRET_ID },
      }),
    ]),
    'second-brain/summaries/2026-11-21-wrapup.md': `# Wrap-up 2026-11-21\n\n- Noted that ${SECRET_TEXT}.\n- Reviewed the migration rules.\n`,
  });
}

const json = (stdout: string) => JSON.parse(stdout) as Record<string, any>;

describe('mem forget / mem restore', { concurrency: 3 }, () => {
  test('soft forget retracts (one line changes), hides the entry from search and context, is logged, and restore undoes it', async (t) => {
    const ws = setup(t);
    assert.equal((await mem(['-C', ws, ...NOW, 'index'])).code, 0);
    const before = readFileSync(join(ws, 'memory/2026-11-21.md'), 'utf8');
    const r = await mem(['-C', ws, ...NOW, '--json', 'forget', SECRET_ID]);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(json(r.stdout).retracted, [
      { id: SECRET_ID, file: 'memory/2026-11-21.md', from: 'active', entries: 1 },
    ]);
    const after = readFileSync(join(ws, 'memory/2026-11-21.md'), 'utf8');
    // Exactly one line differs: the status line.
    const diff = before
      .split('\n')
      .map((l, i) => [l, after.split('\n')[i]])
      .filter(([a, b]) => a !== b);
    assert.deepEqual(diff, [['- status: active', '- status: retracted']]);
    const log = readFileSync(join(ws, 'memory/archive/weekly-2026-W48.md'), 'utf8');
    assert.match(log, new RegExp(`retracted: ${SECRET_ID} \\(was active\\)`));

    const ctx = await mem(['-C', ws, ...NOW, 'context', '--query', 'staging vault port', '--json']);
    assert.equal(ctx.code, 0, ctx.stderr);
    const items = json(ctx.stdout).items.map((i: { id: string }) => i.id);
    assert.ok(
      items.includes(KEEP_ID) && !items.includes(SECRET_ID),
      `a retracted entry never appears in context: ${items}`,
    );
    // Nor does the MEMORY.md item naming it, which stays until the next compound (forget may not rewrite MEMORY.md).
    assert.ok(!json(ctx.stdout).text.includes('Staging vault port is documented'), json(ctx.stdout).text);

    const restored = await mem(['-C', ws, ...NOW, '--json', 'restore', SECRET_ID]);
    assert.equal(restored.code, 0, restored.stderr);
    assert.equal(json(restored.stdout).from, 'retracted');
    assert.equal(
      readFileSync(join(ws, 'memory/2026-11-21.md'), 'utf8'),
      before,
      'restore gives the original bytes back',
    );
    const trace = json((await mem(['-C', ws, ...NOW, '--json', 'trace', SECRET_ID])).stdout);
    assert.deepEqual(
      trace.chain[0].log.map((l: { text: string }) => l.text.split(' ')[0]),
      ['retracted:', 'restored:'],
    );
  });

  test('an id written twice in a file: both entries are retracted and reported as one line with their count, whatever status each had', async (t) => {
    const id = 'RULE-20261120-deploys';
    const copy = (status: string) =>
      entry({ id, title: 'Deploys', date: '2026-11-20', fields: { conclusion: 'Deploys happen on Tuesdays', status } });
    const ws = workspace(t, {
      'memory/2026-11-20.md': daily('2026-11-20', [copy('active'), copy('active'), copy('superseded')]),
    });
    const expected = [
      'retract RULE-20261120-deploys (active) in memory/2026-11-20.md: 2 entries share this id',
      'retract RULE-20261120-deploys (superseded) in memory/2026-11-20.md',
    ];
    const dry = await mem(['-C', ws, ...NOW, 'forget', id, '--dry-run']);
    assert.deepEqual(
      dry.stdout.trim().split('\n'),
      expected.map((l) => `would ${l}`),
    );
    const r = await mem(['-C', ws, ...NOW, 'forget', id]);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(r.stdout.trim().split('\n'), [
      ...expected,
      'logged in memory/archive/weekly-2026-W48.md; undo with "mem restore <id>"',
    ]);
    assert.deepEqual(readFileSync(join(ws, 'memory/2026-11-20.md'), 'utf8').match(/^- status: .*$/gm), [
      '- status: retracted',
      '- status: retracted',
      '- status: retracted',
    ]);
    assert.deepEqual(readFileSync(join(ws, 'memory/archive/weekly-2026-W48.md'), 'utf8').match(/^- retracted: .*$/gm), [
      `- retracted: ${id} (was active) by \`mem forget\``,
      `- retracted: ${id} (was superseded) by \`mem forget\``,
    ]);
    const again = await mem(['-C', ws, ...NOW, '--json', 'forget', id]);
    assert.deepEqual([json(again.stdout).retracted, json(again.stdout).alreadyRetracted], [[], [id]]);
  });

  test('search no longer returns a soft-forgotten entry', async (t) => {
    const ws = setup(t);
    await mem(['-C', ws, ...NOW, 'index']);
    assert.ok((await mem(['-C', ws, ...NOW, '--json', 'search', 'staging vault'])).stdout.includes(SECRET_ID));
    assert.equal((await mem(['-C', ws, ...NOW, 'forget', SECRET_ID])).code, 0);
    const s = await mem(['-C', ws, ...NOW, '--json', 'search', 'staging vault']);
    assert.ok(!json(s.stdout).results.some((h: { id: string }) => h.id === SECRET_ID));
  });

  test('forget --hard refuses without a terminal and without --yes; --dry-run changes nothing', async (t) => {
    const ws = setup(t);
    const snap = files(ws);
    const refused = await mem(['-C', ws, ...NOW, 'forget', SECRET_ID, '--hard']);
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /no terminal to confirm on, so pass --yes/);
    const dry = await mem(['-C', ws, ...NOW, '--json', 'forget', SECRET_ID, '--hard', '--dry-run']);
    assert.equal(dry.code, 0, dry.stderr);
    assert.deepEqual(
      json(dry.stdout).files.map((f: { file: string }) => f.file),
      ['MEMORY.md', 'memory/2026-11-21.md', 'second-brain/summaries/2026-11-21-wrapup.md'],
    );
    assert.deepEqual(files(ws), snap);
  });

  test('forget --hard --yes leaves no trace in the Markdown or in .mem/ (grep), and keeps everything else', async (t) => {
    const ws = setup(t);
    assert.equal((await mem(['-C', ws, ...NOW, 'index'])).code, 0);
    assert.equal((await mem(['-C', ws, ...NOW, 'get', SECRET_ID])).code, 0);
    assert.equal((await mem(['-C', ws, ...NOW, 'forget', SECRET_ID])).code, 0);
    // Before: the id and the text are in the files, the weekly log, the use log and the index.
    assert.ok(grep(ws, SECRET_ID).includes('.mem/usage.jsonl'));
    assert.ok(grep(ws, SECRET_ID).some((f) => f.startsWith('.mem/index/')));
    assert.ok(grep(ws, SECRET_ID).includes('memory/archive/weekly-2026-W48.md'));
    const r = await mem(['-C', ws, ...NOW, 'forget', SECRET_ID, '--hard', '--yes']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /git filter-repo --replace-text/);
    // The one edit inside another entry: the removed id leaves KEEP's refs (its slug holds the secret).
    assert.deepEqual(grep(ws, SECRET_ID), []);
    assert.deepEqual(grep(ws, SECRET_TEXT), []);
    const mdAfter = files(ws, markdownOnly);
    assert.equal(
      mdAfter.get('MEMORY.md'),
      `# Memory\n\n## Notes\n- Every migration needs a rollback script (${KEEP_ID}).\n`,
    );
    assert.equal(
      mdAfter.get('second-brain/summaries/2026-11-21-wrapup.md'),
      '# Wrap-up 2026-11-21\n\n- Reviewed the migration rules.\n',
    );
    assert.match(mdAfter.get('memory/2026-11-21.md')!, new RegExp(`- id: ${KEEP_ID}`));
    const s = await mem(['-C', ws, ...NOW, '--json', 'search', 'staging vault bastion', '--deep']);
    assert.equal(s.code, 0, s.stderr);
    assert.deepEqual(
      json(s.stdout).results.filter((h: { text: string; id: string }) => h.text.includes('8201') && h.id !== KEEP_ID),
      [],
    );
    assert.equal((await mem(['-C', ws, ...NOW, 'lint'])).code, 0);
  });

  test('forget --query picks entries through search; the dry run and --hard --yes name every id they remove', async (t) => {
    const ws = setup(t);
    await mem(['-C', ws, ...NOW, 'index']);
    const r = await mem([
      '-C',
      ws,
      ...NOW,
      '--json',
      'forget',
      '--query',
      'staging vault bastion',
      '-k',
      '1',
      '--dry-run',
    ]);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(
      json(r.stdout).retracted.map((x: { id: string }) => x.id),
      [SECRET_ID],
    );
    // --hard: the dry run names the id it would remove, and --yes names it before it removes anything.
    const dry = await mem([
      '-C',
      ws,
      ...NOW,
      'forget',
      '--query',
      'staging vault bastion',
      '-k',
      '1',
      '--hard',
      '--dry-run',
    ]);
    assert.equal(dry.code, 0, dry.stderr);
    assert.match(dry.stdout, new RegExp(`^would remove ${SECRET_ID}$`, 'm'));
    const yes = await mem([
      '-C',
      ws,
      ...NOW,
      'forget',
      '--query',
      'staging vault bastion',
      '-k',
      '1',
      '--hard',
      '--yes',
    ]);
    assert.equal(yes.code, 0, yes.stderr);
    assert.match(
      yes.stdout,
      new RegExp(
        `^--query "staging vault bastion" chose this entry; removing:\n  ${SECRET_ID}\n(?:.*\n)*removed ${SECRET_ID}\nremove from MEMORY\.md`,
      ),
    );
    assert.deepEqual(grep(ws, SECRET_ID), []);
  });

  test('forget --hard checks every file it rewrites before writing any: a non-UTF-8 one stops it with nothing written', async (t) => {
    const ws = setup(t);
    const cafe = join(ws, 'second-brain/devlogs/cafe.md');
    mkdirSync(dirname(cafe), { recursive: true });
    writeFileSync(cafe, Buffer.from(`Caf\xe9 ${SECRET_ID}\n`, 'latin1'));
    const snap = files(ws, (rel) => rel.startsWith('.mem/logs/')); // the failed run is in the job log, as every job's
    const r = await mem(['-C', ws, ...NOW, 'forget', SECRET_ID, '--hard', '--yes']);
    assert.equal(r.code, 1, r.stderr);
    assert.match(
      r.stderr,
      /cannot rewrite second-brain\/devlogs\/cafe\.md: line 1 is not valid UTF-8; convert the file .* nothing was written/,
    );
    assert.deepEqual(
      files(ws, (rel) => rel.startsWith('.mem/logs/')),
      snap,
    );
    writeFileSync(cafe, `Café ${SECRET_ID}\n`);
    assert.equal((await mem(['-C', ws, ...NOW, 'forget', SECRET_ID, '--hard', '--yes'])).code, 0);
    assert.deepEqual(grep(ws, SECRET_ID), []);
  });

  test('a hard forget that stopped after removing the entry is finished by running it again; then there is nothing left to do', async (t) => {
    const ws = setup(t);
    assert.equal((await mem(['-C', ws, ...NOW, 'index'])).code, 0);
    // This week's log cannot be rewritten: the run stops after the entry is gone, at its log line.
    const log = join(ws, 'memory/archive/weekly-2026-W48.md');
    mkdirSync(dirname(log), { recursive: true });
    writeFileSync(log, Buffer.from('# Weekly log 2026-W48\n\nCaf\xe9\n', 'latin1'));
    const stopped = await mem(['-C', ws, ...NOW, 'forget', SECRET_ID, '--hard', '--yes']);
    assert.equal(stopped.code, 1, stopped.stderr);
    assert.deepEqual(
      grep(ws, SECRET_TEXT).filter((f) => !f.startsWith('.mem/index/')),
      [],
      'every Markdown line went before the entry',
    );
    writeFileSync(log, '# Weekly log 2026-W48\n\nCafé\n');
    const again = await mem(['-C', ws, ...NOW, 'forget', SECRET_ID, '--hard', '--yes']);
    assert.equal(again.code, 0, again.stderr);
    assert.match(
      again.stdout,
      new RegExp(
        `^${SECRET_ID}: its entry is already gone \\(an earlier "mem forget --hard" stopped part-way\\); remove what still names it$`,
        'm',
      ),
    );
    assert.deepEqual(grep(ws, SECRET_ID), [], 'the index is rebuilt too');
    assert.match(
      readFileSync(log, 'utf8'),
      /- removed: entry mark:[0-9a-f]{12} from 0 file\(s\) by `mem forget --hard` \(finishing a run that stopped part-way\)/,
    );
    // A log an older version wrote names the id by its unsalted hash: still read as the run's log line.
    const legacy = `removed: entry sha256:${createHash('sha256').update(SECRET_ID).digest('hex').slice(0, 12)}`;
    writeFileSync(log, readFileSync(log, 'utf8').replace(/removed: entry mark:[0-9a-f]{12}/, legacy));
    const done = await mem(['-C', ws, ...NOW, 'forget', SECRET_ID, '--hard', '--yes']);
    assert.equal(done.code, 1, done.stdout);
    assert.match(done.stderr, /already removed by "mem forget --hard"; nothing names it any more/);
    // The failed run's job-log line names no id, so asking again says the same (it did "finish" by purging that line).
    assert.deepEqual(grep(ws, SECRET_ID), []);
    const still = await mem(['-C', ws, ...NOW, 'forget', SECRET_ID, '--hard', '--yes']);
    assert.equal(still.code, 1, still.stdout);
    assert.match(still.stderr, /already removed by "mem forget --hard"/);
  });

  test('forget --hard of an id whose entry is gone removes the lines still naming it (what an older run stopped part-way left)', async (t) => {
    const ws = setup(t);
    writeFileSync(
      join(ws, 'memory/2026-11-21.md'),
      daily('2026-11-21', [
        entry({
          id: KEEP_ID,
          title: 'Every migration needs a rollback script',
          date: '2026-11-21',
          fields: { conclusion: 'every migration ships with a rollback script' },
        }),
      ]),
    );
    const r = await mem(['-C', ws, ...NOW, '-q', 'forget', SECRET_ID, '--hard', '--yes']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, '', '-q quiets it');
    assert.deepEqual(grep(ws, SECRET_ID), []);
    assert.equal(
      readFileSync(join(ws, 'MEMORY.md'), 'utf8'),
      `# Memory\n\n## Notes\n- Every migration needs a rollback script (${KEEP_ID}).\n`,
    );
  });
});
