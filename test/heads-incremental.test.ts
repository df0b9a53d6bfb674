/**
 * The heads' incremental refresh (src/entries/heads-delta.ts), pure: after random edits of one file
 * (entries added, removed, restated, superseded, retracted, re-keyed, moved to another scope), what
 * planDelta updates, laid over the model built before, is the model built from every entry after:
 * every scope's heads and rows, the id index, the chain links and MEMORY.md's cited ends. When it
 * declines (a change across scopes), the caller rebuilds whole; most edits stay incremental.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { planDelta, type Stored } from '../src/entries/heads-delta.js';
import { buildModel, type HeadsModel } from '../src/entries/heads-model.js';
import type { EntryRecord } from '../src/entries/store.js';
import { TABLE_FIELDS, tableRecord, type Row } from '../src/entries/table.js';
import { rng } from './helpers/rng.js';

const KINDS = ['Rule', 'Preference', 'Task', 'Goal', 'Decision', 'Note'];
const SCOPES = ['global', 'project:shop', 'project:blog', ''];
type Spec = Record<string, string | null> & { kind: string };

function recordsOf(files: Map<string, Spec[]>): EntryRecord[] {
  return [...files.keys()].sort().flatMap((file) =>
    files.get(file)!.map((f, i) => {
      const row = [f.kind, `Item ${f.id}`, 3 + 4 * i, 5 + 4 * i, ...TABLE_FIELDS.map((k) => f[k] ?? null)] as Row;
      return tableRecord(file, row);
    }),
  );
}

function storedOf(m: HeadsModel): Stored {
  return {
    idInfo: (id) => m.ids.get(id),
    namers: (id) => m.links.newer.get(id) ?? [],
    keyList: (k) => m.links.keys.get(k) ?? [],
    scopeRows: (s) => m.rows.get(s) ?? { rows: [], ext: [] },
    cited: m.cited,
    walked: m.walked,
  };
}

/** The model after an update, as a reader of the written files sees it. */
function comparable(m: HeadsModel) {
  const nonEmpty = (x: Map<string, unknown[]>) =>
    Object.fromEntries([...x].filter(([, v]) => v.length).sort(([a], [b]) => (a < b ? -1 : 1)));
  return {
    heads: Object.fromEntries(Object.entries(m.scopes).sort(([a], [b]) => (a < b ? -1 : 1))),
    rows: Object.fromEntries([...m.rows].filter(([, v]) => v.rows.length).sort(([a], [b]) => (a < b ? -1 : 1))),
    ids: Object.fromEntries([...m.ids].sort(([a], [b]) => (a < b ? -1 : 1))),
    newer: nonEmpty(m.links.newer),
    keys: nonEmpty(m.links.keys),
    cited: m.cited,
  };
}

test('an incremental refresh of the heads gives what a whole rebuild gives, after random one-file edits', () => {
  let incremental = 0;
  let whole = 0;
  for (let seed = 1; seed <= 60; seed++) {
    const r = rng(seed);
    const pick = <T>(xs: T[]) => xs[Math.floor(r() * xs.length)]!;
    const files = new Map<string, Spec[]>();
    let n = 0;
    const fresh = (scope: string, ids: string[]): Spec => {
      const kind = pick(KINDS);
      const day = `2026-${String(1 + Math.floor(r() * 12)).padStart(2, '0')}-${String(1 + Math.floor(r() * 28)).padStart(2, '0')}`;
      const earlier = ids.length ? pick(ids) : null;
      return {
        kind,
        id: `${kind.toUpperCase()}-${day.replaceAll('-', '')}-x${n++}`,
        date: day,
        status: r() < 0.85 ? 'active' : pick(['superseded', 'retracted']),
        supersedes: earlier && r() < 0.2 ? earlier : null,
        retracts: earlier && r() < 0.04 ? earlier : null,
        key: r() < 0.4 ? `k${Math.floor(r() * 6)}` : null,
        scope: scope || null,
        core: r() < 0.15 ? 'true' : null,
        weight: r() < 0.2 ? String(Math.floor(r() * 11)) : null,
        state: kind === 'Task' ? pick(['todo', 'done']) : null,
      };
    };
    // Mostly one scope per file, as days of one project are; same-scope supersedes.
    for (let f = 0; f < 25; f++) {
      const scope = pick(SCOPES);
      const list: Spec[] = [];
      for (let i = 0; i < 3 + Math.floor(r() * 12); i++) {
        const same = recordsOf(files).filter(
          (x) => (x.entry.fields.find((y) => y.key === 'scope')?.value ?? '') === scope,
        );
        list.push(
          fresh(
            r() < 0.1 ? pick(SCOPES) : scope,
            same.map((x) => x.id),
          ),
        );
      }
      files.set(`memory/2026-01-${String(10 + f)}.md`, list);
    }
    const all0 = recordsOf(files);
    const cited = [...all0.filter((_, i) => i % 7 === 3).map((x) => x.id), 'RULE-20260101-gone'];
    let model = buildModel(all0, all0, cited);
    for (let step = 0; step < 15; step++) {
      const file = pick([...files.keys()]);
      const list = files.get(file)!.map((s) => ({ ...s }));
      const before = recordsOf(new Map([[file, files.get(file)!]]));
      const scopeHere = list[0]?.scope ?? '';
      const sameScope = recordsOf(files)
        .filter((x) => (x.entry.fields.find((y) => y.key === 'scope')?.value ?? '') === (scopeHere ?? ''))
        .map((x) => x.id);
      const what = Math.floor(r() * 6);
      if (what === 0 || !list.length) list.push(fresh(scopeHere ?? '', sameScope));
      else if (what === 1) list.splice(Math.floor(r() * list.length), 1);
      else if (what === 2) pick(list).status = pick(['active', 'superseded', 'retracted']);
      else if (what === 3) pick(list).supersedes = pick(sameScope);
      else if (what === 4) pick(list).key = `k${Math.floor(r() * 6)}`;
      else pick(list).scope = pick(SCOPES) || null;
      files.set(file, list);
      const after = recordsOf(new Map([[file, list]]));
      const all = recordsOf(files);
      const expected = buildModel(all, all, cited);
      const update = planDelta(
        { changed: new Set([file]), before: { raw: before, scoped: before }, after: { raw: after, scoped: after } },
        storedOf(model),
      );
      if (!update) {
        whole++;
        model = expected;
        continue;
      }
      incremental++;
      const scopes = { ...model.scopes };
      const rows = new Map(model.rows);
      for (const [s, u] of update.scopes) {
        if (u.heads) scopes[s] = u.heads;
        else delete scopes[s];
        rows.set(s, { rows: u.rows, ext: u.ext });
      }
      const ids = new Map(model.ids);
      for (const [id, info] of update.ids)
        if (info) ids.set(id, info);
        else ids.delete(id);
      const links = { newer: new Map(model.links.newer), keys: new Map(model.links.keys) };
      for (const [k, v] of update.newer) links.newer.set(k, v);
      for (const [k, v] of update.keys) links.keys.set(k, v);
      const got: HeadsModel = { scopes, cited: update.cited, walked: update.walked, rows, ids, links };
      assert.deepEqual(comparable(got), comparable(expected), `seed ${seed}, step ${step}, edit ${what} of ${file}`);
      model = { ...got, walked: update.walked };
    }
  }
  assert.ok(incremental > whole, `incremental ${incremental}, whole ${whole}`);
});
