/** The transcripts layer's public API: read any supported transcript as turns, and find the files. */
export { openTranscript } from './read.js';
export { listTranscriptFiles } from './discover.js';
export { SOURCE_KINDS } from './types.js';
export type { ReadOptions, ReadStats, Role, SourceKind, TranscriptStream, Turn } from './types.js';
