// score.mjs — recall@k and reciprocal rank of one ranked list at a fixed text budget (pure).
//
// A ranked list is what a reader sees: hits in order, each the text it shows and, for every line of
// that text, which file line it is (`shown: [{path, line|turn, start, end}]`, offsets inside the hit's
// text). The hits' texts are read one after another (a 1-character separator between two); an
// evidence line counts only when it lies wholly inside the first C characters of that reading and
// inside the first k hits. So a ranking that wins only by showing more text per hit loses at a budget.
// Evidence is a list of items, each a list of alternatives ({path, lines: [a, b]}): an item is found
// when any alternative has a shown line in its range. Bookkeeping lines of an entry (id, date, source,
// confidence, ...) never count: they do not answer anything.

export const BUDGETS = [4000, 8000, 16000];
export const KS = [1, 5, 10];

const BOOKKEEPING =
  /^\s*- (id|date|source|session_id|session_path|message_range|confidence|origin|scope|key|status|supersedes|state):/;
/** True for a line whose text can answer a question (not an entry's bookkeeping field, not blank). */
export const answers = (text) => text.trim() !== '' && !BOOKKEEPING.test(text);

/**
 * For each evidence item, the 1-based rank of the first hit that shows it within `budget` characters
 * (Infinity if none). `hits[i].shown` lines carry `{path, line, start, end, answers}`.
 */
export function evidenceRanks(hits, evidence, budget) {
  const ranks = evidence.map(() => Infinity);
  let base = 0;
  hits.forEach((hit, i) => {
    for (const s of hit.shown) {
      if (!s.answers || base + s.end > budget) continue;
      evidence.forEach((alts, e) => {
        if (ranks[e] !== Infinity) return;
        if (alts.some((a) => samePath(a.path, s.path) && s.line >= a.lines[0] && s.line <= a.lines[1]))
          ranks[e] = i + 1;
      });
    }
    base += hit.text.length + 1;
  });
  return ranks;
}

/** Workspace-relative paths compare as such; an absolute path (archive hits) by its tail. */
function samePath(want, got) {
  return got === want || got.endsWith(`/${want}`);
}

/** recall@k (share of evidence items found in the top k) for each k, and the reciprocal rank of the first. */
export function scoreRanks(ranks) {
  const out = {};
  for (const k of KS) out[`r${k}`] = ranks.filter((r) => r <= k).length / ranks.length;
  const first = Math.min(...ranks);
  out.mrr = first === Infinity ? 0 : 1 / first;
  return out;
}

/** Means of scoreRanks rows, grouped by `keyOf(row)`; each group also counts its queries. */
export function aggregate(rows, keyOf) {
  const groups = new Map();
  for (const row of rows) {
    const key = keyOf(row);
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(row.score);
  }
  const out = {};
  for (const [key, scores] of groups) {
    const mean = { n: scores.length };
    for (const m of [...KS.map((k) => `r${k}`), 'mrr']) mean[m] = scores.reduce((s, x) => s + x[m], 0) / scores.length;
    out[key] = mean;
  }
  return out;
}

/**
 * The shown lines of a hit whose text is a run of a file's lines: `text` located in `fileText`
 * (else assumed to start at `startLine`), one record per line with its offsets inside `text`.
 */
export function linesShown(path, text, fileText, startLine) {
  const at = fileText === undefined ? -1 : fileText.indexOf(text);
  const first = at === -1 ? startLine : fileText.slice(0, at).split('\n').length;
  const shown = [];
  let start = 0;
  text.split('\n').forEach((line, i) => {
    shown.push({ path, line: first + i, start, end: start + line.length, answers: answers(line) });
    start += line.length + 1;
  });
  return shown;
}

/** The shown turns of an archive hit: each `[n] role: …` marker in its snippet, up to the next one. */
export function turnsShown(path, snippet) {
  const marks = [...snippet.matchAll(/\[(\d+)\] [a-z]+(?: \([^)]*\))?: /g)];
  return marks.map((m, i) => {
    const end = i + 1 < marks.length ? marks[i + 1].index : snippet.length;
    return {
      path,
      line: Number(m[1]),
      start: m.index,
      end: snippet.slice(0, end).trimEnd().replace(/ …$/, '').length,
      answers: true,
    };
  });
}
