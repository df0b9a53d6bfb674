/** The transcript formats a configured source may name (DESIGN §4); the readers in transcripts/ implement them. */
export const SOURCE_KINDS = ['openclaw', 'claude-code', 'codex', 'jsonl', 'markdown'] as const;
export type SourceKind = (typeof SOURCE_KINDS)[number];
