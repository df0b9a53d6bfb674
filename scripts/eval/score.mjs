/**
 * Scores landed entries against the gold of fixtures/extraction (pure: no I/O).
 *
 * Matching is lenient on wording and strict on what the entry is: a landed entry matches a gold entry
 * when the kind (any kind, for a retraction) and the scope are equal, every required word occurs in its title or conclusion
 * (case-folded, NFKC, whitespace ignored; Traditional and Simplified as written), no excluded word does,
 * the task state is equal when the gold has one, and it is a retraction (`retracts:`) exactly when the
 * gold is one. Within an exchange each gold entry matches at most one landed entry (a maximum matching,
 * required entries first). A landed entry that matches nothing counts against precision.
 * `foundAnyScope` (a diagnostic, not a score) counts the gold entries found when scope is not compared.
 * A must-not-land string (decoy or secret) counts as landed when it occurs anywhere in memory/; a secret
 * also when 12 of its letters and digits in a row do, whatever stands between them (cut, slugged into an id).
 */
import { idList } from './entries.mjs';

export const fold = (s) => (s ?? '').normalize('NFKC').toLowerCase().replace(/\s+/g, '');
const alnum = (s) => fold(s).replace(/[^\p{L}\p{N}]/gu, '');
/** Secret windows this long are never in memory by chance: any one found is a leak (a cut or slugged secret too). */
const SECRET_WINDOW = 12;

export function secretLanded(secret, memoryAlnum) {
  const s = alnum(secret);
  const n = Math.min(SECRET_WINDOW, s.length);
  for (let i = 0; i + n <= s.length; i += 1) if (memoryAlnum.includes(s.slice(i, i + n))) return true;
  return false;
}

function compatible(g, l, scoped) {
  // A retraction is judged by its link and scope: DESIGN does not say which kind the retracting entry has.
  if (l.kind !== g.kind && !g.retracts) return false;
  if (scoped && (l.fields.scope ?? '') !== g.scope) return false;
  const text = fold(`${l.title} ${l.fields.conclusion ?? ''}`);
  if (!g.words.every((w) => text.includes(fold(w)))) return false;
  if ((g.exclude ?? []).some((w) => text.includes(fold(w)))) return false;
  if (g.state && (l.fields.state ?? '').toLowerCase() !== g.state) return false;
  const retraction = idList(l.fields.retracts).length > 0;
  return Boolean(g.retracts) === retraction;
}

/** Maximum bipartite matching (augmenting paths), required gold first: gid → landed index. */
function match(golds, landed, scoped = true) {
  const owner = new Map(); // landed index → gold index
  const edges = golds.map((g) => landed.map((l, j) => (compatible(g, l, scoped) ? j : -1)).filter((j) => j >= 0));
  const tryAssign = (gi, seen) => {
    for (const j of edges[gi]) {
      if (seen.has(j)) continue;
      seen.add(j);
      if (!owner.has(j) || tryAssign(owner.get(j), seen)) {
        owner.set(j, gi);
        return true;
      }
    }
    return false;
  };
  const order = golds
    .map((g, i) => i)
    .sort((a, b) => Number(golds[a].optional ?? false) - Number(golds[b].optional ?? false));
  for (const gi of order) tryAssign(gi, new Set());
  const byGold = new Map();
  for (const [j, gi] of owner) byGold.set(golds[gi].gid, landed[j]);
  return byGold;
}

const bucket = () => ({
  gold: 0,
  found: 0,
  foundAnyScope: 0,
  landed: 0,
  correct: 0,
  links: 0,
  linked: 0,
  decoys: 0,
  decoysLanded: 0,
  secrets: 0,
  secretsLanded: 0,
  keys: 0,
  keysRight: 0,
});

/**
 * exchanges: gold.jsonl lines; landedByExchange: Map id → landed entries of that exchange;
 * unattributed: landed entries no exchange owns; memoryText: all of memory/.
 * Returns {overall, kind, lang, format, split, misses, extras} with raw counts per bucket.
 */
