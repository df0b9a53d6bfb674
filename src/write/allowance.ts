/**
 * Who may write what (DESIGN §2), as data. The writer consults this table before every write, so a
 * job that computes a wrong path — from a bug, an LLM answer or a hostile title — is refused instead
 * of touching a file it does not own.
 */

export const JOBS = [
  'init',
  'microsync',
  'remember',
  'wrapup',
  'compound',
  'forget',
  'restore',
  'confirm',
  'import',
  'status-fix',
  'index',
  'reader',
  'merge-finish',
] as const;
export type Job = (typeof JOBS)[number];

/** A daily file, memory/YYYY-MM-DD.md. */
export const DAILY_FILE = /^memory\/\d{4}-\d{2}-\d{2}\.md$/;
/** Split-outs of oversized daily files (`mem status --fix`): daily entries, moved as they were. */
export const RECENT_FILE = /^memory\/recent\/[^/]+\.md$/;
const DERIVED = /^\.mem\//;
/** The committed hard-forget marks (jobs/forgotten.ts): forget adds to them, microsync migrates `.mem/`'s into them. */
const FORGOTTEN_MARKS = /^memory\/\.forgotten$/;
const ANY_MEMORY_MD = /^(MEMORY\.md|memory\/(?!\.locks\/).+\.md|second-brain\/.+\.md)$/;

const RULES: Record<Job, RegExp[]> = {
  init: [
    /^(MEMORY\.md|mem\.config\.json|mem\.local\.json|\.gitignore|\.gitattributes)$/,
    /^memory\/(recent|projects|archive)\/\.gitkeep$/,
    /^second-brain\/(summaries|research|devlogs|specs)\/\.gitkeep$/,
  ],
  microsync: [DAILY_FILE, DERIVED, FORGOTTEN_MARKS],
  remember: [DAILY_FILE, DERIVED],
  wrapup: [/^second-brain\/summaries\/[^/]+\.md$/, DERIVED],
  compound: [/^MEMORY\.md$/, /^memory\/archive\/.+\.md$/, DAILY_FILE, RECENT_FILE, DERIVED],
  forget: [ANY_MEMORY_MD, DERIVED, FORGOTTEN_MARKS],
  restore: [ANY_MEMORY_MD, DERIVED],
  // A `confirmed:` line in the entry, wherever in memory/ it is, and the weekly log's line.
  confirm: [/^memory\/(?!\.locks\/).+\.md$/, DERIVED],
  import: [DAILY_FILE, DERIVED],
  'status-fix': [RECENT_FILE, DAILY_FILE, /^second-brain\/summaries\/[^/]+\.md$/],
  index: [DERIVED],
  reader: [/^\.mem\/usage\.jsonl$/],
  // After a merge: citations of an id the merge renamed, in the citing files it took whole from one side.
  'merge-finish': [/^MEMORY\.md$/, /^memory\/archive\/weekly-[^/]+\.md$/, /^second-brain\/summaries\/[^/]+\.md$/],
};

/** `rel` is a workspace-relative path with `/` separators, already checked not to escape. */
export function mayWrite(job: Job, rel: string): boolean {
  return RULES[job].some((re) => re.test(rel));
}
