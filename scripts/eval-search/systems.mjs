// systems.mjs — the two things measured, each turning a query into a ranked list of shown text:
// memfold (the built CLI's `mem search --json`, as a user runs it) and the plain BM25 baseline
// over the same files. Both lists come back in score.mjs's shape ({text, shown}).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { answers, linesShown, turnsShown } from './score.mjs';
import { bm25Index, fileParagraphs, mergeParagraphs } from './bm25.mjs';

/** The environment every CLI run gets: no resident server, a fixed "now" (recency), no colours. */
export const CLI_ENV = {
  ...process.env,
  MEM_SEARCH_SERVER: 'off',
  MEM_NOW: '2026-06-27T12:00:00Z',
  NO_COLOR: '1',
  MEM_COMPILE_CACHE: 'off',
};

/** Runs the built CLI in `cwd`; resolves {code, stdout, stderr}. */
export function runCli(mem, argv, cwd) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [mem, ...argv], { cwd, env: CLI_ENV });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const FLAG = { search: [], deep: ['--deep'], archive: ['--archive'] };

/** memfold's top `k` for one query, through `mem search --json` in the workspace `ws`. */
export async function memfoldHits(mem, ws, q, k, lexicalOnly) {
  const argv = [
    'search',
    q.query,
    '--json',
    '-k',
    String(k),
    ...FLAG[q.command],
    ...(lexicalOnly && q.command !== 'archive' ? ['--lexical-only'] : []),
  ];
  const r = await runCli(mem, argv, ws);
  if (r.code !== 0) throw new Error(`mem ${argv.join(' ')} in ${ws}: exit ${r.code}: ${r.stderr.trim()}`);
  const results = JSON.parse(r.stdout).results;
  return results.map((hit) => {
    if (q.command === 'archive') {
      const rel = path.relative(ws, hit.sessionPath.replace(/^~/, process.env.HOME ?? '~'));
      return { text: hit.snippet, shown: turnsShown(rel, hit.snippet) };
    }
    const file = readOnce(path.resolve(ws, hit.path));
    return { text: hit.text, shown: linesShown(hit.path, hit.text, file, hit.startLine) };
  });
}

const fileCache = new Map();
function readOnce(abs) {
  if (!fileCache.has(abs)) fileCache.set(abs, fs.existsSync(abs) ? fs.readFileSync(abs, 'utf8') : undefined);
  return fileCache.get(abs);
}

function listMd(ws, dir) {
  const abs = path.join(ws, dir);
  if (!fs.existsSync(abs)) return [];
  return fs
    .readdirSync(abs, { recursive: true })
    .filter((f) => f.endsWith('.md'))
    .map((f) => path.join(dir, f).split(path.sep).join('/'));
}

/** The files a command searches, as paragraph lists: warm (plain), warm + cold (--deep), transcripts (--archive). */
export function corpusParagraphs(ws, command) {
  if (command === 'archive') {
    return fs
      .readdirSync(path.join(ws, 'transcripts'))
      .filter((f) => f.endsWith('.jsonl'))
      .sort()
      .map((f) => {
        const rel = `transcripts/${f}`;
        const turns = fs
          .readFileSync(path.join(ws, rel), 'utf8')
          .trim()
          .split('\n')
          .map((l, i) => {
            const t = JSON.parse(l);
            return [{ line: i + 1, text: `[${i + 1}] ${t.role}: ${t.content}` }];
          });
        return [rel, turns];
      });
  }
  const warm = ['MEMORY.md', ...listMd(ws, 'memory').filter((f) => !f.startsWith('memory/archive/'))];
  const files =
    command === 'deep' ? [...warm, ...listMd(ws, 'memory/archive'), ...listMd(ws, 'second-brain/summaries')] : warm;
  return files
    .filter((f) => fs.existsSync(path.join(ws, f)))
    .sort()
    .map((f) => [f, fileParagraphs(fs.readFileSync(path.join(ws, f), 'utf8'))]);
}

/** A BM25 baseline over `ws` for `command` with chunks merged up to `maxChars`: query → top k. */
export function baseline(ws, command, maxChars, tokens) {
  const chunks = corpusParagraphs(ws, command).flatMap(([rel, paras]) => mergeParagraphs(rel, paras, maxChars));
  const index = bm25Index(chunks, tokens);
  return (query, k) =>
    index.search(query, k).map((c) => {
      const shown = [];
      let start = 0;
      c.text.split('\n').forEach((line, i) => {
        const no = c.lineNos[i];
        if (no !== null)
          shown.push({ path: c.path, line: no, start, end: start + line.length, answers: answers(line) });
        start += line.length + 1;
      });
      return { text: c.text, shown };
    });
}
