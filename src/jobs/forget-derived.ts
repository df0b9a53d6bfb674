/**
 * What hard forget purges in `.mem/` besides the index (which is rebuilt): derived files naming a
 * removed id or quoting a removed conclusion, and the archive tier's transcript windows of the
 * removed entries. `.mem/` is rebuildable (DESIGN §9.1), so a file is dropped unless it is a line log.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { EntryRecord } from '../entries/store.js';
import type { LockOptions } from '../write/locks.js';
import type { WorkspaceWriter } from '../write/writer.js';

/** `.mem/` files (outside the index, which is rebuilt) that name an id or quote a removed conclusion. */
export async function derivedNaming(workspace: string, names: (line: string) => unknown): Promise<string[]> {
  const root = path.join(workspace, '.mem');
  const files = await fs.promises.readdir(root, { recursive: true }).catch(() => [] as string[]);
  const out: string[] = [];
  for (const n of files.map((x) => x.split(path.sep).join('/')).sort()) {
    if (n.startsWith('index/') || n.startsWith('embeddings/') || n.startsWith('archive/')) continue;
    const text = await fs.promises.readFile(path.join(root, n), 'utf8').catch(() => undefined);
    if (text !== undefined && text.split('\n').some((l) => names(l))) out.push(`.mem/${n}`);
  }
  return out;
}

/**
 * A line log keeps every line not about the removed entries: a use-log line (`ids: [...]`) loses just
 * those ids, and goes only when none is left, so another entry's reads still count. Any other
 * derived file is deleted (DESIGN §9.1: rebuildable).
 */
export async function purgeDerived(
  writer: WorkspaceWriter,
  files: string[],
  ids: string[],
  names: (line: string) => unknown,
): Promise<void> {
  const purgeLine = (line: string): string | undefined => {
    const event = parseJsonLine(line);
    if (event && Array.isArray(event.ids)) {
      const left = (event.ids as unknown[]).filter((x) => !(typeof x === 'string' && ids.includes(x)));
      if (!left.length) return undefined;
      const next = left.length === event.ids.length ? line : JSON.stringify({ ...event, ids: left });
      return names(next) ? undefined : next;
    }
    return names(line) ? undefined : line;
  };
  for (const rel of files) {
    if (rel.endsWith('.jsonl'))
      await writer.update(rel, (cur) =>
        cur
          ?.split('\n')
          .flatMap((l) => purgeLine(l) ?? [])
          .join('\n'),
      );
    else await fs.promises.rm(writer.resolve(rel), { force: true });
  }
}

function parseJsonLine(line: string): Record<string, unknown> | undefined {
  try {
    const v: unknown = JSON.parse(line);
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** The archive tier's windows citing the entries' turns or quoting them (see archive/purge.ts). */
export async function purgeArchiveOf(
  workspace: string,
  writer: WorkspaceWriter,
  records: EntryRecord[],
  dryRun: boolean,
  locks: LockOptions,
): Promise<{ docs: number; segments: number } | null> {
  if (!fs.existsSync(path.join(workspace, '.mem', 'archive', 'state.json'))) return null;
  const { purgeArchive, targetsOf } = await import('../archive/purge.js');
  return purgeArchive(workspace, writer, targetsOf(workspace, records), locks, dryRun);
}
