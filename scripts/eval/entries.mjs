/**
 * Reads what microsync wrote, black-box: every `## Kind: title` block with `- field: value` lines in
 * any Markdown file under memory/ (nested `  - key: value` lines under `source:`). It depends on the
 * entry format of DESIGN §5 only, not on src/, so the evaluation keeps working whatever changes inside.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const HEADING = /^## ([A-Za-z][\w-]*): ?(.*)$/;
const FIELD = /^- ([A-Za-z_][\w-]*):[ \t]?(.*)$/;
const CHILD = /^[ \t]+- ([A-Za-z_][\w-]*):[ \t]?(.*)$/;

/** Every .md file under `dir`, as [relative path, text]. */
export function markdownFiles(dir, base = dir) {
  const out = [];
  let names;
  try {
    names = readdirSync(dir, { withFileTypes: true });
  } catch {
    return out;
  }
  for (const d of names) {
    const full = join(dir, d.name);
    if (d.isDirectory()) out.push(...markdownFiles(full, base));
    else if (d.name.endsWith('.md')) out.push([full.slice(base.length + 1), readFileSync(full, 'utf8')]);
  }
  return out;
}

/** Entries of one file: {kind, title, fields: {k: v}, source: {k: v}, file}. Only blocks with an id. */
export function parseEntries(text, file = '') {
  const entries = [];
  let cur = null;
  let inSource = false;
  let fence = false;
  for (const line of text.split(/\r?\n/)) {
    if (/^\s*(```|~~~)/.test(line)) fence = !fence;
    if (fence) continue;
    const h = HEADING.exec(line);
    if (h) {
      cur = { kind: h[1], title: h[2].trim(), fields: {}, source: {}, file };
      entries.push(cur);
      inSource = false;
      continue;
    }
    if (!cur) continue;
    if (/^#{1,2} /.test(line)) {
      cur = null;
      continue;
    }
    const f = FIELD.exec(line);
    if (f) {
      inSource = f[1] === 'source';
      if (!(f[1] in cur.fields)) cur.fields[f[1]] = f[2].trim();
      continue;
    }
    const c = CHILD.exec(line);
    if (c && inSource) cur.source[c[1]] = c[2].trim();
  }
  return entries.filter((e) => e.fields.id);
}

/** Entries of every Markdown file under memory/, and the whole text (for must-not-land scans). */
export function readMemory(memoryDir) {
  const files = markdownFiles(memoryDir).sort(([a], [b]) => a.localeCompare(b));
  // An entry copied into a second file (an index, a digest) is still one entry: the first by path counts.
  const seen = new Set();
  const entries = files
    .flatMap(([rel, text]) => parseEntries(text, rel))
    .filter((e) => !seen.has(e.fields.id) && seen.add(e.fields.id));
  return {
    entries,
    text: files.map(([, text]) => text).join('\n'),
  };
}

/** The ids an id-list field names (`supersedes`, `retracts`): separated by commas or spaces. */
export const idList = (value) => (value ?? '').split(/[,\s]+/).filter(Boolean);
