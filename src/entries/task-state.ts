/**
 * A Task's `state` (DESIGN §5): todo, doing, done or blocked, a field apart from the lifecycle
 * `status`. A state moves by a new entry with the same key (the newest wins, as for any key), never
 * by editing the old one; an open task is the entry in force of its key whose state is not done.
 */
import { getField, type Entry } from './model.js';

export const TASK_STATES = ['todo', 'doing', 'done', 'blocked'] as const;
export type TaskState = (typeof TASK_STATES)[number];

export function isTaskState(value: string): value is TaskState {
  return (TASK_STATES as readonly string[]).includes(value);
}

/** The entry's task state as written (lower case); a Task without one is `todo`. */
export function taskStateOf(entry: Entry): string | undefined {
  const s = getField(entry, 'state')?.trim().toLowerCase();
  if (s) return s;
  return entry.kind === 'Task' ? 'todo' : undefined;
}

/** A Task whose state says it is finished: no longer open, so no context pack or MEMORY.md lists it. */
export function isDoneTask(entry: Entry): boolean {
  return entry.kind === 'Task' && taskStateOf(entry) === 'done';
}
