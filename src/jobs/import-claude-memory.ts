/**
 * `mem import claude-memory <dir>`: Claude Code's auto memory, `~/.claude/projects/<slug>/memory/` —
 * a `MEMORY.md` index plus one file per memory, front matter `name`, `description` and `type` (user,
 * feedback, project, reference). Each memory file is one item: its body (or, empty, its description),
 * titled by its description. The index's lines that link to a memory file are that file's summary and
 * not adopted twice; its other lines are notes. Kinds: user → Preference (global: it is about the
 * person, in every project), feedback → Rule, or Preference when it states a taste, project →
 * Decision when it says one was made, else Note, reference → Note. The rest are of the project whose
 * folder the slug encodes (`-home-me-shop` → /home/me/shop → `project:shop`). Given ~/.claude/projects
 * itself, every project's memory folder is imported, each with its own scope. Only read, never written.
 */
import fs from 'node:fs';
import path from 'node:path';
import { MemError } from '../core/errors.js';
import { projectScope } from '../entries/scope.js';
import type { Kind } from '../entries/model.js';
import { expandHome } from '../workspace/locate.js';
import { fileDay, PREFERENCE, TASTE, type AdoptItem, type HostImport } from './import-adopt.js';
import { isFolder, markdownUnder, readImportFiles } from './import-files.js';
import { frontMatter } from './import-front-matter.js';
import { importItems, kindFor } from './import-parse.js';

/** The kind a memory of this type becomes, its text deciding between a rule and a taste, a decision and a note. */
export function claudeMemoryKind(type: string | undefined, text: string): Kind {
  switch (type?.trim().toLowerCase()) {
    case 'user':
      return PREFERENCE;
    case 'feedback':
      return TASTE.test(text) ? PREFERENCE : 'Rule';
    case 'project':
      return kindFor('openclaw', text) === 'Decision' ? 'Decision' : 'Note';
    default:
      return 'Note';
  }
}

/** How Claude Code names a project's folder under ~/.claude/projects: its path, every character but a letter or digit as `-`. */
export const slugOf = (dir: string) => dir.replace(/[^a-zA-Z0-9]/g, '-');

/** The project folder a transcript beside the memory names in its `cwd`, when it gives this slug. */
function folderFromTranscripts(slugDir: string, slug: string): string | undefined {
  let names: string[] = [];
  try {
    names = fs
      .readdirSync(slugDir)
      .filter((n) => n.endsWith('.jsonl'))
      .sort()
      .slice(0, 20);
  } catch {
    return undefined;
  }
  for (const n of names) {
    let head = '';
    try {
      const fd = fs.openSync(path.join(slugDir, n), 'r');
      const buf = Buffer.alloc(256 * 1024);
      head = buf.subarray(0, fs.readSync(fd, buf, 0, buf.length, 0)).toString('utf8');
      fs.closeSync(fd);
    } catch {
      continue;
    }
    for (const m of head.matchAll(/"cwd"\s*:\s*("(?:[^"\\]|\\.)*")/g)) {
      const cwd = JSON.parse(m[1]!) as string;
      if (slugOf(cwd) === slug) return cwd;
    }
  }
  return undefined;
}

/** A folder on this machine whose slug this is, found by walking down from the root along the slug. */
function folderOnDisk(slug: string, dir = path.parse(process.cwd()).root, depth = 0): string | undefined {
  if (depth > 12) return undefined;
  let names: string[] = [];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return undefined;
  }
  for (const n of names) {
    const full = path.join(dir, n);
    const s = slugOf(full);
    if (s !== slug && !slug.startsWith(s + '-')) continue;
    if (!isFolder(full)) continue;
    if (s === slug) return full;
    const deeper = folderOnDisk(slug, full, depth + 1);
    if (deeper) return deeper;
  }
  return undefined;
}

