/**
 * A person writes memory files while jobs run (issue 29, item 1): appends with `>>` and an editor
 * saving in place in 8 KiB chunks must lose nothing, and a rewrite must never put back a file it read
 * before a person's write. The check-rename window is tested with a pause hook, not with luck; the
 * timed runs last MEM_RACE_SECONDS (10 in the suite, 60 in `npm run test:stress`).
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import {
  appendFileSync,
  existsSync,
  openSync,
  closeSync,
  readFileSync,
  writeFileSync,
  writeSync,
  ftruncateSync,
  readdirSync,
} from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { finished, mem, startMem, tempDir } from './helpers/cli.js';

const NOW = '2026-11-22T09:00:00Z';
const DAY = join('memory', '2026-11-22.md');
const SECONDS = Number(process.env.MEM_RACE_SECONDS ?? 10);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const handEntry = (n: number, word = 'teh') =>
  `\n## Note: hand entry ${n}\n- id: NOTE-20261122-hand-${n}\n- date: 2026-11-22\n- conclusion: hand written ${n} about ${word} cache\n- origin: manual\n- status: active\n`;

async function workspace(t: Parameters<typeof tempDir>[0]): Promise<string> {
  const ws = join(tempDir(t), 'ws');
  assert.equal((await mem(['init', ws])).code, 0);
  return ws;
}

function waitFor(child: ReturnType<typeof startMem>, text: string, count: number): Promise<void> {
  return new Promise((resolve, reject) => {
    let seen = '';
    child.stderr!.on('data', (d: Buffer) => {
      seen += d.toString();
      if (seen.split(text).length - 1 >= count) resolve();
    });
    child.on('exit', () => reject(new Error(`exited before printing "${text}" ${count} times:\n${seen}`)));
  });
}

const hooks = (release: string) => ({
  MEM_TEST_HOOKS: '1',
  MEM_FAULT: 'pause-before-rename',
  MEM_FAULT_RELEASE: release,
  MEM_FAULT_MS: '30000',
  MEM_FAULT_FILE: 'memory/2026-11-22.md',
});

test('a status flip paused between its check and its rename: a line appended in the window is kept and the flip lands on the new text', async (t) => {
  const ws = await workspace(t);
  const r = await mem(['-C', ws, 'remember', 'Deploys happen on Tuesdays only', '--now', NOW]);
  const id = /remembered (\S+)/.exec(r.stdout)![1]!;
  const release = join(ws, '..', 'release');
  const forget = startMem(['-C', ws, 'forget', id, '--now', NOW], { env: hooks(release) });
  const done = finished(forget);
  await waitFor(forget, 'paused before renaming over memory/2026-11-22.md', 1);
  appendFileSync(join(ws, DAY), handEntry(1)); // the person's `>>`, inside the window
  // Every later pause (the re-planned flip, the weekly log) goes on at once.
  forget.stderr!.on('data', () => writeFileSync(release, ''));
  writeFileSync(release, '');
  const res = await done;
  assert.equal(res.code, 0, res.stderr);
  const text = readFileSync(join(ws, DAY), 'utf8');
  assert.ok(text.includes('hand written 1 about teh cache'), 'the line appended in the window is there');
  assert.match(text, /- status: retracted/, 'the flip was planned again on the new text');
});

test('a file that changes at every attempt: the job gives up with one line and exit 3, writes nothing, and mem status shows it', async (t) => {
  const ws = await workspace(t);
  const r = await mem(['-C', ws, 'remember', 'Deploys happen on Tuesdays only', '--now', NOW]);
  const id = /remembered (\S+)/.exec(r.stdout)![1]!;
  const release = join(ws, '..', 'release');
  const forget = startMem(['-C', ws, 'forget', id, '--now', NOW], { env: hooks(release) });
  const done = finished(forget);
  // At each pause (each attempt), the person appends once more.
  let seen = '';
  let pauses = 0;
  forget.stderr!.on('data', (d: Buffer) => {
    seen += d.toString();
    for (; pauses < seen.split('paused before renaming').length - 1; pauses++) {
      appendFileSync(join(ws, DAY), handEntry(pauses + 1));
      writeFileSync(release, '');
    }
  });
  const res = await done;
  assert.equal(pauses, 4, 'four attempts');
  assert.equal(res.code, 3, res.stderr);
  assert.equal(
    res.stderr
      .trim()
      .split('\n')
      .filter((l) => !l.startsWith('mem-fault')).length,
    1,
    res.stderr,
  );
  assert.match(res.stderr, /memory\/2026-11-22\.md changed while memfold was writing it .*nothing was written/);
  const text = readFileSync(join(ws, DAY), 'utf8');
  for (let n = 1; n <= 4; n++) assert.ok(text.includes(`hand written ${n} `), `hand entry ${n}`);
  assert.doesNotMatch(text, /retracted/);
  assert.deepEqual(
    readdirSync(join(ws, 'memory', '.locks')).filter((n) => n.includes('mem-tmp')),
    [],
    'no temp file left',
  );
  const status = await mem(['-C', ws, 'status']);
  assert.match(status.stdout + status.stderr, /last forget run failed .*changed while memfold was writing it/);
});

/** Jobs in a loop until `until`: remember (appends), remember with a key (supersedes) and compound (rewrites). Returns the ids they say they wrote. */
async function runJobs(ws: string, until: number): Promise<{ remembered: string[]; runs: number; gaveUp: number }> {
  const remembered: string[] = [];
  let runs = 0;
  let gaveUp = 0;
  const loop = async (argsOf: (n: number) => string[]) => {
    for (let n = 0; Date.now() < until; n++) {
      const r = await mem(['-C', ws, ...argsOf(n), '--now', NOW]);
      runs++;
      if (r.code === 3) gaveUp++;
      else assert.equal(r.code, 0, r.stderr);
      const m = /remembered (\S+)/.exec(r.stdout);
      if (m) remembered.push(m[1]!);
    }
  };
  await Promise.all([
    loop((n) => ['remember', `Job fact number ${n} keeps the build green`]),
    loop((n) => ['remember', `The deploy window is slot ${n}`, '--key', 'decision:ops:deploy-window']),
    loop(() => ['compound']),
  ]);
  return { remembered, runs, gaveUp };
}