export function score(exchanges, landedByExchange, unattributed, memoryText) {
  const res = {
    overall: bucket(),
    kind: {},
    lang: {},
    format: {},
    misses: [],
    extras: [],
    badLinks: [],
    decoysFound: [],
    secretsFound: [],
  };
  const at = (dim, name) => (res[dim][name] ??= bucket());
  const add = (buckets, field, n = 1) => buckets.forEach((b) => (b[field] += n));
  const memory = fold(memoryText);
  const memoryAlnum = alnum(memoryText);
  for (const x of exchanges) {
    const lang = x.gold[0]?.lang ?? x.forbid[0]?.lang ?? x.secrets[0]?.lang ?? 'en';
    const landed = landedByExchange.get(x.id) ?? [];
    const matched = match(x.gold, landed);
    const loose = match(x.gold, landed, false);
    const used = new Set(matched.values());
    for (const g of x.gold) {
      const l = matched.get(g.gid);
      const bs = [res.overall, at('kind', g.kind), at('lang', g.lang), at('format', x.format)];
      if (!g.optional) {
        add(bs, 'gold');
        if (l) add(bs, 'found');
        if (loose.has(g.gid)) add(bs, 'foundAnyScope');
        else
          res.misses.push({
            exchange: x.id,
            gid: g.gid,
            kind: g.kind,
            scope: g.scope,
            words: g.words,
            ...(g.state && { state: g.state }),
          });
      }
      if (l && g.topic) {
        add(bs, 'keys');
        if ((l.fields.key ?? '').split(':').includes(g.topic)) add(bs, 'keysRight');
      }
      const target = g.supersedes ?? g.retracts;
      if (target && !g.optional) {
        add(bs, 'links');
        const t = x.gold.find((o) => o.gid === target);
        const lt = matched.get(target);
        const ids = idList(g.supersedes ? l?.fields.supersedes : l?.fields.retracts);
        const ok = Boolean(l) && (lt ? ids.includes(lt.fields.id) : Boolean(t?.optional) && !g.retracts);
        if (ok) add(bs, 'linked');
        else
          res.badLinks.push({ exchange: x.id, gid: g.gid, wants: target, landed: l?.fields.id ?? null, linksTo: ids });
      }
    }
    for (const l of landed) {
      const bs = [res.overall, at('kind', l.kind), at('lang', lang), at('format', x.format)];
      add(bs, 'landed');
      if (used.has(l)) add(bs, 'correct');
      else
        res.extras.push({
          exchange: x.id,
          kind: l.kind,
          title: l.title,
          scope: l.fields.scope ?? null,
          id: l.fields.id,
        });
    }
    for (const [list, total, hit, found] of [
      [x.forbid, 'decoys', 'decoysLanded', res.decoysFound],
      [x.secrets, 'secrets', 'secretsLanded', res.secretsFound],
    ]) {
      for (const f of list) {
        const bs = [res.overall, at('kind', f.kind), at('lang', f.lang), at('format', x.format)];
        add(bs, total);
        if (total === 'secrets' ? secretLanded(f.text, memoryAlnum) : memory.includes(fold(f.text))) {
          add(bs, hit);
          found.push({ exchange: x.id, text: total === 'secrets' ? `${f.text.slice(0, 4)}…` : f.text, why: f.why });
        }
      }
    }
  }
  for (const l of unattributed) {
    add([res.overall, at('kind', l.kind)], 'landed');
    res.extras.push({ exchange: null, kind: l.kind, title: l.title, scope: l.fields.scope ?? null, id: l.fields.id });
  }
  return res;
}

/** Ratios of a bucket; null where the denominator is 0. */
export function ratios(b) {
  const r = (n, d) => (d === 0 ? null : n / d);
  return {
    precision: r(b.correct, b.landed),
    recall: r(b.found, b.gold),
    recallAnyScope: r(b.foundAnyScope, b.gold),
    updates: r(b.linked, b.links),
    keys: r(b.keysRight, b.keys),
  };
}
