// report.mjs — the tables `npm run eval:search` prints: overall per split and budget, then recall@5
// at 8,000 characters per question type, language and command. Pure: rows in, text out.
import { aggregate, BUDGETS } from './score.mjs';

const pct = (x) => (x * 100).toFixed(1).padStart(5);
const mrr = (x) => x.toFixed(3);
const pad = (s, n) => String(s).padEnd(n);

/** Summary object: by split → system → budget → {all, type, lang, script, command}. */
export function summarize(rows) {
  const out = {};
  for (const split of ['dev', 'heldout'].filter((s) => rows.some((r) => r.split === s))) {
    out[split] = {};
    for (const system of [...new Set(rows.map((r) => r.system))]) {
      out[split][system] = {};
      for (const budget of BUDGETS) {
        const sel = rows.filter((r) => r.split === split && r.system === system && r.budget === budget);
        out[split][system][budget] = {
          all: aggregate(sel, () => 'all').all,
          type: aggregate(sel, (r) => r.type),
          lang: aggregate(sel, (r) => (r.lang === 'en' ? 'en' : 'zh')),
          script: aggregate(sel, (r) => r.lang),
          command: aggregate(sel, (r) => r.command),
        };
      }
      const shown = rows
        .filter((r) => r.split === split && r.system === system && r.budget === BUDGETS[0])
        .map((r) => r.chars);
      out[split][system].meanChars = Math.round(shown.reduce((s, n) => s + n, 0) / Math.max(1, shown.length));
    }
  }
  return out;
}

/** The printed report. */
export function render(summary) {
  const lines = [];
  for (const [split, systems] of Object.entries(summary)) {
    const n = Object.values(systems)[0]?.[BUDGETS[0]].all?.n ?? 0;
    lines.push(
      `\n${split} (${n} queries): recall@1 / @5 / @10 and MRR, evidence counted inside the first C characters of the top 10`,
    );
    lines.push(`${pad('system', 16)}${pad('chars@10', 10)}${BUDGETS.map((b) => pad(`C=${b}`, 29)).join('')}`);
    for (const [system, s] of Object.entries(systems)) {
      const cells = BUDGETS.map((b) => {
        const a = s[b].all;
        return pad(`${pct(a.r1)} ${pct(a.r5)} ${pct(a.r10)} ${mrr(a.mrr)}`, 29);
      });
      lines.push(`${pad(system, 16)}${pad(s.meanChars, 10)}${cells.join('')}`);
    }
    for (const facet of ['lang', 'script', 'type', 'command']) {
      const keys = [...new Set(Object.values(systems).flatMap((s) => Object.keys(s[BUDGETS[1]][facet])))].sort();
      lines.push(
        `  recall@5 at C=${BUDGETS[1]} by ${facet}: ${keys.map((k) => `${k} (${Object.values(systems)[0][BUDGETS[1]][facet][k]?.n ?? 0})`).join(', ')}`,
      );
      for (const [system, s] of Object.entries(systems))
        lines.push(
          `  ${pad(system, 14)}${keys.map((k) => pad(s[BUDGETS[1]][facet][k] ? pct(s[BUDGETS[1]][facet][k].r5) : '  -  ', 12)).join('')}`,
        );
    }
  }
  return lines.join('\n');
}
