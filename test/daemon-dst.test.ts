/**
 * Time zone and DST, checked on node-cron's real scheduler (not assumed): the daemon's own
 * scheduling call (src/daemon/cron-tasks.ts) runs under node:test's mocked Date and setTimeout — an
 * injected clock — across real DST changes, and every firing is read back as a local time.
 * What this shows (docs/operations.md): local times stay local across a change; a time that does
 * not exist that day (spring forward) is skipped that day; a time that occurs twice (fall back)
 * runs once, at its second occurrence.
 */
import assert from 'node:assert/strict';
import { mock, test } from 'node:test';
import { DateTime } from 'luxon';
import { scheduleJobs } from '../src/daemon/cron-tasks.js';
import { DEFAULT_SCHEDULE, nextRuns } from '../src/schedule/jobs.js';

async function firings(expr: string, zone: string, fromIso: string, hours: number): Promise<string[]> {
  mock.timers.enable({ apis: ['setTimeout', 'Date'], now: Date.parse(fromIso) });
  const fired: string[] = [];
  const tasks = scheduleJobs([{ job: 'microsync', cron: expr }], zone, () =>
    fired.push(DateTime.now().setZone(zone).toISO()!),
  );
  try {
    for (let i = 0; i < hours * 60; i++) {
      mock.timers.tick(60_000);
      await new Promise((r) => setImmediate(r));
    }
  } finally {
    for (const t of tasks) await t.destroy();
    mock.timers.reset();
  }
  return fired;
}

test('the default microsync schedule keeps its local hours across the US spring change', async () => {
  const fired = await firings(DEFAULT_SCHEDULE.microsync!, 'America/New_York', '2026-03-07T05:00:00Z', 72);
  const hours = ['10', '13', '16', '19', '22'];
  const expected = ['2026-03-07', '2026-03-08', '2026-03-09'].flatMap((d) =>
    hours.map((h) => `${d}T${h}:00:00.000${d === '2026-03-07' ? '-05:00' : '-04:00'}`),
  );
  assert.deepEqual(fired, expected);
});

test('spring forward in Europe/Berlin: 02:30 does not exist on 29 March and is skipped that day', async () => {
  const fired = await firings('30 2 * * *', 'Europe/Berlin', '2026-03-27T12:00:00Z', 72);
  assert.deepEqual(fired, ['2026-03-28T02:30:00.000+01:00', '2026-03-30T02:30:00.000+02:00']);
});

test('fall back in Europe/Berlin: 02:30 happens twice on 25 October and runs once', async () => {
  const fired = await firings('30 2 * * *', 'Europe/Berlin', '2026-10-24T12:00:00Z', 72);
  assert.deepEqual(fired, [
    '2026-10-25T02:30:00.000+01:00',
    '2026-10-26T02:30:00.000+01:00',
    '2026-10-27T02:30:00.000+01:00',
  ]);
});

test('the next run `mem status` shows comes from the same matcher', () => {
  const next = nextRuns('0 4 * * 1', 'Asia/Tokyo', new Date('2026-11-22T09:00:00Z'), 2).map((d) => d.toISOString());
  assert.deepEqual(next, ['2026-11-22T19:00:00.000Z', '2026-11-29T19:00:00.000Z']);
});
