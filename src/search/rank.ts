/**
 * Fusion and boosts (DESIGN §6), pure. Lexical and vector rankings are fused by reciprocal-rank
 * fusion, RRF(d) = Σ 1 / (60 + rank(d)) over the lists that hold d (ranks from 1), which needs no
 * score calibration between BM25 and cosine. With one list the fused score is that list's own score.
 * Then small multiplicative boosts: recency (up to +20 %, halving every 30 days of age) and status
 * (superseded ×0.6, archived ×0.8, retracted ×0.3), so a superseded entry ranks below its successor.
 */
export const RRF_K = 60;

export const STATUS_BOOST: Record<string, number> = { active: 1, superseded: 0.6, archived: 0.8, retracted: 0.3 };

export interface Ranked {
  doc: number;
  score: number;
}

export function rrf(lists: Ranked[][]): Map<number, number> {
  const out = new Map<number, number>();
  for (const list of lists) list.forEach((r, i) => out.set(r.doc, (out.get(r.doc) ?? 0) + 1 / (RRF_K + i + 1)));
  return out;
}

export function recencyBoost(date: string | null, today: string): number {
  if (!date) return 1;
  const age = (Date.parse(today.slice(0, 10)) - Date.parse(date.slice(0, 10))) / 86_400_000;
  if (!Number.isFinite(age)) return 1;
  return 1 + 0.2 * Math.pow(0.5, Math.max(0, age) / 30);
}

export function statusBoost(status: string | null): number {
  return status ? STATUS_BOOST[status.toLowerCase()] ?? 1 : 1;
}
