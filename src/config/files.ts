/**
 * The configuration files themselves, without validation: where they live, reading one as a JSON
 * object, merging the layers (user-level < mem.config.json < mem.local.json, DESIGN §3) and the
 * "unknown key" warnings. Nothing here imports zod, so the lean `mem search`/`mem index` path
 * (src/cli/fast-*.ts) can read the configuration without paying for the schema library.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MemError } from '../core/errors.js';
import { expandHome } from '../core/home.js';

export const CONFIG_FILE = 'mem.config.json';
export const LOCAL_CONFIG_FILE = 'mem.local.json';

/** Top-level keys of the schema (schema.ts checks, and a test asserts, that they agree). */
export const CONFIG_KEYS: readonly string[] = [
  'format_version',
  'timezone',
  'sources',
  'exclude',
  'extraPaths',
  'llm',
  'embedding',
  'search',
  'schedule',
  'limits',
  'onFailure',
  'daemon',
  'git',
  'archive',
  'scopes',
];

/**
 * Keys of the schema's sections, and of each `sources` item (the same test asserts they agree). The
 * schema drops any other key of a section, so a misspelt one (`search.chunkToken`) would go unnoticed
 * with its setting: it is reported instead.
 */
export const SECTION_KEYS: Readonly<Record<string, readonly string[]>> = {
  sources: ['name', 'kind', 'path', 'exclude'],
  llm: [
    'baseURL',
    'model',
    'apiKeyEnv',
    'maxCallsPerRun',
    'maxTokensPerRun',
    'timeoutMs',
    'maxRetries',
    'turnsPerCall',
  ],
  embedding: ['baseURL', 'model', 'dimensions', 'apiKeyEnv', 'batchSize', 'interactiveTimeoutMs'],
  search: ['k', 'chunkTokens', 'overlapTokens'],
  limits: [
    'memoryLines',
    'entriesPerDailyFile',
    'summaryLines',
    'lockWaitMs',
    'lockStaleMs',
    'lockUpdateMs',
    'maxLineBytes',
    'jobTimeoutMs',
    'jobLogBytes',
  ],
  daemon: ['debounceMs', 'refreshMs', 'index', 'killGraceMs'],
  git: ['autoCommit'],
  archive: ['embed'],
};

/** `unknown key` warnings for one configuration file's keys, top level and sections. */
function unknownKeys(file: string, json: Json, isUserFile: boolean): string[] {
  const out: string[] = [];
  for (const key of Object.keys(json)) {
    if (!CONFIG_KEYS.includes(key) && !(isUserFile && key === 'defaultWorkspace'))
      out.push(`${file}: unknown key "${key}" kept as is`);
  }
  for (const [section, keys] of Object.entries(SECTION_KEYS)) {
    const value = json[section];
    const parts: [string, unknown][] = Array.isArray(value)
      ? value.map((v, i) => [`${section}[${i}]`, v])
      : [[section, value]];
    for (const [name, part] of parts) {
      if (!isPlainObject(part)) continue;
      for (const key of Object.keys(part))
        if (!keys.includes(key)) out.push(`${file}: unknown key "${name}.${key}" ignored`);
    }
  }
  return out;
}

export type Json = Record<string, unknown>;

export function userConfigPath(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CONFIG_HOME || path.join(os.homedir(), '.config');
  return path.join(base, 'memfold', 'config.json');
}

export function readJsonFile(file: string): Json | undefined {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new MemError('CONFIG_INVALID', `${file}: cannot read (${(err as Error).message})`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new MemError('CONFIG_INVALID', `${file}: not valid JSON (${(err as Error).message})`);
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    throw new MemError('CONFIG_INVALID', `${file}: expected a JSON object at the top level`);
  }
  return value as Json;
}

export function isPlainObject(v: unknown): v is Json {
  return !!v && typeof v === 'object' && !Array.isArray(v);
}

/** Objects merge key by key; arrays and scalars are replaced whole by the later file. */
export function mergeConfig(base: Json, over: Json): Json {
  const out: Json = { ...base };
  for (const [k, v] of Object.entries(over)) {
    const b = out[k];
    out[k] = isPlainObject(b) && isPlainObject(v) ? mergeConfig(b, v) : v;
  }
  return out;
}

export interface ConfigLayers {
  /** The merged, not yet validated configuration. */
  merged: Json;
  files: string[];
  warnings: string[];
  /** Names the files in error messages: `mem.config.json + mem.local.json`. */
  label: string;
}

export function readConfigLayers(workspace: string, env: NodeJS.ProcessEnv = process.env): ConfigLayers {
  const files: string[] = [];
  const warnings: string[] = [];
  let merged: Json = {};
  const userFile = userConfigPath(env);
  for (const file of [userFile, path.join(workspace, CONFIG_FILE), path.join(workspace, LOCAL_CONFIG_FILE)]) {
    const json = readJsonFile(file);
    if (!json) continue;
    files.push(file);
    const { defaultWorkspace: _ignored, ...rest } = json;
    merged = mergeConfig(merged, file === userFile ? rest : json);
    warnings.push(...unknownKeys(file, json, file === userFile));
  }
  const label = files.length ? files.map((f) => path.basename(f)).join(' + ') : CONFIG_FILE;
  return { merged, files, warnings, label };
}

/**
 * An extraPaths entry that is the root of the file system would have every Markdown file on the disk
 * walked and indexed: it is left out, with a warning (both loaders call this after validation).
 */
export function dropRootExtraPaths(config: { extraPaths: string[] }, workspace: string, warnings: string[]): void {
  config.extraPaths = config.extraPaths.filter((p) => {
    const abs = path.resolve(workspace, expandHome(p));
    if (path.parse(abs).root !== abs) return true;
    warnings.push(
      `extraPaths: "${p}" is the root of the file system (every Markdown file on the disk would be indexed); ignored`,
    );
    return false;
  });
}
