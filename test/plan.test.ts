/**
 * planEntries (src/jobs/microsync/plan.ts): the pure decision of what a microsync run appends —
 * ids and suffixes, what is skipped as already recorded or restated, and what a new entry supersedes.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { getField, type Entry } from '../src/entries/model.js';
import type { Candidate } from '../src/extract/types.js';
import { entryFromCandidate, planEntries, type PlanInput } from '../src/jobs/microsync/plan.js';
import { type Known } from '../src/jobs/microsync/scope-link.js';

type Planned = PlanInput['candidates'][number];

function cand(title: string, over: Partial<Planned> = {}): Planned {
  return {
    kind: 'Decision',
    title,
    conclusion: title,
    confidence: 0.9,
    origin: 'user',
    revises: false,
    sessionId: 's1',
    sessionPath: '/home/dev/s1.jsonl',
    sessionPathStored: '~/s1.jsonl',
    firstTurn: 3,
    lastTurn: 3,
    timestamp: '2026-11-21T10:00:00Z',
    day: '2026-11-21',
    ...over,
  };
}

/** An existing entry as a workspace would hold it (built the way microsync writes them). */
function known(
  id: string,
  title: string,
  over: Partial<Planned> & { status?: string; supersedes?: string } = {},
): Known {
  const { status, supersedes, ...c } = over;
  let entry: Entry = entryFromCandidate(cand(title, { sessionId: 'old', ...c }), id, supersedes);
  if (status) entry = { ...entry, fields: entry.fields.map((f) => (f.key === 'status' ? { ...f, value: status } : f)) };
  return { id, entry };
}

const plan = (candidates: Planned[], existing: Known[] = []) => planEntries({ candidates, existing });
const ids = (p: ReturnType<typeof plan>) => p.entries.map((e) => e.id);
const sup = (p: ReturnType<typeof plan>) => p.entries.map((e) => getField(e.entry, 'supersedes'));

describe('ids and idempotency', () => {
  test('the id is PREFIX-YYYYMMDD-slug of the candidate day and title; entries carry the DESIGN §5 fields', () => {
    const p = plan([
      cand('Move the event store to PostgreSQL', {
        why: 'SQLite locked',
        kind: 'Architecture',
        impact: 'architecture',
        firstTurn: 12,
        lastTurn: 18,
      }),
    ]);
    assert.deepEqual(ids(p), ['ARCH-20261121-move-the-event-store-to-postgresql']);
    const e = p.entries[0]!;
    assert.equal(e.day, '2026-11-21');
    assert.deepEqual(
      e.entry.fields.map((f) => f.key),
      ['id', 'date', 'source', 'why', 'conclusion', 'impact', 'confidence', 'origin', 'status'],
    );
    assert.deepEqual(e.entry.fields[2]!.children, [
      { key: 'session_id', value: 's1' },
      { key: 'session_path', value: '~/s1.jsonl' },
      { key: 'message_range', value: '12-18' },
      { key: 'timestamp', value: '2026-11-21T10:00:00Z' },
    ]);
    // Said with an offset, the time is kept in UTC: a merge compares the two machines' entries by it.
    assert.equal(
      plan([cand('Keep the time', { timestamp: '2026-11-21T11:30:00.000+01:00' })]).entries[0]!.entry.fields[2]!
        .children![3]!.value,
      '2026-11-21T10:30:00Z',
    );
    assert.deepEqual(
      plan([cand('A note by hand', { origin: 'manual' })]).entries[0]!.entry.fields.map((f) => f.key),
      ['id', 'date', 'conclusion', 'confidence', 'origin', 'status'],
    );
  });

  test('the same id with the same source, or the same content, is skipped', () => {
    const existing = [known('DECISION-20261121-use-redis-for-sessions', 'Use Redis for sessions', { sessionId: 's1' })];
    const same = plan([cand('Use Redis for sessions')], existing);
    assert.deepEqual(
      [same.entries, same.skipped],
      [[], [{ id: 'DECISION-20261121-use-redis-for-sessions', reason: 'already-recorded' }]],
    );
    const elsewhere = plan(
      [cand('Use Redis for sessions', { sessionId: 's2', firstTurn: 9, lastTurn: 9 })],
      [known('DECISION-20261121-use-redis-for-sessions', 'Use Redis for sessions')],
    );
    assert.deepEqual(
      [elsewhere.entries, elsewhere.skipped],
      [[], [{ id: 'DECISION-20261121-use-redis-for-sessions', reason: 'duplicate' }]],
    );
  });

  test('the same id with different content gets -2, then -3', () => {
    const base = 'DECISION-20261121-use-redis';
    const existing = [known(base, 'Use Redis', { conclusion: 'Use Redis for sessions' })];
    const p = plan(
      [
        cand('Use Redis', { conclusion: 'Use Redis for rate limits', firstTurn: 4, lastTurn: 4 }),
        cand('Use Redis', { conclusion: 'Use Redis for the job queue', firstTurn: 5, lastTurn: 5 }),
      ],
      existing,
    );
    assert.deepEqual(ids(p), [`${base}-2`, `${base}-3`]);
    assert.deepEqual(
      p.entries.map((e) => getField(e.entry, 'id')),
      [`${base}-2`, `${base}-3`],
    );
    const again = plan(
      [cand('Use Redis', { conclusion: 'Use Redis for the job queue', firstTurn: 5, lastTurn: 5 })],
      [...existing, ...p.entries.map((e) => ({ id: e.id, entry: e.entry }))],
    );
    assert.deepEqual(
      [again.entries.length, again.skipped],
      [0, [{ id: base, reason: 'already-recorded' }]],
      'a suffixed version is found again',
    );
  });

  test('planning a run, then planning it again over what it wrote, adds nothing', () => {
    const cs = [
      cand('Use Redis for sessions'),
      cand('Use Redis for sessions', { conclusion: 'Other text', firstTurn: 7, lastTurn: 7 }),
      cand('Every migration needs a rollback', { kind: 'Rule', firstTurn: 8, lastTurn: 8 }),
    ];
    const first = plan(cs);
    assert.equal(first.entries.length, 3);
    const second = plan(
      cs,
      first.entries.map((e) => ({ id: e.id, entry: e.entry })),
    );
    assert.deepEqual(
      [second.entries.length, second.skipped.map((s) => s.reason)],
      [0, ['already-recorded', 'already-recorded', 'already-recorded']],
    );
  });
});

