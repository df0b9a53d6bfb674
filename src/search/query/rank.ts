/**
 * Boosts (DESIGN §6), pure: small multiplicative factors after fusion (fusion.ts): recency (up to
 * +20 %, halving every 30 days of age) and status (superseded ×0.6, archived ×0.8, retracted ×0.3),
 * so a superseded entry ranks below its successor. A question about the past gets neither the
 * recency nor the superseded factor (query-time.ts).
 */
export const STATUS_BOOST: Record<string, number> = { active: 1, superseded: 0.6, archived: 0.8, retracted: 0.3 };

export interface Ranked {
  doc: number;
  score: number;
}

export function recencyBoost(date: string | null, today: string): number {
  if (!date) return 1;
  const age = (Date.parse(today.slice(0, 10)) - Date.parse(date.slice(0, 10))) / 86_400_000;
  if (!Number.isFinite(age)) return 1;
  return 1 + 0.2 * Math.pow(0.5, Math.max(0, age) / 30);
}

export function statusBoost(status: string | null): number {
  return status ? (STATUS_BOOST[status.toLowerCase()] ?? 1) : 1;
}
