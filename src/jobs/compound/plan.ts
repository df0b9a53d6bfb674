/**
 * Decide, don't do: compound's whole outcome for one ISO week as a pure function of the files —
 * status flips, the new MEMORY.md, promotions, demotions, suspected conflicts and the reasons the
 * weekly log records (reasons.ts). The runner applies it; `--dry-run` prints it.
 */
import { createHash } from 'node:crypto';
import type { EntryRecord } from '../../entries/store.js';
import { dateOf } from '../../entries/precedence.js';
import { planConflicts, type ConflictPlan } from '../../entries/conflicts.js';
import { statusOf } from '../../entries/lifecycle.js';
import { getField } from '../../entries/model.js';
import { isDoneTask } from '../../entries/task-state.js';
import { jaccard, tokens } from '../../entries/similarity.js';
import { lineCount, readCurrentMemory, type CurrentMemory, type WrittenItem } from '../../entries/memory-md.js';
import { defaultSummary, renderMemory, sectionFor, type MemoryItem } from '../../governance/memory-md-render.js';
import { PROMOTE_MIN, rankEntries, type Ranked } from './rank.js';
import { unconfirmedEntry as unconfirmedAgent } from '../../entries/standing.js';
import type { Week } from './week.js';
import { MAX_LOGGED, reasonLines } from './reasons.js';
import type { LogLine } from '../../governance/weekly-log-file.js';

/** Entries at least this alike (same kind) are shown as one MEMORY.md item citing both ids. */
export const SAME_ITEM_SIMILARITY = 0.8;

export interface CompoundInput {
  week: Week;
  records: EntryRecord[];
  currentMemory: string | undefined;
  summaries: string[];
  memoryLines: number;
  /** LLM summaries by id (already validated); absent: the entry's own title and conclusion. */
  summariesById?: Map<string, { lines: string[]; section?: MemoryItem['section'] }>;
  /** `rules`, or `llm:<model>`: part of the input key, so switching paths rewrites. */
  mode: string;
  /** Detail-level entries (an LLM's judgement, validated) that go to `memory/archive/<topic>.md` instead. */
  archiveTopics?: Map<string, string>;
  /** Entries left out of `records` because they hold bytes that are not UTF-8: id → file. */
  heldBack: Map<string, string>;
}

/**
 * What MEMORY.md is computed from — week, pinned text, the ranked candidates' content, limits, mode —
 * hashed into the generator marker. An LLM answer is not reproducible, so compound skips the call
 * when the key is unchanged: running compound twice changes nothing, with or without a model.
 */
export function inputKey(input: CompoundInput, pinned: string[], ranked: Ranked[]): string {
  const candidates = ranked
    .filter((r) => r.score >= PROMOTE_MIN)
    .map((r) => [
      r.record.id,
      r.record.file,
      r.score,
      r.record.entry.kind,
      r.record.entry.title,
      ...r.record.entry.fields.filter((f) => f.key !== 'source').map((f) => `${f.key}=${f.value}`),
    ]);
  return createHash('sha256')
    .update(JSON.stringify([input.week.label, input.mode, input.memoryLines, input.summaries, pinned, candidates]))
    .digest('hex')
    .slice(0, 16);
}

export interface CompoundPlan {
  memory: string;
  inputKey: string;
  current: CurrentMemory;
  conflicts: ConflictPlan;
  ranked: Ranked[];
  items: MemoryItem[];
  /** Items of the current MEMORY.md kept as written because an entry they cite is held back. */
  kept: WrittenItem[];
  promoted: string[];
  demoted: string[];
  /** Entries moved to `memory/archive/<topic>.md` instead of MEMORY.md: [id, topic]. */
  archived: Array<[string, string]>;
  log: LogLine[];
}

