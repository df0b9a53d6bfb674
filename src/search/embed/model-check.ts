/**
 * What the embedding model check found (embed-check.ts runs it at `mem index`), as `mem index` and
 * `mem status` show it: the figures and the one rule that calls a
 * model weak. No imports: the index summary (which the served client prints) and status load it
 * without search code; where the figures are kept is model-check-file.ts.
 */

export const CHECK_QUERIES = 32;
export const CHECK_TOP = 5;

export interface ModelCheck {
  model: string;
  dimensions: number;
  checkedAt: string;
  queries: number;
  /** Entries found in the top CHECK_TOP by their title: BM25 alone, the model's vectors alone. */
  lexical: number;
  vector: number;
}

/** True when the model's vectors find fewer than half of the entries BM25 finds by their title. */
export function ranksWorse(c: ModelCheck): boolean {
  return c.vector * 2 < c.lexical;
}

export function describeCheck(c: ModelCheck): string {
  return `its vectors find ${c.vector} of ${c.queries} entries by their title, BM25 ${c.lexical} (top ${CHECK_TOP})`;
}

/** The warning `mem index` and `mem status` give for a model that ranks worse than lexical search. */
export function weakModelWarning(c: ModelCheck): string {
  return `embedding model "${c.model}" ranks worse than lexical search alone: ${describeCheck(c)}; hybrid search leans on BM25 for it, check embedding.model and embedding.dimensions`;
}
