/**
 * The entry: memfold's unit of memory (DESIGN §5). An entry is an ordered list of fields so that
 * hand-written fields, unknown keys and their order survive a parse → serialise round trip.
 */

export const KINDS = ['Decision', 'Rule', 'Architecture', 'Note', 'Preference', 'Goal', 'Task', 'Lesson'] as const;
export type Kind = (typeof KINDS)[number];

export const ID_PREFIX: Record<Kind, string> = {
  Decision: 'DECISION',
  Rule: 'RULE',
  Architecture: 'ARCH',
  Note: 'NOTE',
  Preference: 'PREF',
  Goal: 'GOAL',
  Task: 'TASK',
  Lesson: 'LESSON',
};

export const STATUSES = ['active', 'superseded', 'archived', 'retracted'] as const;
export type Status = (typeof STATUSES)[number];

export const ORIGINS = ['user', 'agent', 'manual'] as const;
export type Origin = (typeof ORIGINS)[number];

export interface Field {
  key: string;
  value: string;
  /** Nested list under the field (as for `source:`). */
  children?: Field[];
}

export interface Entry {
  /** Kind as written in the heading; one of KINDS for entries memfold writes. */
  kind: string;
  title: string;
  fields: Field[];
}

export interface EntrySource {
  session_id: string;
  session_path: string;
  message_range: string;
}

export function getField(entry: Entry, key: string): string | undefined {
  return entry.fields.find((f) => f.key === key)?.value;
}

/** The ids of an id-list field's value (`supersedes`, `refs`): separated by commas or spaces. */
export function idList(value: string | undefined): string[] {
  return (value ?? '').split(/[,\s]+/).filter(Boolean);
}

/** The ids an entry's `supersedes` names. */
export function supersedesOf(entry: Entry): string[] {
  return idList(getField(entry, 'supersedes'));
}

export function getSource(entry: Entry): EntrySource | undefined {
  const src = entry.fields.find((f) => f.key === 'source');
  if (!src?.children) return undefined;
  const get = (k: string) => src.children?.find((c) => c.key === k)?.value ?? '';
  return { session_id: get('session_id'), session_path: get('session_path'), message_range: get('message_range') };
}

/** Returns a copy with the field set (replaced in place, or appended at the end). */
export function withField(entry: Entry, key: string, value: string): Entry {
  const at = entry.fields.findIndex((f) => f.key === key);
  const fields = entry.fields.slice();
  if (at === -1) fields.push({ key, value });
  else fields[at] = { key, value };
  return { ...entry, fields };
}

export function isKind(value: string): value is Kind {
  return (KINDS as readonly string[]).includes(value);
}

/** A stable typed key (DESIGN §5): `pref:writing:tone`, `decision:<project>:<topic>`, `task:<project>:<id>`. */
export const TYPED_KEY = /^[a-z][a-z0-9_-]*(?::[^\s:/\\\p{Cc}]+)+$/iu;
/** A scope (DESIGN §5): `global`, `project:<name>` or `lang:<name>`. */
export const SCOPE = /^(?:global|project:[^\s/\\\p{Cc}]+|lang:[^\s/\\\p{Cc}]+)$/u;