test(
  `a person appending with >> for ${SECONDS} s while remember and compound run: 0 entries lost`,
  { timeout: (SECONDS + 60) * 1000 },
  async (t) => {
    const ws = await workspace(t);
    await mem(['-C', ws, 'remember', 'The first fact of the day', '--now', NOW]);
    const until = Date.now() + SECONDS * 1000;
    let appended = 0;
    const person = (async () => {
      while (Date.now() < until) {
        // A real shell's `>>` (open with O_APPEND, write, close), in bursts as a person's script appends a batch.
        for (let n = 0; n < 8; n++, appended++) {
          const sh = spawn('sh', ['-c', `printf '%s' "$1" >> "$2"`, 'sh', handEntry(appended), join(ws, DAY)]);
          await new Promise((r) => sh.on('close', r));
        }
        await sleep(250);
      }
    })();
    const [jobs] = await Promise.all([runJobs(ws, until), person]);
    const text = readFileSync(join(ws, DAY), 'utf8');
    const lost = Array.from({ length: appended }, (_, n) => n).filter(
      (n) => !text.includes(`hand written ${n} about teh cache`),
    );
    const lostJobs = jobs.remembered.filter((id) => !text.includes(`- id: ${id}\n`));
    t.diagnostic(
      `${appended} appended by hand, ${jobs.remembered.length} remembered, ${jobs.runs} job runs (${jobs.gaveUp} gave up): ${lost.length} hand entries lost, ${lostJobs.length} job entries lost`,
    );
    assert.deepEqual(lost, []);
    assert.deepEqual(lostJobs, []);
    assert.ok(appended > 10 && jobs.remembered.length > 2, 'the run did something');
    const lint = await mem(['-C', ws, 'lint']);
    // Every entry parses; a long run may only pass the daily file's entry limit.
    assert.ok(
      lint.code === 0 ||
        (/^lint: \d+ entries, 1 problem$/m.test(lint.stdout) && /over the limit of \d+ a daily file/.test(lint.stdout)),
      lint.stdout,
    );
  },
);

/** An editor saving in place (vim `backupcopy=yes` on a slow disk): truncate, then 8 KiB chunks with pauses between. */
async function saveInPlace(file: string, text: string): Promise<void> {
  const bytes = Buffer.from(text);
  const fd = openSync(file, 'r+');
  try {
    ftruncateSync(fd, 0);
    for (let at = 0; at < bytes.length; at += 8192) {
      writeSync(fd, bytes, at, Math.min(8192, bytes.length - at), at);
      await sleep(15);
    }
  } finally {
    closeSync(fd);
  }
}

test(
  `an editor saving in place in 8 KiB chunks for ${SECONDS} s while remember and compound run: 0 entries and 0 edits lost`,
  { timeout: (SECONDS + 60) * 1000 },
  async (t) => {
    const ws = await workspace(t);
    await mem(['-C', ws, 'remember', 'The first fact of the day', '--now', NOW]);
    const file = join(ws, DAY);
    appendFileSync(file, Array.from({ length: 200 }, (_, n) => handEntry(n)).join(''));
    const until = Date.now() + SECONDS * 1000;
    let fixed = 0;
    const editor = (async () => {
      for (; Date.now() < until && fixed < 200; fixed++) {
        // The person fixes one typo and saves; between saves they read (the editor reloads a changed file).
        const text = readFileSync(file, 'utf8');
        await saveInPlace(
          file,
          text.replace(`hand written ${fixed} about teh cache`, `hand written ${fixed} about the cache`),
        );
        await sleep(150);
      }
    })();
    const [jobs] = await Promise.all([runJobs(ws, until), editor]);
    const text = readFileSync(file, 'utf8');
    const lost = Array.from({ length: 200 }, (_, n) => n).filter(
      (n) => !new RegExp(`hand written ${n} about t(eh|he) cache`).test(text),
    );
    const reverted = Array.from({ length: fixed }, (_, n) => n).filter(
      (n) => !text.includes(`hand written ${n} about the cache`),
    );
    const lostJobs = jobs.remembered.filter((id) => !text.includes(`- id: ${id}\n`));
    t.diagnostic(
      `${fixed} saves in place, ${jobs.remembered.length} remembered, ${jobs.runs} job runs (${jobs.gaveUp} gave up): ${lost.length} untouched entries lost, ${reverted.length} edits reverted, ${lostJobs.length} job entries lost`,
    );
    assert.deepEqual(lost, []);
    assert.deepEqual(reverted, []);
    assert.deepEqual(lostJobs, []);
    assert.ok(fixed > 5 && jobs.remembered.length > 2, 'the run did something');
    assert.ok(!existsSync(join(ws, 'memory', '.locks', 'write.lock')), 'no lock left');
    const lint = await mem(['-C', ws, 'lint']);
    // Every entry parses; a long run may only pass the daily file's entry limit.
    assert.ok(
      lint.code === 0 ||
        (/^lint: \d+ entries, 1 problem$/m.test(lint.stdout) && /over the limit of \d+ a daily file/.test(lint.stdout)),
      lint.stdout,
    );
  },
);
