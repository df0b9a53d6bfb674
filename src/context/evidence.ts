/**
 * `mem context --evidence`: for layer-2 (query) items whose confidence is below EVIDENCE_BELOW, at
 * most two short excerpts of the cited transcript turns, redacted as on write (archive/source.ts).
 * Read from the transcript itself, never from the archive index; fitPack adds them only while the
 * pack stays inside its budget. An entry whose transcript is gone or changed simply gets none.
 */
import type { LoadedConfig } from '../config/load.js';
import type { EntryRecord } from '../entries/store.js';
import { getField, getSource } from '../entries/model.js';

/** Items at or above this confidence are trusted as they are. */
export const EVIDENCE_BELOW = 0.8;
export const EVIDENCE_MAX = 2;
const EXCERPT_CHARS = 200;

export async function evidenceFor(
  records: EntryRecord[],
  workspace: string,
  loaded: LoadedConfig,
  warnings: string[],
): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  const low = records.filter(
    (r) => (Number(getField(r.entry, 'confidence') ?? 1) || 0) < EVIDENCE_BELOW && getSource(r.entry)?.session_path,
  );
  if (!low.length) return out;
  const { readSource } = await import('../archive/source.js');
  const ctx = { workspace, loaded };
  for (const r of low) {
    try {
      const s = await readSource(r, ctx, 0);
      if (!s.statementFound) continue;
      const cited = s.turns.filter((t) => t.cited && (t.role === 'user' || t.role === 'assistant'));
      out.set(
        r.id,
        cited.slice(0, EVIDENCE_MAX).map((t) => {
          const text = t.text.replace(/\s+/g, ' ').trim();
          return `[${t.index}] ${t.role}${t.timestamp ? ` · ${t.timestamp}` : ''}: ${text.length > EXCERPT_CHARS ? `${text.slice(0, EXCERPT_CHARS)} …` : text}`;
        }),
      );
    } catch (err) {
      warnings.push(`no evidence for ${r.id}: ${(err as Error).message}`);
    }
  }
  return out;
}
