/**
 * `mem lint`'s checks of the typed fields (DESIGN §5): `key` and `scope` as memfold writes them,
 * a Task's `state`, `retracts` naming an entry that exists, and `merge_conflict`, which a merge
 * leaves when both machines changed one field and which a person must settle. Pure.
 */
import { getField, idList, SCOPE, TYPED_KEY } from './model.js';
import type { EntryRecord } from './store.js';
import { TASK_STATES } from './task-state.js';

export function lifecycleProblems(r: EntryRecord, exists: (id: string) => boolean): string[] {
  const e = r.entry;
  const out: string[] = [];
  const key = getField(e, 'key')?.trim();
  if (key && !TYPED_KEY.test(key))
    out.push(
      `key "${key}" is not a typed key such as pref:tools:package-manager, decision:<project>:<topic> or task:<project>:<name>`,
    );
  const scope = getField(e, 'scope')?.trim();
  if (scope && !SCOPE.test(scope)) out.push(`scope "${scope}" is not global, project:<name> or lang:<name>`);
  const state = getField(e, 'state')?.trim();
  if (state !== undefined) {
    if (!(TASK_STATES as readonly string[]).includes(state.toLowerCase()))
      out.push(`state "${state}" is not one of ${TASK_STATES.join(', ')}`);
    else if (e.kind !== 'Task')
      out.push(`state "${state}" on a ${e.kind}: only a Task has a state (status is the lifecycle field)`);
  }
  for (const target of idList(getField(e, 'retracts'))) {
    if (target === r.id) out.push('retracts itself');
    else if (!exists(target)) out.push(`retracts ${target}, which no entry has as id`);
  }
  const conflict = e.fields.find((f) => f.key === 'merge_conflict');
  if (conflict)
    out.push(
      `merge_conflict: two machines changed this entry differently (${conflict.value || 'see the nested values'}); keep one value, then delete the merge_conflict line`,
    );
  return out;
}
