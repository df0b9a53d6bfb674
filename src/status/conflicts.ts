/** `mem status`'s conflicts: computed in entries/ (active-conflicts.ts), where the entry table's refresh computes them too. */
export { findConflicts, SUSPECT_SIMILARITY, type Conflict } from '../entries/active-conflicts.js';