export function planCompound(input: CompoundInput): CompoundPlan {
  const { week } = input;
  const upToWeek = input.records.filter((r) => r.id && dateOf(r) <= week.lastDay);
  const inWeek = (r: EntryRecord) => dateOf(r) >= week.firstDay && dateOf(r) <= week.lastDay;
  const conflicts = planConflicts(upToWeek, inWeek);
  const flipped = new Set(conflicts.flips.map((f) => f.id));
  // An entry judged superseded is never promoted, flipped or not: MEMORY.md must not list two versions of one fact.
  const replaced = new Set([...flipped, ...conflicts.blocked.map((f) => f.id)]);
  // A finished task is history, not hot memory: only open tasks are promoted.
  // An agent's statement no person confirmed (MCP memory_remember) waits for `mem confirm`.
  const unconfirmed = new Set(upToWeek.filter((r) => unconfirmedAgent(r.entry)).map((r) => r.id));
  const live = upToWeek.filter(
    (r) =>
      statusOf(r) === 'active' &&
      !replaced.has(r.id) &&
      !isDoneTask(r.entry) &&
      !r.file.startsWith('memory/archive/') &&
      !unconfirmed.has(r.id),
  );
  const unique = [...new Map(live.map((r) => [r.id, r])).values()];
  const ranked = rankEntries(unique, input.records, week);
  const current = readCurrentMemory(input.currentMemory);
  const whereToLook = [
    `This week's entries: \`memory/${week.firstDay}.md\` … \`memory/${week.lastDay}.md\` (warm); older ones in \`memory/\`, demoted ones in \`memory/archive/\`.`,
    ...(input.summaries.length ? [`Daily wrap-ups: ${input.summaries.map((s) => `\`${s}\``).join(', ')}.`] : []),
    `What changed and why: \`memory/archive/weekly-${week.label}.md\`.`,
  ];
  const items: MemoryItem[] = [];
  const log: LogLine[] = [];
  const archived: Array<[string, string]> = [];
  let overBudget = 0;
  let full = false;
  const key = inputKey(input, current.pinned, ranked);
  const kept: WrittenItem[] = [];
  const render = (list: MemoryItem[], keptList = kept) =>
    renderMemory({
      weekLabel: week.label,
      inputKey: key,
      pinned: current.pinned,
      kept: keptList,
      items: list,
      whereToLook,
    });
  // An item citing an entry held back (not UTF-8) stays as written: its lines are valid, and rebuilding
  // it would write U+FFFD, dropping it would lose the fact for one byte, until the file is converted.
  for (const w of current.items.filter((x) => x.ids.some((id) => input.heldBack.has(id)))) {
    if (lineCount(render([], [...kept, w])) > input.memoryLines)
      log.push({
        what: 'over-budget',
        text: `${w.ids[0]}: its item not kept, MEMORY.md would exceed ${input.memoryLines} lines`,
      });
    else kept.push(w);
  }
  const keptIds = new Set(kept.flatMap((w) => w.ids));
  const tok = new Map(
    ranked.map((r) => [r.record.id, tokens(`${r.record.entry.title} ${getField(r.record.entry, 'conclusion') ?? ''}`)]),
  );
  for (const r of ranked) {
    if (r.score < PROMOTE_MIN || keptIds.has(r.record.id)) continue;
    const topic = input.archiveTopics?.get(r.record.id);
    if (topic) {
      archived.push([r.record.id, topic]);
      log.push({
        what: 'demoted',
        text: `${r.record.id} (${dateOf(r.record)}): detail-level, listed in memory/archive/${topic}.md instead of MEMORY.md`,
      });
      continue;
    }
    const twin = items.find(
      (i) =>
        i.entry.kind === r.record.entry.kind && jaccard(tok.get(i.id)!, tok.get(r.record.id)!) >= SAME_ITEM_SIMILARITY,
    );
    if (twin) {
      twin.alsoIds.push(r.record.id);
      continue;
    }
    const llm = input.summariesById?.get(r.record.id);
    const item: MemoryItem = {
      id: r.record.id,
      alsoIds: [],
      file: r.record.file,
      entry: r.record.entry,
      section: llm?.section ?? sectionFor(r.record.entry),
      summary: llm?.lines ?? defaultSummary(r.record.entry),
    };
    // Every item takes at least one line: once the file is full, nothing more is tried.
    if (full || lineCount(render([...items, item])) > input.memoryLines) {
      if (++overBudget <= MAX_LOGGED)
        log.push({
          what: 'over-budget',
          text: `${r.record.id} (${dateOf(r.record)}, score ${r.score}): not promoted, MEMORY.md would exceed ${input.memoryLines} lines`,
        });
      continue;
    }
    items.push(item);
    full = lineCount(render(items)) >= input.memoryLines;
  }
  if (overBudget > MAX_LOGGED)
    log.push({
      what: 'over-budget',
      text: `… and ${overBudget - MAX_LOGGED} more entries above the threshold that did not fit`,
    });
  const memory = render(items);
  const shown = new Set(items.flatMap((i) => [i.id, ...i.alsoIds]));
  const before = new Set(current.citedIds);
  const promoted = [...shown].filter((id) => !before.has(id)).sort();
  const demoted = [...before].filter((id) => !shown.has(id) && !keptIds.has(id)).sort();
  log.push(
    ...reasonLines({
      current,
      conflicts,
      ranked,
      promoted,
      demoted,
      keptIds,
      heldBack: input.heldBack,
      archiveTopics: input.archiveTopics,
      unconfirmed,
      flipped,
      replaced,
    }),
  );
  return { memory, inputKey: key, current, conflicts, ranked, items, kept, promoted, demoted, archived, log };
}
