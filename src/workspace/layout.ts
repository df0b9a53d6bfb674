/** Paths of the workspace layout (DESIGN §1), in one place. */

export const MEMORY_FILE = 'MEMORY.md';
export const MEMORY_DIR = 'memory';
export const DERIVED_DIR = '.mem';
export const CURSORS_FILE = '.mem/cursors.json';
/** Salted one-way marks of hard-forgotten entries, committed, so no run on any machine learns them again (jobs/forgotten.ts). */
export const FORGOTTEN_FILE = 'memory/.forgotten';
/** Where older versions kept the marks, per machine; migrated into FORGOTTEN_FILE. */
export const LEGACY_FORGOTTEN_FILE = '.mem/forgotten.json';

export const LAYOUT_DIRS = [
  'memory/recent',
  'memory/projects',
  'memory/archive',
  'second-brain/summaries',
  'second-brain/research',
  'second-brain/devlogs',
  'second-brain/specs',
] as const;

export function dailyFile(day: string): string {
  return `${MEMORY_DIR}/${day}.md`;
}

export const DAILY_NAME = /^\d{4}-\d{2}-\d{2}\.md$/;
