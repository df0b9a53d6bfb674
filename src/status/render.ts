/** `mem status` for people: one screen, problems last and in colour on a terminal. */
import { c } from '../terminal/output.js';
import type { StatusReport } from './collect.js';
import { count } from '../core/count.js';
import { renderSources } from './sources.js';
import { describeCheck, ranksWorse, weakModelWarning } from '../search/embed/model-check.js';

function ago(iso: string, now: Date): string {
  const s = Math.round((now.getTime() - Date.parse(iso)) / 1000);
  if (s < 0) return `in ${fmt(-s)}`;
  return `${fmt(s)} ago`;
}

function fmt(s: number): string {
  if (s < 90) return `${s}s`;
  if (s < 5400) return `${Math.round(s / 60)}m`;
  if (s < 129_600) return `${Math.round(s / 3600)}h`;
  return `${Math.round(s / 86_400)}d`;
}

export function renderStatus(r: StatusReport, now: Date): string {
  const out: string[] = [];
  const d = r.workspace.daemon;
  out.push(
    `${c.bold('workspace')} ${r.workspace.path} (${r.workspace.zone}); daemon ${d.running ? `running, pid ${d.pid}` : 'not running'}`,
  );
  out.push(c.bold('jobs'));
  for (const j of r.jobs) {
    const last = j.lastRun
      ? `${j.lastRun.outcome === 'ok' ? c.green('ok') : c.red(j.lastRun.outcome)} ${ago(j.lastRun.end, now)} (${j.lastRun.trigger}, ${(j.lastRun.durationMs / 1000).toFixed(1)}s${j.lastRun.counts.entriesAdded ? `, ${count(j.lastRun.counts.entriesAdded, 'entry', 'entries')} added` : ''})`
      : c.dim('never run');
    const next = j.nextRun
      ? `next ${j.nextRun} (${ago(j.nextRun, now)}, ${j.scheduledBy})`
      : j.schedule
        ? c.yellow('not scheduled: run `mem schedule install` or `mem daemon`')
        : c.dim('not scheduled');
    const running = j.running.length ? c.yellow(` running now (pid ${j.running.map((x) => x.pid).join(', ')})`) : '';
    out.push(`  ${j.job.padEnd(10)} ${last}; ${next}${running}`);
  }
  out.push(
    `${c.bold('locks')} ${r.locks.length ? r.locks.map((l) => `${l.name}${l.holders.length ? ` (held by ${l.holders.map((h) => `${h.job} pid ${h.pid}`).join(', ')})` : ' (holder unknown)'}`).join(', ') : 'none held'}`,
  );
  out.push(`${c.bold('sources')} ${renderSources(r.sources)}`);
  const ix = r.index;
  out.push(
    `${c.bold('index')} ${ix.exists ? `updated ${ix.lastUpdate ? ago(ix.lastUpdate, now) : '?'}, ${count(ix.dirtyFiles, 'dirty file')}` : `not built (${count(ix.dirtyFiles, 'file')} to index; run "mem index")`}`,
  );
  const ar = r.archive;
  out.push(
    `${c.bold('archive')} ${ar.kept ? `${count(ar.windows, 'window')} of ${count(ar.transcripts, 'transcript')} in ${count(ar.segments, 'segment')}, updated ${ar.lastUpdate ? ago(ar.lastUpdate, now) : '?'}; ${ar.outdated ? 'written by an older memfold, not searched: the next microsync or "mem archive" rebuilds it' : ar.behind ? `${count(ar.behind, 'transcript')} changed since (microsync or "mem archive" catches up)` : 'up to date'}` : c.dim('not kept (run "mem archive" to search raw transcripts with --archive)')}`,
  );
  const emb = r.providers.embedding;
  out.push(
    `${c.bold('providers')} llm: ${r.providers.llm ? r.providers.llm.model : 'none (rule-based extraction)'}; embeddings: ${emb ? `${emb.model}${emb.check ? ` (${emb.check.dimensions} dimensions; ${describeCheck(emb.check)})` : ' (not checked yet: "mem index" checks it once there are 8 entries)'}` : 'none (BM25 search only)'}`,
  );
  if (emb?.check && ranksWorse(emb.check)) out.push(`  ${c.yellow('WARN')} ${weakModelWarning(emb.check)}`);
  out.push(c.bold('governance'));
  for (const ch of r.governance.checks) {
    const mark = ch.ok ? c.green('ok  ') : ch.level === 'notice' ? c.yellow('note') : c.red('WARN');
    out.push(`  ${mark} ${ch.message}`);
  }
  out.push(
    r.problems.length
      ? c.red(count(r.problems.length, 'problem')) + ':\n' + r.problems.map((p) => `  - ${p}`).join('\n')
      : c.green('no problems'),
  );
  return out.join('\n');
}
