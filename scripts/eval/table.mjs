/**
 * Printing the evaluation: one table per report (overall, then per kind, language and format), or the
 * same as JSON. Ratios are computed from the raw counts here, so merged splits add counts, not ratios.
 */
import { ratios } from './score.mjs';

const KINDS = ['Decision', 'Rule', 'Architecture', 'Note', 'Preference', 'Goal', 'Task', 'Lesson'];
const LANGS = ['en', 'zh-Hans', 'zh-Hant', 'mixed'];
const FORMATS = ['claude-code', 'codex', 'openclaw', 'jsonl', 'markdown'];

function addBucket(into, b) {
  for (const [k, v] of Object.entries(b)) into[k] = (into[k] ?? 0) + v;
  return into;
}

/** Several split runs as one report: counts added, lists joined. */
export function mergeResults(name, runs) {
  const result = {
    overall: {},
    kind: {},
    lang: {},
    format: {},
    misses: [],
    extras: [],
    badLinks: [],
    decoysFound: [],
    secretsFound: [],
  };
  for (const { result: r } of runs) {
    addBucket(result.overall, r.overall);
    for (const dim of ['kind', 'lang', 'format'])
      for (const [k, b] of Object.entries(r[dim])) result[dim][k] = addBucket(result[dim][k] ?? {}, b);
    for (const list of ['misses', 'extras', 'badLinks', 'decoysFound', 'secretsFound']) result[list].push(...r[list]);
  }
  return {
    split: name,
    exchanges: runs.reduce((n, r) => n + r.exchanges, 0),
    seconds: runs.reduce((n, r) => n + r.seconds, 0),
    microsync: null,
    result,
  };
}

const order = (names, known) => [
  ...known.filter((k) => names.includes(k)),
  ...names.filter((k) => !known.includes(k)).sort(),
];

function rows(result) {
  const out = [['overall', result.overall]];
  for (const [dim, known] of [
    ['kind', KINDS],
    ['lang', LANGS],
    ['format', FORMATS],
  ]) {
    for (const name of order(Object.keys(result[dim]), known)) out.push([`${dim} ${name}`, result[dim][name]]);
  }
  return out;
}

const pct = (x) => (x === null ? '   –' : x.toFixed(2));
const frac = (n, d) => (d === 0 ? '–' : `${n}/${d}`);

export function printTable(report, show = 0) {
  const { split, exchanges, seconds, microsync, result } = report;
  const ms = microsync
    ? `; microsync: ${microsync.sessions ?? '?'} sessions, ${microsync.turns ?? '?'} turns, ${Array.isArray(microsync.added) ? microsync.added.length : '?'} entries added`
    : '';
  console.log(`\n## ${split}: ${exchanges} exchanges, ${seconds.toFixed(1)} s${ms}\n`);
  const head = [
    '',
    'precision',
    'recall',
    'recall any scope',
    'updates',
    'decoys',
    'secrets',
    'keys',
    'found/gold',
    'correct/landed',
  ];
  const table = rows(result).map(([name, b]) => {
    const r = ratios(b);
    return [
      name,
      pct(r.precision),
      pct(r.recall),
      pct(r.recallAnyScope),
      b.links === 0 ? '–' : `${pct(r.updates)} ${frac(b.linked, b.links)}`,
      frac(b.decoysLanded, b.decoys),
      frac(b.secretsLanded, b.secrets),
      frac(b.keysRight, b.keys),
      frac(b.found, b.gold),
      frac(b.correct, b.landed),
    ];
  });
  const widths = head.map((h, i) => Math.max(h.length, ...table.map((r) => String(r[i]).length)));
  const line = (cells) =>
    `| ${cells.map((c, i) => (i === 0 ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]))).join(' | ')} |`;
  console.log(line(head));
  console.log(`|${widths.map((w, i) => (i === 0 ? '-'.repeat(w + 2) : `${'-'.repeat(w + 1)}:`)).join('|')}|`);
  for (const r of table) console.log(line(r));
  console.log(
    '\nprecision: landed entries that match a gold entry; recall: gold entries found; updates: revisions and retractions linked to the right entry;',
  );
  console.log('recall any scope: the same without comparing scope (a diagnostic: how much is lost to scope alone);');
  console.log(
    'decoys/secrets: must-not-land strings found in memory/ (0 is right); keys: matched entries with a gold topic whose key names it.',
  );
  if (show > 0) {
    const list = (title, items, fmt) => {
      if (items.length === 0) return;
      console.log(`\n${title} (${items.length}${items.length > show ? `, first ${show}` : ''}):`);
      for (const it of items.slice(0, show)) console.log(`  ${fmt(it)}`);
    };
    list(
      'missed',
      result.misses,
      (m) => `${m.gid} ${m.kind} ${m.scope} [${m.words.join(', ')}]${m.state ? ` state ${m.state}` : ''}`,
    );
    list(
      'extra (matches no gold)',
      result.extras,
      (e) => `${e.exchange ?? '?'} ${e.kind} ${e.scope ?? '(no scope)'}: ${e.title}`,
    );
    list(
      'links wrong',
      result.badLinks,
      (l) => `${l.gid} wants ${l.wants}, landed ${l.landed ?? 'nothing'} → [${l.linksTo.join(', ')}]`,
    );
    list('decoys landed', result.decoysFound, (d) => `${d.exchange} (${d.why}): ${d.text}`);
    list('secrets landed', result.secretsFound, (d) => `${d.exchange}: ${d.text}`);
  }
}

export function summary(report, show = 0) {
  const { split, exchanges, seconds, result } = report;
  const dims = {};
  for (const dim of ['kind', 'lang', 'format'])
    dims[dim] = Object.fromEntries(Object.entries(result[dim]).map(([k, b]) => [k, { ...ratios(b), counts: b }]));
  const cap = (list) => (show > 0 ? list.slice(0, show) : list);
  return {
    split,
    exchanges,
    seconds,
    overall: { ...ratios(result.overall), counts: result.overall },
    ...dims,
    misses: cap(result.misses),
    extras: cap(result.extras),
    badLinks: cap(result.badLinks),
    decoysLanded: cap(result.decoysFound),
    secretsLanded: cap(result.secretsFound),
  };
}
