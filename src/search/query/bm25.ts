/**
 * memfold's one BM25: the parameters and formula every lexical ranking uses, as minisearch computes
 * them (minisearch ranks each query; bm25-cutoff.ts and feedback.ts score postings directly with
 * these functions, and a test checks the cut-off gives minisearch's own hits and scores). The archive
 * tier ranks through the same engine (archive/view.ts).
 */

/**
 * Field weights. The body holds the heading line and the `- id:` line already, and an entry's id is
 * its title's words (`DECISION-20260113-render-invoice-pdfs-…`), so a title word was counted in three
 * fields: at title 2 and id 3, six times a body word, and a distractor whose title named the same
 * component outranked the entry whose conclusion answered (labelled set, issue 32: recall@5 73.6 →
 * 77.3 on dev with 0.5 and 0.3). The title and id fields still break ties and find ids.
 */
export const BOOST = { title: 0.5, body: 1, id: 0.3 };
/** minisearch 7's default BM25 parameters, passed to it explicitly: the functions below use them too. */
export const BM25 = { k: 1.2, b: 0.7, d: 0.5 };

/** A term's IDF among `n` docs when `df` of them hold it (df is held to n). */
export function idf(n: number, df: number): number {
  const m = Math.min(df, n);
  return Math.log(1 + (n - m + 0.5) / (m + 0.5));
}

/** One term's BM25 in one field of one doc: `tf` occurrences in a field of `len` tokens, `avg` on average. */
export function fieldScore(tf: number, len: number, avg: number, termIdf: number): number {
  const { k, b, d } = BM25;
  return termIdf * (d + (tf * (k + 1)) / (tf + k * (1 - b + (b * len) / avg)));
}
