/**
 * `mem remember`: one entry from a person, now (origin manual). Redacted like everything else, and
 * idempotent: the same text on the same day is recorded once, however often it is said.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { DateTime } from 'luxon';
import type { LoadedConfig } from '../config/load.js';
import { MemError } from '../core/errors.js';
import { toIsoUtc } from '../core/time.js';
import { appendEntries } from '../entries/daily.js';
import { checkLabels, type LabelName } from '../entries/labels.js';
import { KIND_LIST, kindNamed } from '../entries/kind-names.js';
import { getField, type Kind, type Origin } from '../entries/model.js';
import { isTaskState, TASK_STATES, type TaskState } from '../entries/task-state.js';
import { loadEntries, recordsOf } from '../entries/store.js';
import { stripControl } from '../extract/clean.js';
import { redactSecrets } from '../secrets/secrets.js';
import { hasWords, normalise, titleOf } from '../extract/sentences.js';
import type { Candidate } from '../extract/types.js';
import { dailyFile } from '../workspace/layout.js';
import { defaultLockOptions } from '../write/defaults.js';
import { WorkspaceWriter } from '../write/writer.js';
import { labelCandidate } from './microsync/label.js';
import { planEntries } from './microsync/plan.js';
import { type Known } from './microsync/scope-link.js';
import { scopeOfFolder } from '../scope/scope-of.js';

export interface RememberOptions {
  workspace: string;
  loaded: LoadedConfig;
  now: DateTime;
  text: string;
  kind?: string;
  title?: string;
  key?: string;
  scope?: string;
  /** The folder it is said in: without `scope`, the entry takes this folder's (workspace/scope-of.ts). */
  cwd?: string;
  /** A Task's state (todo by default). */
  state?: string;
  dryRun?: boolean;
  /** Who states it: `manual` (default, `mem remember`) or `agent` (the MCP tool memory_remember). */
  origin?: Origin;
  /** For a non-manual origin: the source the entry cites (session id and path). */
  source?: { sessionId: string; sessionPath: string };
  /** How errors name a bad key or scope: the CLI's flag (default) or the MCP tool's parameter. */
  labelName?: LabelName;
}

export interface RememberResult {
  id: string;
  file: string;
  added: boolean;
  redacted: number;
}

export function parseKind(value: string | undefined): Kind {
  const kind = kindNamed(value ?? 'note');
  if (!kind) throw new MemError('USAGE', `--kind "${value}" is not one of ${KIND_LIST}`);
  return kind;
}

/** `--state` is a Task's (todo, doing, done, blocked); any other kind has none. */
export function parseState(kind: Kind, value: string | undefined): TaskState | undefined {
  if (value === undefined) return kind === 'Task' ? 'todo' : undefined;
  if (kind !== 'Task')
    throw new MemError('USAGE', `--state is for --kind task only (got --kind ${kind.toLowerCase()})`);
  const s = value.trim().toLowerCase();
  if (!isTaskState(s)) throw new MemError('USAGE', `--state "${value}" is not one of ${TASK_STATES.join(', ')}`);
  return s;
}

export async function runRemember(opts: RememberOptions): Promise<RememberResult> {
  const kind = parseKind(opts.kind);
  const state = parseState(kind, opts.state);
  checkLabels(opts, opts.labelName);
  const red = redactSecrets(stripControl(opts.text).trim());
  const text = red.text;
  if (!text) throw new MemError('USAGE', 'nothing to remember: the text is empty');
  if (!hasWords(text))
    throw new MemError(
      'USAGE',
      'nothing to remember: the text has no letters or digits (only punctuation, symbols or emoji)',
    );
  const given = opts.title === undefined ? '' : stripControl(opts.title).trim();
  if (given && !hasWords(given))
    throw new MemError(
      'USAGE',
      `the title "${given}" has no letters or digits; give a title with words, or none to use the first sentence`,
    );
  const title = given ? redactSecrets(given).text : titleOf(text);
  const day = opts.now.toISODate()!;
  // Said in the memory workspace itself (its own repository, usually) names no project: unscoped, as before scopes.
  const inWorkspace =
    opts.cwd !== undefined && !path.relative(path.resolve(opts.workspace), path.resolve(opts.cwd)).startsWith('..');
  const here =
    opts.scope || !opts.cwd || inWorkspace ? undefined : scopeOfFolder(opts.cwd, opts.loaded.config.scopes).scope;
  // The scope given, else the folder's (global for a user-level topic or "in every project"); a key from the topic lexicon when none is given.
  const candidate = labelCandidate<Candidate & { day: string; sessionPathStored: string }>(
    {
      kind,
      title,
      conclusion: text,
      confidence: 1,
      origin: opts.origin ?? 'manual',
      revises: false,
      ...(opts.key ? { key: opts.key } : {}),
      ...(opts.scope ? { scope: opts.scope } : {}),
      ...(state ? { state } : {}),
      sessionId: opts.source?.sessionId ?? '',
      sessionPath: opts.source?.sessionPath ?? '',
      sessionPathStored: opts.source?.sessionPath ?? '',
      firstTurn: 0,
      lastTurn: 0,
      timestamp: toIsoUtc(opts.now),
      day,
    },
    here,
  );
  const file = dailyFile(day);
  const all = await loadEntries(opts.workspace);
  const others: Known[] = all.filter((r) => r.file !== file).map((r) => ({ id: r.id, entry: r.entry }));
  // The plan is made again under the write lock on the day's current text, so concurrent runs
  // (different texts under one title, or one text under different titles) neither collide nor double.
  const decide = (cur: string | undefined) => {
    const known = [...others, ...recordsOf(file, cur ?? '').map((r) => ({ id: r.id, entry: r.entry }))];
    const plan = planEntries({ candidates: [candidate], existing: known });
    const planned = plan.entries[0];
    if (planned) return { planned };
    // Name the entry that already says it, not the id this text would have had.
    const same = known.find(
      (k) => k.entry.kind === kind && normalise(getField(k.entry, 'conclusion') ?? '') === normalise(text),
    );
    return { existingId: same?.id ?? plan.skipped[0]!.id };
  };
  const first = decide(await readCurrent(opts.workspace, file));
  if (!first.planned) return { id: first.existingId!, file, added: false, redacted: red.count };
  if (opts.dryRun) return { id: first.planned.id, file, added: true, redacted: red.count };
  const writer = new WorkspaceWriter(opts.workspace, 'remember', defaultLockOptions(opts.loaded.config));
  let result: RememberResult = { id: first.planned.id, file, added: false, redacted: red.count };
  await writer.append(file, (cur) => {
    const now = decide(cur);
    if (!now.planned) {
      result = { ...result, id: now.existingId! };
      return undefined;
    }
    const r = appendEntries(cur, day, [now.planned.entry]);
    result = { ...result, id: r.added[0] ?? r.skipped[0] ?? now.planned.id, added: r.added.length > 0 };
    return r.added.length ? r.text : undefined;
  });
  return result;
}

async function readCurrent(workspace: string, file: string): Promise<string | undefined> {
  return fs.promises.readFile(path.join(workspace, file), 'utf8').catch(() => undefined);
}