describe('restated statements', () => {
  test('a statement restated on another day, in other words of punctuation and case, is skipped', () => {
    const existing = [
      known('RULE-20261120-every-migration-needs-a-rollback-script', 'Every migration needs a rollback script', {
        kind: 'Rule',
        day: '2026-11-20',
      }),
    ];
    const p = plan([cand('every migration needs a rollback script!', { kind: 'Rule', day: '2026-11-22' })], existing);
    assert.deepEqual(
      [p.entries, p.skipped],
      [[], [{ id: 'RULE-20261122-every-migration-needs-a-rollback-script', reason: 'duplicate' }]],
    );
  });

  test('the same statement twice in one run is planned once', () => {
    const p = plan([cand('Use pnpm workspaces'), cand('Use pnpm workspaces', { sessionId: 's2', day: '2026-11-22' })]);
    assert.deepEqual(
      [ids(p), p.skipped.map((s) => s.reason)],
      [['DECISION-20261121-use-pnpm-workspaces'], ['duplicate']],
    );
  });

  test('the same words as another kind, or as an entry no longer in force, are not a restatement', () => {
    const otherKind = plan(
      [cand('Use pnpm workspaces', { kind: 'Rule' })],
      [known('DECISION-20261120-use-pnpm-workspaces', 'Use pnpm workspaces')],
    );
    assert.deepEqual(ids(otherKind), ['RULE-20261121-use-pnpm-workspaces']);
    const retired = plan(
      [cand('Use Redis for the cache', { day: '2026-11-22' })],
      [known('DECISION-20261120-use-redis-for-the-cache', 'Use Redis for the cache', { status: 'superseded' })],
    );
    assert.deepEqual(ids(retired), ['DECISION-20261122-use-redis-for-the-cache']);
  });

  test('going back to a decision that a later entry replaced is a new entry that supersedes the replacement', () => {
    const existing = [
      known('DECISION-20261119-use-redis-for-the-cache', 'Use Redis for the cache', { day: '2026-11-19' }),
      known('DECISION-20261120-drop-redis-use-a-local-lru-for-the-cache', 'Drop Redis, use a local LRU for the cache', {
        day: '2026-11-20',
        supersedes: 'DECISION-20261119-use-redis-for-the-cache',
      }),
    ];
    const p = plan(
      [
        cand('Use Redis for the cache', {
          conclusion: 'Go back to Redis for the cache',
          day: '2026-11-22',
          revises: true,
        }),
      ],
      existing,
    );
    assert.deepEqual(ids(p), ['DECISION-20261122-use-redis-for-the-cache']);
    assert.deepEqual(sup(p), ['DECISION-20261120-drop-redis-use-a-local-lru-for-the-cache']);
  });
});

