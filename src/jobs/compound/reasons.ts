/**
 * Why each change of a compound plan happened, as lines of the weekly log (governance/
 * weekly-log-file.ts): a regenerated or adopted MEMORY.md, every status flip, blocked flip and
 * supersedes cycle, every item kept for a file that is not UTF-8, every promotion with its score's
 * parts, every demotion with its one reason, and the suspected conflicts (at most MAX_LOGGED, the
 * rest counted). A change the log does not explain is one a person cannot check or undo.
 */
import type { ConflictPlan } from '../../entries/conflicts.js';
import type { CurrentMemory } from '../../entries/memory-md.js';
import { dateOf } from '../../entries/precedence.js';
import type { LogLine } from '../../governance/weekly-log-file.js';
import { count } from '../../core/count.js';
import { PROMOTE_MIN, type Ranked } from './rank.js';

/** Over-budget and suspected-conflict lines written to the weekly log per run; the rest are counted. */
export const MAX_LOGGED = 50;

/** What the plan decided (plan.ts), and the sets it decided with. */
export interface PlanFacts {
  current: CurrentMemory;
  conflicts: ConflictPlan;
  ranked: Ranked[];
  promoted: string[];
  demoted: string[];
  /** Ids of the items kept as written (an entry they cite is held back). */
  keptIds: Set<string>;
  /** Entries held back because their file is not UTF-8: id → file. */
  heldBack: Map<string, string>;
  archiveTopics: Map<string, string> | undefined;
  unconfirmed: Set<string>;
  flipped: Set<string>;
  replaced: Set<string>;
}

export function reasonLines(facts: PlanFacts): LogLine[] {
  const {
    current,
    conflicts,
    ranked,
    promoted,
    demoted,
    keptIds,
    heldBack,
    archiveTopics,
    unconfirmed,
    flipped,
    replaced,
  } = facts;
  const lines: LogLine[] = [];
  const score = new Map(ranked.map((r) => [r.record.id, r]));
  if (current.markerLost)
    lines.push({
      what: 'kept',
      text: `MEMORY.md had lost its generator marker line but is memfold's own output (its items cite entry ids): regenerated${current.adoptedLines !== null ? `; ${count(current.adoptedLines, 'line')} added by hand outside the pinned markers are kept as a pinned section` : ''}`,
    });
  else if (current.adoptedLines !== null)
    lines.push({
      what: 'adopted',
      text: `MEMORY.md had no generator marker (hand-written or from another tool): its whole text (${current.adoptedLines} lines) is kept as a pinned section`,
    });
  for (const f of conflicts.flips)
    lines.push({ what: f.to, text: `${f.id} (${f.date}, ${f.file}) → ${f.to} by ${f.by}: ${f.reason}` });
  for (const f of conflicts.blocked)
    lines.push({
      what: 'blocked',
      text: `${f.id} (${f.file}) should be ${f.to} by ${f.by} (${f.reason}) but is not in a daily file or memory/recent/: its status is left as it is, and it is not promoted`,
    });
  for (const c of conflicts.cycles) lines.push({ what: 'cycle', text: cycleText(c) });
  for (const id of [...keptIds].filter((x) => heldBack.has(x)).sort())
    lines.push({
      what: 'held back',
      text: `${id}: kept in MEMORY.md as it was (${heldBack.get(id)} is not valid UTF-8; convert it, e.g. iconv -f latin1 -t utf-8)`,
    });
  for (const id of promoted) {
    const r = score.get(id)!;
    const p = r.parts;
    lines.push({
      what: 'promoted',
      text: `${id} (${dateOf(r.record)}): score ${r.score} = kind ${p.kind} + confidence ${p.confidence} + links ${p.links} + core ${p.core} + weight ${p.weight} + recency ${p.recency}`,
    });
  }
  for (const id of demoted.filter((x) => !archiveTopics?.has(x))) {
    const r = score.get(id);
    const held = heldBack.get(id);
    const why = held
      ? `${held} is not valid UTF-8, so its item is not rebuilt until the file is converted`
      : unconfirmed.has(id)
        ? `an agent's statement no person confirmed (mem confirm ${id})`
        : flipped.has(id)
          ? 'superseded this week'
          : replaced.has(id)
            ? 'superseded (the flip is blocked, see above)'
            : !r
              ? 'no longer active (superseded, archived or retracted) or not found'
              : r.score < PROMOTE_MIN
                ? `score ${r.score} fell below ${PROMOTE_MIN}`
                : 'no room within the line limit';
    lines.push({ what: 'demoted', text: `${id}: left MEMORY.md (${why}); it stays in its daily file, found by id` });
  }
  for (const s of conflicts.suspects.slice(0, MAX_LOGGED))
    lines.push({
      what: 'suspected',
      text: `${s.a} ~ ${s.b} (similarity ${s.score.toFixed(2)}): look alike, not flipped — resolve with a \`supersedes\` or \`key\``,
    });
  if (conflicts.suspects.length > MAX_LOGGED)
    lines.push({
      what: 'suspected',
      text: `… and ${conflicts.suspects.length - MAX_LOGGED} more, all listed in .mem/suspected-conflicts.json and \`mem status\``,
    });
  return lines;
}

export const cycleText = (cycle: string[]) =>
  `${[...cycle, cycle[0]].join(' → ')}: a supersedes cycle, so none of these is current; their statuses are left alone until a \`supersedes\` field is fixed by hand (\`mem lint\` shows it)`;
