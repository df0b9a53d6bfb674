/**
 * `mem schedule` (docs/operations.md) with an injected crontab command (a script keeping the
 * crontab in a temp file) and an injected LaunchAgents folder: the real ones are never touched.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, realpathSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { editConfig, exampleWorkspace, mem, tempDir } from './helpers/cli.js';
import { fakeCrontab } from './helpers/crontab.js';

/** A workspace by its real path, the name "mem schedule" writes (a temp folder may be reached through a link, as on macOS). */
const realWorkspace = (t: Parameters<typeof tempDir>[0]) => realpathSync(exampleWorkspace(t).ws);

const USER_LINES = 'MAILTO=me@example.com\n# my backups\n30 2 * * * /usr/local/bin/backup --all\n';

describe('mem schedule', () => {
  test("cron: install twice leaves one marked block beside the user's lines; uninstall removes exactly it", async (t) => {
    const ws = realWorkspace(t);
    const otherWs = realWorkspace(t);
    const tab = fakeCrontab(t, USER_LINES);
    const env = { MEM_CRONTAB_CMD: tab.cmd, TZ: 'UTC' };
    const r1 = await mem(['-C', ws, 'schedule', 'install', '--cron'], { env });
    assert.equal(r1.code, 0, r1.stderr);
    assert.match(
      r1.stdout,
      /^installed: microsync "0 10,13,16,19,22 \* \* \*", wrapup "0 3 \* \* \*", compound "0 4 \* \* 1"/,
    );
    const once = readFileSync(tab.file, 'utf8');
    const r2 = await mem(['-C', ws, 'schedule', 'install', '--cron'], { env });
    assert.match(r2.stdout, /already installed, unchanged/);
    assert.equal(readFileSync(tab.file, 'utf8'), once);
    assert.ok(once.startsWith(USER_LINES), once);
    assert.equal(once.split(`# >>> memfold ${ws} `).length - 1, 1, 'one block');
    const lines = once.split('\n').filter((l) => /^[\d*]/.test(l) && l.includes('bin/mem.js'));
    assert.equal(lines.length, 3, 'one line per job');
    assert.match(
      lines[0]!,
      new RegExp(
        `^0 10,13,16,19,22 \\* \\* \\* MEM_TRIGGER=cron ${process.execPath.replace(/[/.]/g, '\\$&')} \\S+/bin/mem\\.js -C ${ws.replace(/[/.-]/g, '\\$&')} microsync >> \\S+/\\.mem/logs/cron\\.log 2>&1$`,
      ),
    );
    assert.ok(existsSync(join(ws, '.mem', 'logs')), 'the log folder exists for cron to append to');

    await mem(['-C', otherWs, 'schedule', 'install', '--cron'], { env });
    const u = await mem(['-C', ws, 'schedule', 'uninstall', '--cron'], { env });
    assert.equal(u.code, 0, u.stderr);
    const after = readFileSync(tab.file, 'utf8');
    assert.ok(!after.includes(ws + ' '), "this workspace's block is gone");
    assert.ok(after.includes(`# >>> memfold ${otherWs} `), "another workspace's block stays");
    await mem(['-C', otherWs, 'schedule', 'uninstall', '--cron'], { env });
    assert.equal(readFileSync(tab.file, 'utf8'), USER_LINES, "the user's crontab exactly as before");
  });

  test("cron: a block whose end marker was edited away loses only its own lines; the user's lines after it stay", async (t) => {
    const { ws } = exampleWorkspace(t);
    const tab = fakeCrontab(t, USER_LINES);
    editConfig(ws, (cfg) => (cfg.timezone = 'Asia/Tokyo')); // the block carries notes too
    const env = { MEM_CRONTAB_CMD: tab.cmd, TZ: 'UTC' };
    assert.equal((await mem(['-C', ws, 'schedule', 'install', '--cron'], { env })).code, 0);
    const mine = '0 5 * * * /home/me/bin/sync-photos\n# weekly report\n0 8 * * 1 /home/me/bin/report\n';
    const edited = readFileSync(tab.file, 'utf8').replace(/^# <<< memfold .*\n/m, '') + mine;
    assert.match(edited, /^# microsync: /m, 'the block holds notes');
    writeFileSync(tab.file, edited);
    const u = await mem(['-C', ws, 'schedule', 'uninstall', '--cron'], { env });
    assert.equal(u.code, 0, u.stderr);
    assert.equal(
      readFileSync(tab.file, 'utf8'),
      `${USER_LINES}\n${mine}`,
      "memfold's marker, notes and job lines gone; every user line kept",
    );

    writeFileSync(tab.file, edited);
    assert.equal((await mem(['-C', ws, 'schedule', 'install', '--cron'], { env })).code, 0);
    const reinstalled = readFileSync(tab.file, 'utf8');
    assert.ok(reinstalled.startsWith(`${USER_LINES}\n${mine}\n# >>> memfold `), reinstalled);
    assert.equal(reinstalled.split('# >>> memfold ').length - 1, 1, 'one block');
    assert.equal(reinstalled.split('\n').filter((l) => l.includes(' MEM_TRIGGER=cron ')).length, 3, 'one line per job');
  });

  test('cron: an empty crontab ("no crontab for user"), a configured schedule, and print writes nothing', async (t) => {
    const { ws } = exampleWorkspace(t);
    const tab = fakeCrontab(t);
    editConfig(ws, (cfg) => (cfg.schedule = { microsync: '*/20 9-17 * * 1-5', compound: 'off' }));
    const p = await mem(['-C', ws, 'schedule', 'print', '--cron'], { env: { MEM_CRONTAB_CMD: tab.cmd, TZ: 'UTC' } });
    assert.equal(p.code, 0, p.stderr);
    assert.match(p.stdout, /^\*\/20 9-17 \* \* 1-5 MEM_TRIGGER=cron .* microsync >> /m);
    assert.doesNotMatch(p.stdout, / compound /);
    assert.ok(!existsSync(tab.file), 'print wrote nothing');
    assert.equal(
      (await mem(['-C', ws, 'schedule', 'install'], { env: { MEM_CRONTAB_CMD: tab.cmd, TZ: 'UTC' } })).code,
      0,
    );
    assert.match(readFileSync(tab.file, 'utf8'), /^# >>> memfold /);
  });

  test("a time zone other than the system's is shifted into the system's zone, weekday included", async (t) => {
    const { ws } = exampleWorkspace(t);
    const tab = fakeCrontab(t, '');
    editConfig(ws, (cfg) => (cfg.timezone = 'Asia/Tokyo'));
    const r = await mem(['-C', ws, 'schedule', 'install', '--cron'], { env: { MEM_CRONTAB_CMD: tab.cmd, TZ: 'UTC' } });
    assert.equal(r.code, 0, r.stderr);
    const text = readFileSync(tab.file, 'utf8');
    assert.match(text, /^0 1,4,7,10,13 \* \* \* .* microsync /m, 'JST 10,13,16,19,22 = UTC 1,4,7,10,13');
    assert.match(text, /^0 18 \* \* \* .* wrapup /m, 'JST 03:00 = UTC 18:00 the day before');
    assert.match(text, /^0 19 \* \* 0 .* compound /m, 'Monday 04:00 JST = Sunday 19:00 UTC');
    assert.match(r.stderr, /re-run "mem schedule install" after a DST change/);
  });

  test('on every day alike, times crossing midnight are exact: the default schedule of America/New_York on a UTC machine', async (t) => {
    const { ws } = exampleWorkspace(t);
    editConfig(ws, (cfg) => (cfg.timezone = 'America/New_York'));
    const r = await mem(['-C', ws, 'schedule', 'print', '--cron'], { env: { TZ: 'UTC' } });
    assert.equal(r.code, 0, r.stderr);
    // 10,13,16,19,22 EST (EDT) = 15,18,21,0,3 (14,17,20,23,2) UTC; Monday 04:00 stays Monday.
    assert.match(r.stdout, /^0 (?:0,3,15,18,21|2,14,17,20,23) \* \* \* .* microsync /m);
    assert.match(r.stdout, /^0 [78] \* \* \* .* wrapup /m);
    assert.match(r.stdout, /^0 [89] \* \* 1 .* compound /m);
  });

  test('a restricted day of the month or month whose times cross midnight is refused, not moved a day', async (t) => {
    const { ws } = exampleWorkspace(t);
    editConfig(ws, (cfg) => {
      cfg.timezone = 'Asia/Tokyo';
      cfg.schedule = { compound: '0 4 * 1 *' }; // January 04:00 JST starts on December 31 in UTC
    });
    const r = await mem(['-C', ws, 'schedule', 'print', '--cron'], { env: { TZ: 'UTC' } });
    assert.equal(r.code, 4, r.stdout);
    assert.match(
      r.stderr,
      /"0 4 \* 1 \*" in Asia\/Tokyo can not be written for the system's zone UTC \(its times fall on different days there\)/,
    );
  });

  test('an hour field of "*" is never shifted: left as it is on every day (no note), refused on a restricted weekday', async (t) => {
    const { ws } = exampleWorkspace(t);
    const env = { TZ: 'UTC' };
    editConfig(ws, (cfg) => {
      cfg.timezone = 'Asia/Tokyo';
      cfg.schedule = { microsync: '30 * * * *', wrapup: 'off', compound: 'off' };
    });
    const every = await mem(['-C', ws, 'schedule', 'print', '--cron'], { env });
    assert.equal(every.code, 0, every.stderr);
    assert.match(every.stdout, /^30 \* \* \* \* .* microsync /m);
    assert.doesNotMatch(every.stdout + every.stderr, /shifted/, 'no shift claimed for an expression left as it is');

    editConfig(ws, (cfg) => (cfg.schedule = { microsync: '30 * * * 1', wrapup: 'off', compound: 'off' }));
    const monday = await mem(['-C', ws, 'schedule', 'print', '--cron'], { env });
    assert.equal(monday.code, 4, monday.stdout);
    assert.match(
      monday.stderr,
      /^mem: "30 \* \* \* 1" in Asia\/Tokyo can not be written for the system's zone UTC \(hour "\*" on a restricted day, weekday or month: its hours fall on two days there\); use "mem daemon", or set the system's zone\n$/,
    );
  });

  test("launchd: one plist per job in the injected folder, idempotent; uninstall removes exactly this workspace's", async (t) => {
    const ws = realWorkspace(t);
    const dir = tempDir(t);
    writeFileSync(join(dir, 'com.example.other.plist'), '<plist/>');
    const env = { MEM_LAUNCHAGENTS_DIR: dir, TZ: 'UTC' };
    const r = await mem(['-C', ws, 'schedule', 'install', '--launchd'], { env });
    assert.equal(r.code, 0, r.stderr);
    const mine = readdirSync(dir)
      .filter((n) => n.startsWith('com.memfold.'))
      .sort();
    assert.equal(mine.length, 3);
    const micro = readFileSync(
      join(
        dir,
        mine.find((n) => n.endsWith('.microsync.plist'))!,
      ),
      'utf8',
    );
    assert.equal(
      micro.match(/<dict><key>Minute<\/key><integer>0<\/integer><key>Hour<\/key><integer>\d+<\/integer><\/dict>/g)
        ?.length,
      5,
    );
    assert.ok(micro.includes(`<string>${ws}</string>`) && micro.includes(`<string>${process.execPath}</string>`));
    assert.match(micro, /<key>StandardOutPath<\/key><string>[^<]+\.mem\/logs\/launchd-microsync\.log<\/string>/);
    const compound = readFileSync(
      join(
        dir,
        mine.find((n) => n.endsWith('.compound.plist'))!,
      ),
      'utf8',
    );
    assert.match(
      compound,
      /<key>Minute<\/key><integer>0<\/integer><key>Hour<\/key><integer>4<\/integer><key>Weekday<\/key><integer>1<\/integer>/,
    );
    const again = await mem(['-C', ws, 'schedule', 'install', '--launchd'], { env });
    assert.match(again.stdout, /already installed, unchanged/);
    const u = await mem(['-C', ws, 'schedule', 'uninstall', '--launchd'], { env });
    assert.match(u.stdout, /^removed/);
    assert.deepEqual(readdirSync(dir), ['com.example.other.plist']);
  });

  test('a workspace reached through a link is the same workspace: one block, one set of agents, named by its real path', async (t) => {
    const { ws } = exampleWorkspace(t);
    const real = realpathSync(ws);
    const link = join(tempDir(t), 'ws-link');
    symlinkSync(ws, link);
    const tab = fakeCrontab(t, USER_LINES);
    const dir = tempDir(t);
    const env = { MEM_CRONTAB_CMD: tab.cmd, MEM_LAUNCHAGENTS_DIR: dir, TZ: 'UTC' };
    for (const backend of ['--cron', '--launchd']) {
      assert.equal((await mem(['-C', ws, 'schedule', 'install', backend], { env })).code, 0);
      const again = await mem(['-C', link, 'schedule', 'install', backend], { env });
      assert.match(again.stdout, /already installed, unchanged/, backend);
    }
    const text = readFileSync(tab.file, 'utf8');
    assert.equal(text.split('# >>> memfold ').length - 1, 1, 'one block');
    assert.ok(text.includes(`# >>> memfold ${real} `) && text.includes(` -C ${real} microsync >> `), text);
    assert.ok(!text.includes(link), "the link's name is not written");
    assert.equal(readdirSync(dir).length, 3, 'one agent per job');
    assert.match((await mem(['-C', link, 'schedule', 'uninstall', '--cron'], { env })).stdout, /^removed/);
    assert.equal(readFileSync(tab.file, 'utf8'), USER_LINES);
  });

  test('cron: a "%" in the workspace path is escaped, as cron would end the command there', async (t) => {
    const { root, ws } = exampleWorkspace(t);
    const pct = join(realpathSync(root), 'mem 100%');
    renameSync(ws, pct);
    const tab = fakeCrontab(t, USER_LINES);
    const env = { MEM_CRONTAB_CMD: tab.cmd, TZ: 'UTC' };
    assert.equal((await mem(['-C', pct, 'schedule', 'install', '--cron'], { env })).code, 0);
    const text = readFileSync(tab.file, 'utf8');
    const line = text.split('\n').find((l) => l.endsWith(' 2>&1') && l.includes(' microsync '))!;
    const command = line.split(' ').slice(5).join(' ');
    assert.doesNotMatch(command, /(?:^|[^\\])%/, 'no "%" that cron would turn into the end of the command');
    assert.ok(
      command.replaceAll('\\%', '%').endsWith(` -C '${pct}' microsync >> '${pct}/.mem/logs/cron.log' 2>&1`),
      command,
    );

    writeFileSync(tab.file, text.replace(/^# <<< memfold .*\n/m, '')); // the escaped lines are still known as memfold's
    assert.equal((await mem(['-C', pct, 'schedule', 'uninstall', '--cron'], { env })).code, 0);
    assert.equal(readFileSync(tab.file, 'utf8'), USER_LINES);
  });

  test('a seconds field (daemon only) is refused for cron with a clear message', async (t) => {
    const { ws } = exampleWorkspace(t);
    editConfig(ws, (cfg) => (cfg.schedule = { microsync: '*/5 * * * * *' }));
    const r = await mem(['-C', ws, 'schedule', 'print', '--cron'], { env: { TZ: 'UTC' } });
    assert.equal(r.code, 4);
    assert.match(r.stderr, /cron and launchd take 5 fields .* a seconds field works only with "mem daemon"/);
  });
});

test('a bad cron expression or an unknown job in `schedule` is a config error for every command that loads the configuration; search and index never read it', async (t) => {
  const cases: Array<[Record<string, string>, RegExp]> = [
    [
      { microsync: '0 25 * * *' },
      /^mem: mem\.config\.json: schedule\.microsync: "0 25 \* \* \*" is not a cron expression \(hour "25"/,
    ],
    [
      { backup: '0 1 * * *' },
      /^mem: mem\.config\.json: schedule\.backup: not a scheduled job \(allowed: microsync, wrapup, compound\)/,
    ],
  ];
  await Promise.all(
    cases.map(async ([schedule, expected]) => {
      const { ws } = exampleWorkspace(t);
      editConfig(ws, (cfg) => (cfg.schedule = schedule));
      for (const args of [['config'], ['lint'], ['microsync', '--dry-run'], ['status']]) {
        const r = await mem(['-C', ws, ...args]);
        assert.equal(r.code, 4, `${args.join(' ')}: ${r.stderr}`);
        assert.match(r.stderr, expected, args.join(' '));
      }
      for (const args of [['search', 'postgres'], ['index']])
        assert.equal((await mem(['-C', ws, ...args])).code, 0, args.join(' '));
    }),
  );
  const { ws } = exampleWorkspace(t);
  editConfig(ws, (cfg) => (cfg.schedule = { microsync: 'off', index: 'off', compound: '' }));
  assert.equal((await mem(['-C', ws, 'config'])).code, 0, '"off" and "" turn a job off, whatever its name');
});

test('an unknown job in `limits.jobTimeoutMs` is a config error naming the allowed jobs, as in `schedule`, on the lean search and index path too; index is a job with a time limit', async (t) => {
  const { ws } = exampleWorkspace(t);
  // {"bogus": 5} was accepted silently and limited nothing.
  editConfig(ws, (cfg) => (cfg.limits = { jobTimeoutMs: { microsync: 300000, bogus: 5 } }));
  for (const args of [['config'], ['lint'], ['daemon'], ['search', 'postgres'], ['index']]) {
    const r = await mem(['-C', ws, ...args]);
    assert.deepEqual(
      [r.code, r.stderr],
      [
        4,
        'mem: mem.config.json: limits.jobTimeoutMs.bogus: not a job with a time limit (allowed: microsync, wrapup, compound, index)\n',
      ],
      args.join(' '),
    );
  }
  editConfig(ws, (cfg) => (cfg.limits = { jobTimeoutMs: { microsync: 300000, wrapup: 1, compound: 1, index: 60000 } }));
  assert.equal((await mem(['-C', ws, 'config'])).code, 0);
});

test('status gives a next run only for what will run it (crontab block, daemon); without crontab, install points to the daemon; config shows the schedule', async (t) => {
  const ws = realWorkspace(t);
  const tab = fakeCrontab(t, USER_LINES);
  const env = { MEM_CRONTAB_CMD: tab.cmd, TZ: 'UTC' };
  const NOW = ['--now', '2026-11-22T09:00:00Z'];
  const before = await mem(['-C', ws, 'status', ...NOW], { env });
  assert.match(before.stdout, /^ {2}microsync +never run; not scheduled: run `mem schedule install` or `mem daemon`$/m);
  assert.doesNotMatch(before.stdout, /next 20/);

  editConfig(ws, (cfg) => (cfg.schedule = { compound: 'off' }));
  assert.equal((await mem(['-C', ws, 'schedule', 'install', '--cron'], { env })).code, 0);
  type Jobs = { jobs: Array<{ job: string; scheduledBy: string | null; nextRun: string | null }> };
  const after = JSON.parse((await mem(['-C', ws, 'status', '--json', ...NOW], { env })).stdout) as Jobs;
  assert.deepEqual(
    after.jobs.filter((j) => j.job !== 'remember' && j.job !== 'index').map((j) => [j.job, j.scheduledBy, j.nextRun]),
    [
      ['microsync', 'cron', '2026-11-22T10:00:00.000Z'],
      ['wrapup', 'cron', '2026-11-23T03:00:00.000Z'],
      ['compound', null, null],
    ],
  );
  // A running daemon (its pid file naming a live process: this one) runs the schedule without cron.
  writeFileSync(
    join(ws, '.mem', 'daemon.pid'),
    JSON.stringify({ pid: process.pid, host: 'here', start: '2026-11-22T08:00:00Z' }),
  );
  const daemon = await mem(['-C', ws, 'status', ...NOW], {
    env: { TZ: 'UTC', MEM_CRONTAB_CMD: join(tempDir(t), 'no-crontab') },
  });
  assert.match(daemon.stdout, /^ {2}microsync +never run; next 2026-11-22T10:00:00\.000Z \(in 60m, daemon\)$/m);

  const none = await mem(['-C', ws, 'schedule', 'install', '--cron'], {
    env: { TZ: 'UTC', MEM_CRONTAB_CMD: join(tempDir(t), 'no-crontab') },
  });
  assert.equal(none.code, 1);
  assert.match(
    none.stderr,
    /^mem: no crontab command on this machine \("\S+no-crontab" not found\): run "mem daemon" instead, which runs the same schedule while it runs\n$/,
  );

  const config = await mem(['-C', ws, 'config']);
  assert.match(
    config.stdout,
    /^# schedule \(UTC\): microsync "0 10,13,16,19,22 \* \* \*", wrapup "0 3 \* \* \*", compound off; "mem status" says what runs it$/m,
  );
  assert.deepEqual((JSON.parse((await mem(['-C', ws, 'config', '--json'])).stdout) as { schedule: unknown }).schedule, {
    microsync: '0 10,13,16,19,22 * * *',
    wrapup: '0 3 * * *',
    compound: 'off',
  });
});

test('mem schedule remove (alias uninstall) takes the schedule out again, is documented beside install, and status says so', async (t) => {
  const ws = realWorkspace(t);
  const tab = fakeCrontab(t, USER_LINES);
  const env = { MEM_CRONTAB_CMD: tab.cmd, TZ: 'UTC' };
  assert.equal((await mem(['-C', ws, 'schedule', 'install', '--cron'], { env })).code, 0);
  const r = await mem(['-C', ws, 'schedule', 'remove', '--cron'], { env });
  assert.deepEqual([r.code, r.stdout], [0, `removed from crontab (${tab.cmd})\n`], r.stderr);
  assert.equal(readFileSync(tab.file, 'utf8'), USER_LINES);
  assert.match(
    (await mem(['-C', ws, 'status'], { env })).stdout,
    /^ {2}wrapup +never run; not scheduled: run `mem schedule install` or `mem daemon`$/m,
  );
  const help = await mem(['schedule', '--help']);
  assert.match(
    help.stdout,
    /^ {2}mem schedule install .*\n(?: {2}mem schedule install .*\n)* {2}mem schedule remove +# .*\(alias: uninstall\)$/m,
  );
});