/** The scope of the project a memory folder belongs to, and a warning when its folder could not be found. */
function projectOf(memoryDir: string): { scope: string; warning?: string } {
  const slugDir = path.basename(memoryDir) === 'memory' ? path.dirname(memoryDir) : memoryDir;
  const slug = path.basename(slugDir);
  const folder = folderFromTranscripts(slugDir, slug) ?? folderOnDisk(slug);
  if (folder) return { scope: projectScope(path.basename(folder)) };
  const guess = slug.split('-').filter(Boolean).pop() ?? slug;
  return {
    scope: projectScope(guess),
    warning: `no folder on this machine is named by ${slug} (and no transcript beside it names one): scope ${projectScope(guess)}; pass --scope to choose`,
  };
}

/** The memory folders `given` names: itself, its `memory/`, or (~/.claude/projects) every project's `memory/` under it. */
function memoryFolders(abs: string): string[] {
  if (isFolder(path.join(abs, 'memory'))) return [path.join(abs, 'memory')];
  if (fs.readdirSync(abs).some((n) => n.endsWith('.md'))) return [abs];
  return fs
    .readdirSync(abs)
    .sort()
    .map((n) => path.join(abs, n, 'memory'))
    .filter(isFolder);
}

export function claudeMemoryItems(given: string, zone: string, scope?: string): HostImport {
  const abs = path.resolve(expandHome(given));
  if (!isFolder(abs))
    throw new MemError('NOT_FOUND', `${given}: no such folder (give a ~/.claude/projects/<project>/memory folder)`);
  const out: HostImport = { files: [], items: [], warnings: [] };
  for (const dir of memoryFolders(abs)) {
    const one = projectItems(dir, zone, scope);
    out.files.push(...one.files);
    out.items.push(...one.items);
    out.warnings.push(...one.warnings);
  }
  if (!out.files.length)
    throw new MemError('NOT_FOUND', `${given}: no memory files (MEMORY.md and one .md file per memory) to import`);
  return out;
}

/** One project's memory folder. */
function projectItems(dir: string, zone: string, scope: string | undefined): HostImport {
  const warnings: string[] = [];
  const paths = markdownUnder(dir, warnings).sort();
  if (!paths.length) return { files: [], items: [], warnings };
  const project = scope ? { scope } : projectOf(dir);
  if (project.warning) warnings.push(project.warning);
  const names = new Set(paths.map((p) => path.basename(p)));
  const items: AdoptItem[] = [];
  for (const f of readImportFiles(paths, true, warnings)) {
    const fm = frontMatter(f.text);
    const day = fileDay(f.path, fm.fields, zone);
    const parts = importItems(f.text);
    if (path.basename(f.path) === 'MEMORY.md') {
      // An index line linking to a memory file is that memory's summary: the file itself is adopted.
      for (const p of parts.filter(
        (i) => ![...i.text.matchAll(/\]\(([^)\s]+\.md)\)/g)].some((m) => names.has(path.basename(m[1]!))),
      )) {
        items.push({
          file: f.path,
          text: p.text,
          kind: 'Note',
          scope: project.scope,
          day,
          startLine: p.startLine,
          endLine: p.endLine,
          heading: p.heading,
        });
      }
      continue;
    }
    const description = fm.fields.description?.trim();
    const body =
      parts
        .map((p) => p.text)
        .join(' ')
        .trim() || description;
    if (!body) continue;
    const type = fm.fields.type ?? fm.fields['metadata.type'];
    const kind = claudeMemoryKind(type, `${description ?? ''} ${body}`);
    const first = parts[0]?.startLine ?? 1;
    const last = parts[parts.length - 1]?.endLine ?? first;
    items.push({
      file: f.path,
      text: body,
      ...(description ? { title: description } : {}),
      kind,
      scope: type?.trim().toLowerCase() === 'user' ? 'global' : project.scope,
      day,
      startLine: first,
      endLine: last,
      heading: fm.fields.name?.trim() || null,
    });
  }
  return { files: paths, items, warnings };
}
