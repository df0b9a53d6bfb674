/** Human output of `mem search` and `mem index` (pure: strings in, strings out). */
import { count } from '../../core/count.js';
import type { TierCounters } from '../index/indexer.js';
import type { IndexResult } from './update.js';
import type { SearchResponse } from '../query/outcome.js';
import type { EmbeddingCounters } from '../embed/embed-index.js';

export interface Paint {
  bold(s: string): string;
  dim(s: string): string;
  cyan(s: string): string;
  yellow(s: string): string;
}

/**
 * Wraps `words` found in `text` (case-insensitive) with `mark`, for terminal output. The words are
 * the search's (assemble.ts markWords, kept in its outcome), so printing needs no Chinese tables.
 */
export function highlight(text: string, words: readonly string[], mark: (s: string) => string): string {
  if (!words.length) return text;
  const re = new RegExp(words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'giu');
  return text.replace(re, (m) => mark(m));
}

/** `marks`: the words to mark in the snippets (SearchOutcome.marks). */
export function formatResults(res: SearchResponse, paint: Paint, marks: readonly string[] = []): string {
  if (!res.results.length)
    return `no results for "${res.query.length > 80 ? res.query.slice(0, 79) + '…' : res.query}"`;
  const out: string[] = [];
  res.results.forEach((r, i) => {
    const where = `${r.path}:${r.startLine}-${r.endLine}`;
    const head = [
      paint.bold(`${i + 1}.`),
      paint.cyan(where),
      r.heading ?? '',
      r.date ? paint.dim(r.date) : '',
      r.tier === 'cold' ? paint.dim('[cold]') : '',
    ]
      .filter(Boolean)
      .join('  ');
    out.push(head);
    if (r.snippet) out.push(`   ${highlight(r.snippet, marks, paint.yellow)}`);
    const meta: string[] = [];
    if (r.id) meta.push(r.id);
    if (r.status) meta.push(r.status === 'superseded' && r.supersededBy ? `superseded by ${r.supersededBy}` : r.status);
    if (r.source?.session_id)
      meta.push(`session ${r.source.session_id}${r.source.message_range ? ` msgs ${r.source.message_range}` : ''}`);
    if (meta.length) out.push(paint.dim(`   ${meta.join(' · ')}`));
  });
  return out.join('\n');
}

function sum(tiers: Record<string, TierCounters>, key: keyof TierCounters): number {
  return Object.values(tiers).reduce((n, t) => n + (Number(t[key]) || 0), 0);
}

/** `checked`: what the embedding model check found, when this run made it (model-check.ts describeCheck). */
export function formatIndexSummary(
  r: IndexResult,
  emb: EmbeddingCounters | null,
  seconds: number,
  checked?: string,
): string {
  const t = r.tiers;
  const parts = [
    `${sum(t, 'files')} files scanned, ${sum(t, 'changed')} changed, ${sum(t, 'added')} added, ${sum(t, 'removed')} removed`,
    `chunks +${sum(t, 'chunksAdded')} -${sum(t, 'chunksRemoved')}${sum(t, 'chunksKept') ? `, ${sum(t, 'chunksKept')} kept` : ''} (${sum(t, 'chunks')} in the index)`,
    emb
      ? `embeddings ${emb.computed} computed, ${emb.cached} from cache${emb.failed ? ` (failed: ${emb.failed})` : ''}${checked ? `; model check: ${checked}` : ''}`
      : 'embeddings off (lexical only)',
    `${seconds.toFixed(2)} s`,
  ];
  const rebuilt = Object.entries(t)
    .filter(([, c]) => c.rebuilt && c.rebuilt !== 'missing')
    .map(([k]) => k);
  const compacted = Object.entries(t)
    .filter(([, c]) => c.compacted)
    .map(([k]) => k);
  if (rebuilt.length) parts.push(`rebuilt: ${rebuilt.join(', ')}`);
  if (compacted.length) parts.push(`compacted: ${compacted.join(', ')}`);
  if (sum(t, 'merged'))
    parts.push(`small segments merged (${count(sum(t, 'merged'), 'unchanged file')} indexed again)`);
  return `indexed: ${parts.join('; ')}`;
}
