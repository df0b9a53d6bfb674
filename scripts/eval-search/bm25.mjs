// bm25.mjs — the plain baseline: Okapi BM25 (k1 1.2, b 0.75) over paragraph chunks, with memfold's
// own tokenizer (case and Traditional→Simplified folding, CJK words and bigrams) but none of its
// ranking: no stems, no fields, no recency or status boosts, no windows. A paragraph is a run of
// non-blank lines; consecutive paragraphs of one file are merged while the chunk stays within
// `maxChars` (a longer paragraph stays whole). Pure: the tokenizer is passed in.

export const K1 = 1.2;
export const B = 0.75;

/** Paragraphs of a Markdown file: runs of non-blank lines, each line with its 1-based number. */
export function fileParagraphs(fileText) {
  const paras = [];
  let cur = null;
  fileText.split('\n').forEach((line, i) => {
    if (line.trim() === '') {
      cur = null;
      return;
    }
    if (!cur) {
      cur = [];
      paras.push(cur);
    }
    cur.push({ line: i + 1, text: line });
  });
  return paras;
}

/**
 * Chunks of one file's paragraphs: consecutive paragraphs merged while the chunk stays within
 * `maxChars` (a longer paragraph stays whole). Each chunk keeps, per text line, its file line number.
 */
export function mergeParagraphs(path, paras, maxChars) {
  const chunks = [];
  let open = null;
  for (const p of paras) {
    const text = p.map((l) => l.text).join('\n');
    if (open && open.text.length + 2 + text.length <= maxChars) {
      open.text += `\n\n${text}`;
      open.lineNos.push(null, ...p.map((l) => l.line));
      continue;
    }
    open = { path, text, lineNos: p.map((l) => l.line) };
    chunks.push(open);
  }
  return chunks;
}

/** A BM25 index over chunks; `tokens(text)` gives a chunk's or a query's terms (with repeats). */
export function bm25Index(chunks, tokens) {
  const postings = new Map();
  const lengths = [];
  chunks.forEach((c, d) => {
    const terms = tokens(c.text);
    lengths.push(terms.length);
    const tf = new Map();
    for (const t of terms) tf.set(t, (tf.get(t) ?? 0) + 1);
    for (const [t, n] of tf) {
      if (!postings.has(t)) postings.set(t, []);
      postings.get(t).push([d, n]);
    }
  });
  const avg = lengths.reduce((s, n) => s + n, 0) / Math.max(1, lengths.length);
  const N = chunks.length;
  return {
    /** The top `k` chunks for `query`, best first (ties: earlier chunk first). */
    search(query, k) {
      const scores = new Map();
      for (const t of new Set(tokens(query))) {
        const list = postings.get(t);
        if (!list) continue;
        const idf = Math.log(1 + (N - list.length + 0.5) / (list.length + 0.5));
        for (const [d, tf] of list) {
          const s = (idf * (tf * (K1 + 1))) / (tf + K1 * (1 - B + B * (lengths[d] / avg)));
          scores.set(d, (scores.get(d) ?? 0) + s);
        }
      }
      return [...scores]
        .sort((a, b) => b[1] - a[1] || a[0] - b[0])
        .slice(0, k)
        .map(([d, score]) => ({ ...chunks[d], score }));
    },
  };
}
