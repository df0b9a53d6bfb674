/** Where the archive tier lives in `.mem/` (apart from store.ts so a presence check loads nothing else). */
export const ARCHIVE_DIR = '.mem/archive';
export const STATE_FILE = `${ARCHIVE_DIR}/state.json`;