describe('supersedes', () => {
  const lru = known('DECISION-20261120-drop-redis-cache-use-local-lru', 'Drop Redis cache, use local LRU', {
    day: '2026-11-20',
  });

  test('the same key as an active entry supersedes it, without any revision phrasing', () => {
    const existing = [
      known('DECISION-20261118-cache-in-memcached', 'Cache in Memcached', {
        key: 'decision:ledger:cache',
        status: 'superseded',
      }),
      known('DECISION-20261119-cache-in-redis', 'Cache in Redis', { key: 'decision:ledger:cache' }),
      lru,
    ];
    const p = plan([cand('Keep the cache in process', { key: 'decision:ledger:cache' })], existing);
    assert.deepEqual(sup(p), ['DECISION-20261119-cache-in-redis']);
    assert.equal(getField(p.entries[0]!.entry, 'key'), 'decision:ledger:cache');
    assert.deepEqual(sup(plan([cand('Keep the cache in process', { key: 'decision:ledger:queue' })], existing)), [
      undefined,
    ]);
  });

  test('a key chain supersedes the newest holder of the key, not one already replaced', () => {
    const existing = [
      known('DECISION-20261119-cache-in-redis', 'Cache in Redis', { key: 'decision:ledger:cache' }),
      known('DECISION-20261120-cache-in-process', 'Cache in process', {
        key: 'decision:ledger:cache',
        supersedes: 'DECISION-20261119-cache-in-redis',
      }),
    ];
    assert.deepEqual(sup(plan([cand('Cache in Valkey', { key: 'decision:ledger:cache' })], existing)), [
      'DECISION-20261120-cache-in-process',
    ]);
  });

  test('an id named in a supersedes list counts as replaced', () => {
    const redis = 'DECISION-20261119-use-redis-for-the-cache';
    const existing = [
      known(redis, 'Use Redis for the cache'),
      known('DECISION-20261120-drop-redis-and-memcached', 'Drop Redis and Memcached', {
        supersedes: `DECISION-20261118-use-memcached, ${redis}`,
      }),
    ];
    // The replaced entry is the more similar one: only its being replaced rules it out.
    assert.deepEqual(
      sup(
        plan(
          [
            cand('Go back to Redis for the cache instead of dropping Redis and Memcached', {
              revises: true,
              day: '2026-11-22',
            }),
          ],
          existing,
        ),
      ),
      ['DECISION-20261120-drop-redis-and-memcached'],
    );
  });

  test('a revision supersedes the most similar active entry of the same kind and scope', () => {
    const existing = [
      known('DECISION-20261119-use-postgres-for-events', 'Use Postgres for events'),
      lru,
      known('RULE-20261120-redis-cache-keys-expire-in-an-hour', 'Redis cache keys expire in an hour', { kind: 'Rule' }),
    ];
    const back = cand('Go back to the Redis cache instead of the local LRU', { revises: true, day: '2026-11-22' });
    assert.deepEqual(sup(plan([back], existing)), ['DECISION-20261120-drop-redis-cache-use-local-lru']);
    assert.deepEqual(sup(plan([{ ...back, scope: 'project:web' }], existing)), [undefined], 'another scope');
    assert.deepEqual(sup(plan([{ ...back, kind: 'Note' }], existing)), [undefined], 'another kind');
    const zh = [known('DECISION-20261121-放弃-redis-缓存-改用本地-lru', '放弃 Redis 缓存，改用本地 LRU')];
    assert.deepEqual(sup(plan([cand('改回 Redis 缓存', { revises: true, day: '2026-11-22' })], zh)), [
      'DECISION-20261121-放弃-redis-缓存-改用本地-lru',
    ]);
  });

  test('a revision never names a superseded or archived entry, nor an unrelated one', () => {
    const back = cand('Go back to the Redis cache instead of the local LRU', { revises: true, day: '2026-11-22' });
    assert.deepEqual(
      sup(
        plan(
          [back],
          [
            known('DECISION-20261120-drop-redis-cache-use-local-lru', 'Drop Redis cache, use local LRU', {
              status: 'archived',
            }),
          ],
        ),
      ),
      [undefined],
    );
    assert.deepEqual(
      sup(plan([back], [known('DECISION-20261119-use-postgres-for-events', 'Use Postgres for events')])),
      [undefined],
    );
  });

  test('similarity alone, without a revision marker, never sets supersedes', () => {
    const existing = [lru];
    const p = plan([cand('Drop the Redis cache and use a local LRU', { day: '2026-11-22' })], existing);
    assert.equal(p.entries.length, 1);
    assert.deepEqual(sup(p), [undefined]);
    assert.ok(!p.entries[0]!.entry.fields.some((f) => f.key === 'supersedes'));
  });

  test('a revision names no entry it shares only common words with, nor one under another key', () => {
    const existing = [
      known(
        'RULE-20261119-always-run-the-migrations-before-every-deploy',
        'Always run the migrations before every deploy',
        { kind: 'Rule' },
      ),
    ];
    const laptops = cand('We no longer deploy from laptops, always deploy through CI', {
      kind: 'Rule',
      revises: true,
      day: '2026-11-20',
    });
    assert.deepEqual(sup(plan([laptops], existing)), [undefined]);
    const fridays = [
      known('RULE-20261120-we-deploy-on-fridays', 'We deploy on Fridays', {
        kind: 'Rule',
        key: 'rule:ledger:deploy-day',
      }),
    ];
    const thursdays = cand('We now deploy on Thursdays instead of Fridays', {
      kind: 'Rule',
      revises: true,
      day: '2026-11-21',
    });
    assert.deepEqual(sup(plan([thursdays], fridays)), ['RULE-20261120-we-deploy-on-fridays']);
    assert.deepEqual(
      sup(plan([{ ...thursdays, key: 'rule:ledger:deploy-window' }], fridays)),
      [undefined],
      'two keys name two things',
    );
  });

  test("a revision found by similarity alone must say it changes something: a model's revises flag is not enough", () => {
    const p = plan(
      [cand('Deploy on Thursdays, not Fridays', { kind: 'Rule', revises: true, day: '2026-11-21' })],
      [known('RULE-20261120-we-deploy-on-fridays', 'We deploy on Fridays', { kind: 'Rule' })],
    );
    assert.deepEqual(sup(p), [undefined]);
  });

  test('a revision in the same run supersedes the entry planned before it', () => {
    const p = plan([
      cand('Use a local LRU for the balance cache'),
      cand('Go back to Redis instead of a local LRU for the balance cache', {
        revises: true,
        firstTurn: 9,
        lastTurn: 9,
      }),
    ]);
    assert.deepEqual(sup(p), [undefined, 'DECISION-20261121-use-a-local-lru-for-the-balance-cache']);
  });

  test('a back-fill that meets the later statement first still supersedes forward in time', () => {
    const later = cand('Go back to Redis instead of a local LRU for the balance cache', {
      revises: true,
      day: '2026-11-21',
      timestamp: '2026-11-21T10:00:00Z',
    });
    const earlier = cand('Use a local LRU for the balance cache', {
      day: '2026-11-01',
      timestamp: '2026-11-01T10:00:00Z',
      sessionId: 's0',
    });
    const p = plan([later, earlier]);
    // Issue 27: an id's slug is cut at a word boundary, never mid-word ("…-balance-cach").
    assert.deepEqual(ids(p), [
      'DECISION-20261101-use-a-local-lru-for-the-balance-cache',
      'DECISION-20261121-go-back-to-redis-instead-of-a-local-lru-for-the-balance',
    ]);
    assert.deepEqual(sup(p), [undefined, 'DECISION-20261101-use-a-local-lru-for-the-balance-cache']);
    // An older revision never names an entry dated after it.
    const old = cand('Go back to Redis instead of a local LRU for the balance cache', {
      revises: true,
      day: '2026-11-01',
      timestamp: '2026-11-01T10:00:00Z',
    });
    assert.deepEqual(
      sup(
        plan(
          [old],
          [
            known('DECISION-20261121-use-a-local-lru-for-the-balance-cache', 'Use a local LRU for the balance cache', {
              day: '2026-11-21',
            }),
          ],
        ),
      ),
      [undefined],
    );
  });

  test('an explicit supersedes naming a known entry is kept as given', () => {
    const p = plan(
      [cand('Cache in Valkey', { supersedes: lru.id })],
      [lru, known('DECISION-20261121-cache-in-valkey-soon', 'Cache in Valkey soon')],
    );
    assert.deepEqual(sup(p), [lru.id]);
  });
});
