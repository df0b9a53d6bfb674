/**
 * Effective configuration: user-level file < mem.config.json < mem.local.json (DESIGN §3).
 * Every problem is one line naming the file and the key; nothing here writes.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MemError } from '../core/errors.js';
import { checkZone, systemZone } from '../core/time.js';
import { configSchema, KNOWN_KEYS, type Config } from './schema.js';

export const CONFIG_FILE = 'mem.config.json';
export const LOCAL_CONFIG_FILE = 'mem.local.json';

export interface LoadedConfig {
  config: Config;
  /** The zone every day and window is measured in. */
  zone: string;
  files: string[];
  warnings: string[];
}

export function userConfigPath(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CONFIG_HOME || path.join(os.homedir(), '.config');
  return path.join(base, 'memfold', 'config.json');
}

type Json = Record<string, unknown>;

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

/** Objects merge key by key; arrays and scalars are replaced whole by the later file. */
export function mergeConfig(base: Json, over: Json): Json {
  const out: Json = { ...base };
  for (const [k, v] of Object.entries(over)) {
    const b = out[k];
    out[k] = isPlainObject(b) && isPlainObject(v) ? mergeConfig(b, v) : v;
  }
  return out;
}

function isPlainObject(v: unknown): v is Json {
  return !!v && typeof v === 'object' && !Array.isArray(v);
}

export function validateConfig(raw: Json, label: string): Config {
  const parsed = configSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = issue.path.length ? issue.path.join('.') : '(top level)';
    throw new MemError('CONFIG_INVALID', `${label}: ${where}: ${issue.message}`);
  }
  return parsed.data;
}

export function loadConfig(workspace: string, env: NodeJS.ProcessEnv = process.env): LoadedConfig {
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
    for (const key of Object.keys(json)) {
      if (!KNOWN_KEYS.includes(key) && !(file === userFile && key === 'defaultWorkspace')) {
        warnings.push(`${file}: unknown key "${key}" kept as is`);
      }
    }
  }
  const label = files.length ? files.map((f) => path.basename(f)).join(' + ') : CONFIG_FILE;
  const config = validateConfig(merged, label);
  const zone = checkZone(config.timezone ?? systemZone());
  return { config, zone, files, warnings };
}
