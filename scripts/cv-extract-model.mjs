#!/usr/bin/env node
/**
 * Cross-validation of the learned extraction scorer on the dev split only (docs/extraction-model.md):
 * leave one spec group out (the base cells of each language, the same-message revisions, issue 27's
 * examples, the everyday batch, and the fresh + probe 6 + probe 7 dev items), train on the rest, and
 * score the group left out two ways:
 *   - sentences: the model alone on every user sentence of the group (how it generalises to wording
 *     it never saw), and on the "free" sentences, those no marker speaks for and no detector holds
 *     open, the only ones it may land in microsync;
 *   - microsync, black-box like eval-extract.mjs: the built CLI on the group's sessions, rules alone
 *     (MEM_EXTRACT_MODEL=off) against rules + the fold's model at each threshold.
 * The held-out split is never read. Needs `npm run build` first; run with tsx:
 *
 *   node --import tsx scripts/cv-extract-model.mjs [--thresholds 0.8,0.9,0.95] [--sentences-only] [--groups A,B]
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { attribute, loadGold, microsync, prepare } from './eval/run.mjs';
import { score } from './eval/score.mjs';
import { devRows, groupOf } from './extract-model/rows.mjs';
import { train } from './extract-model/train.mjs';

const { parseModel, probabilities } = await import('../src/extract/model-score.ts');

const arg = (name) => process.argv[process.argv.indexOf(name) + 1];
const thresholds = process.argv.includes('--thresholds')
  ? arg('--thresholds').split(',').map(Number)
  : [0.8, 0.9, 0.95];
const sentencesOnly = process.argv.includes('--sentences-only');
const only = process.argv.includes('--groups') ? arg('--groups').split(',') : undefined;

const rows = await devRows();
const exchanges = loadGold('dev', 0);
const groups = [...new Set(exchanges.map(groupOf))].filter((g) => !only || only.includes(g));
const root = mkdtempSync(join(tmpdir(), 'memfold-cv-'));
const pct = (n, d) => (d ? (n / d).toFixed(2) : '–');

/** Sentence counts of one fold at threshold t: all sentences (alone) and the free ones. */
function sentenceCounts(model, test, t) {
  const c = { tp: 0, fp: 0, fn: 0, freePos: 0, freeTp: 0, freeFp: 0 };
  for (const r of test) {
    const p = probabilities(model, r.features);
    let b = 0;
    p.forEach((v, i) => (v > p[b] ? (b = i) : 0));
    const pred = b > 0 && p[b] >= t ? model.labels[b] : 'none';
    if (r.label !== 'none') pred === r.label ? c.tp++ : (c.fn++, pred !== 'none' && c.fp++);
    else if (pred !== 'none') c.fp++;
    if (r.marked || r.gated) continue;
    if (r.label !== 'none') c.freePos++;
    if (pred !== 'none') pred === r.label ? c.freeTp++ : c.freeFp++;
  }
  return c;
}

async function landed(group, name, env) {
  const dir = join(root, `${group.replace(/\W+/g, '-')}-${name}`);
  const mine = exchanges.filter((x) => groupOf(x) === group);
  const { ws } = await prepare(dir, 'dev', mine, undefined);
  await microsync(ws, { MEM_TEST_HOOKS: '1', ...env });
  const { byExchange, unattributed, text } = attribute(ws, mine);
  return score(mine, byExchange, unattributed, text).overall;
}

const add = (a, b) => Object.fromEntries(Object.keys(b).map((k) => [k, (a?.[k] ?? 0) + b[k]]));
const total = {};
const lines = [];
try {
  for (const group of groups) {
    const model = train(
      rows.filter((r) => r.group !== group),
      thresholds[0],
    );
    const parsed = parseModel(model);
    const test = rows.filter((r) => r.group === group);
    const cells = [group, String(exchanges.filter((x) => groupOf(x) === group).length)];
    if (!sentencesOnly) {
      const rules = await landed(group, 'rules', { MEM_EXTRACT_MODEL: 'off' });
      total.rules = add(total.rules, rules);
      cells.push(
        `${pct(rules.correct, rules.landed)} / ${pct(rules.found, rules.gold)} / ${rules.decoysLanded} / ${rules.linked}/${rules.links}`,
      );
    }
    for (const t of thresholds) {
      const s = sentenceCounts(parsed, test, t);
      total[`s${t}`] = add(total[`s${t}`], s);
      let cell = `${pct(s.tp, s.tp + s.fp)} / ${pct(s.tp, s.tp + s.fn)}; free +${s.freeTp} −${s.freeFp} of ${s.freePos}`;
      if (!sentencesOnly) {
        const file = join(root, `model-${t}.json`);
        writeFileSync(file, JSON.stringify({ ...model, threshold: t }));
        const both = await landed(group, `model-${t}`, { MEM_EXTRACT_MODEL: file });
        total[`m${t}`] = add(total[`m${t}`], both);
        cell += `; microsync ${pct(both.correct, both.landed)} / ${pct(both.found, both.gold)} / ${both.decoysLanded} / ${both.linked}/${both.links}`;
      }
      cells.push(cell);
    }
    lines.push(cells);
    console.error(`cv: ${group} done`);
  }
} finally {
  rmSync(root, { recursive: true, force: true });
}
const head = ['left out', 'exchanges', ...(sentencesOnly ? [] : ['rules alone: P / R / decoys / updates'])];
for (const t of thresholds)
  head.push(
    `t=${t}: model alone P / R; free sentences${sentencesOnly ? '' : '; rules + model P / R / decoys / updates'}`,
  );
console.log(`| ${head.join(' | ')} |`);
console.log(`|${head.map(() => '---').join('|')}|`);
for (const l of lines) console.log(`| ${l.join(' | ')} |`);
const all = ['all folds', String(exchanges.filter((x) => groups.includes(groupOf(x))).length)];
if (!sentencesOnly) {
  const r = total.rules;
  all.push(
    `${pct(r.correct, r.landed)} / ${pct(r.found, r.gold)} / ${r.decoysLanded} / ${r.linked}/${r.links} (${r.found}/${r.gold}, ${r.correct}/${r.landed})`,
  );
}
for (const t of thresholds) {
  const s = total[`s${t}`];
  let cell = `${pct(s.tp, s.tp + s.fp)} / ${pct(s.tp, s.tp + s.fn)}; free +${s.freeTp} −${s.freeFp} of ${s.freePos}`;
  const m = total[`m${t}`];
  if (m)
    cell += `; microsync ${pct(m.correct, m.landed)} / ${pct(m.found, m.gold)} / ${m.decoysLanded} / ${m.linked}/${m.links} (${m.found}/${m.gold}, ${m.correct}/${m.landed})`;
  all.push(cell);
}
console.log(`| ${all.join(' | ')} |`);
