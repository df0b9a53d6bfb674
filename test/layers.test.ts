/**
 * The layer order of AGENTS.md, enforced: every folder of src/ is listed there, no file imports a
 * folder listed below its own (static, type-only, re-export or dynamic import()), and no files import
 * each other in a cycle. Imports that ran back up once tied 19 folders into two knots, so a change
 * anywhere rebuilt and retested everything.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SRC = path.join(ROOT, 'src');

/** The first word of each line of AGENTS.md's block whose marker starts with `marker`, in order. */
function listed(marker: string): string[] {
  const doc = fs.readFileSync(path.join(ROOT, 'AGENTS.md'), 'utf8');
  const block = new RegExp(`<!-- ${marker}[^>]*-->\\s*\`\`\`text\\n([\\s\\S]*?)\`\`\``).exec(doc);
  assert.ok(block, `AGENTS.md has a "${marker}" block`);
  return block[1]!
    .split('\n')
    .map((l) => l.trim().split(/\s+/)[0]!)
    .filter(Boolean);
}

const layerOrder = () => listed('layers:');
/** The sub-layers of src/search/, bottom first; its own index.ts sits above them all. */
const searchOrder = () => listed('search layers:');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(p);
    return /\.(ts|mts|cts)$/.test(e.name) ? [p] : [];
  });
}

const SPECIFIERS = [
  /\b(?:import|export)\b[^'";]*?\bfrom\s*['"]([^'"]+)['"]/g,
  /\bimport\s*['"]([^'"]+)['"]/g,
  /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g,
  /\brequire\(\s*['"]([^'"]+)['"]\s*\)/g,
];

/** The src files a file imports, by relative specifier; comments are left out. */
export function importsOf(file: string, text: string): string[] {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  const found = new Set<string>();
  for (const re of SPECIFIERS) {
    for (const m of code.matchAll(re)) {
      const spec = m[1]!;
      if (!spec.startsWith('.')) continue;
      found.add(path.resolve(path.dirname(file), spec).replace(/\.(m|c)?js$/, '.$1ts'));
    }
  }
  return [...found];
}

const layerOf = (file: string) => path.relative(SRC, file).split(path.sep)[0]!;

function graph(): Map<string, string[]> {
  const g = new Map<string, string[]>();
  for (const f of sourceFiles(SRC))
    g.set(
      f,
      importsOf(f, fs.readFileSync(f, 'utf8')).filter((t) => t.startsWith(SRC + path.sep)),
    );
  return g;
}

/** Strongly connected components of more than one file (Tarjan). */
function cycles(g: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of g.get(v) ?? []) {
      if (!g.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(path.relative(ROOT, w));
    } while (w !== v);
    if (component.length > 1) found.push(component.sort());
  };
  for (const v of g.keys()) if (!index.has(v)) visit(v);
  return found;
}

test('every folder of src/ is a layer of AGENTS.md, and no file sits directly in src/', () => {
  const order = layerOrder();
  const folders = fs.readdirSync(SRC, { withFileTypes: true });
  assert.deepEqual(
    folders.filter((e) => !e.isDirectory()).map((e) => e.name),
    [],
  );
  const missing = folders.filter((e) => e.isDirectory() && !order.includes(e.name)).map((e) => e.name);
  assert.deepEqual(missing, [], 'folders not listed in AGENTS.md');
  assert.equal(new Set(order).size, order.length, 'a layer listed twice');
});

test('no import runs up the layer order (static, type-only, re-export and dynamic import() alike)', () => {
  const order = layerOrder();
  const upward: string[] = [];
  for (const [file, targets] of graph()) {
    const from = order.indexOf(layerOf(file));
    for (const t of targets) {
      if (order.indexOf(layerOf(t)) > from) upward.push(`${path.relative(ROOT, file)} -> ${path.relative(ROOT, t)}`);
    }
  }
  assert.deepEqual(upward, []);
});

const SEARCH = path.join(SRC, 'search');
/** A search file's sub-layer: its folder below src/search/, or the top (past the last) for the folder's own index.ts. */
function searchLayerOf(file: string, order: string[]): number {
  const parts = path.relative(SEARCH, file).split(path.sep);
  return parts.length > 1 ? order.indexOf(parts[0]!) : order.length;
}

test('src/search/ is split by concern: every sub-folder is listed in AGENTS.md, only index.ts sits at its root, and no import runs up', () => {
  const order = searchOrder();
  const entries = fs.readdirSync(SEARCH, { withFileTypes: true });
  assert.deepEqual(
    entries.filter((e) => !e.isDirectory()).map((e) => e.name),
    ['index.ts'],
  );
  assert.deepEqual(
    entries.filter((e) => e.isDirectory() && !order.includes(e.name)).map((e) => e.name),
    [],
    'search sub-folders not listed in AGENTS.md',
  );
  const upward: string[] = [];
  for (const [file, targets] of graph()) {
    if (layerOf(file) !== 'search') continue;
    for (const t of targets)
      if (layerOf(t) === 'search' && searchLayerOf(t, order) > searchLayerOf(file, order))
        upward.push(`${path.relative(ROOT, file)} -> ${path.relative(ROOT, t)}`);
  }
  assert.deepEqual(upward, []);
});

test('no files import each other in a cycle', () => {
  assert.deepEqual(cycles(graph()), []);
});

test('the checker sees every kind of import, and not those in comments', () => {
  const file = path.join(SRC, 'core', 'x.ts');
  const text = [
    "import a from './a.js';",
    "import type { B } from '../entries/b.js';",
    'import {\n  c,\n  d,\n} from "../search/c.js";',
    "export * from './e.js';",
    "export { f } from '../jobs/f.js';",
    "const g = await import('../cli/g.js');",
    "import './side.js';",
    "import fs from 'node:fs';",
    "/** import x from '../daemon/x.js' */",
    "// import y from '../daemon/y.js'",
  ].join('\n');
  const rel = importsOf(file, text).map((t) => path.relative(SRC, t));
  assert.deepEqual(rel.sort(), [
    'cli/g.ts',
    'core/a.ts',
    'core/e.ts',
    'core/side.ts',
    'entries/b.ts',
    'jobs/f.ts',
    'search/c.ts',
  ]);
  const ring = new Map([
    ['/a', ['/b']],
    ['/b', ['/c']],
    ['/c', ['/a']],
    ['/d', ['/a']],
  ]);
  assert.equal(cycles(ring).length, 1);
});
