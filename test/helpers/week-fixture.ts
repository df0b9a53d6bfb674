/**
 * The fixture week (fixtures/week): a shop project's 2026-W47 in five transcript formats, English and
 * Chinese, with a decision reversed two days later, a rule stated twice, "remember this" notes,
 * chit-chat and a scheduler session. Transcripts are released day by day, as they would appear on
 * a real machine, so each night's runs see only what existed then.
 */
import { cpSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { mem, ROOT, tempDir, type RunResult } from './cli.js';

export const WEEK_FIXTURE = join(ROOT, 'fixtures', 'week');
export const DAYS = ['2026-11-16', '2026-11-17', '2026-11-18', '2026-11-19', '2026-11-20'] as const;

/** Transcript files (under fixtures/week/transcripts) by the day their sessions happen. */
export const TRANSCRIPTS_BY_DAY: Record<string, string[]> = {
  '2026-11-16': ['claude-code/-home-dev-shop/a1c9e7f0-1111-4c2d-9e3b-0a0b0c0d0e01.jsonl'],
  '2026-11-17': ['markdown/2026-11-17-api.md'],
  '2026-11-18': ['jsonl/standup-2026-11-18.jsonl', 'jsonl/chat-2026-11-18.jsonl', 'jsonl/cron-2026-11-18.jsonl'],
  '2026-11-19': ['openclaw/agents/main/sessions/b2d0f8a1-2222-4e3f-8a4b-1b2c3d4e5f02.jsonl'],
  '2026-11-20': ['codex/2026/11/20/rollout-2026-11-20T13-00-05-019aa000-3333-7c3e-9f20-4d5e6a7b8c03.jsonl'],
};

/** Words of the fixture's chit-chat and scheduler sessions: none may land in any Markdown file. */
export const NEVER = [
  'hiking',
  'Alps',
  'football',
  'pizza',
  'three to one',
  'Rotate the logs',
  'rotate the logs',
  'HEARTBEAT',
];

export interface WeekWorkspace {
  root: string;
  ws: string;
  release(day: string): void;
}

export function weekWorkspace(t: { after(fn: () => void): void }, upTo?: string): WeekWorkspace {
  const root = tempDir(t, 'memfold-week-');
  cpSync(join(WEEK_FIXTURE, 'workspace'), join(root, 'workspace'), { recursive: true });
  for (const kind of ['claude-code', 'codex', 'openclaw', 'jsonl', 'markdown'])
    mkdirSync(join(root, 'transcripts', kind), { recursive: true });
  const release = (day: string) => {
    for (const rel of TRANSCRIPTS_BY_DAY[day] ?? []) {
      mkdirSync(dirname(join(root, 'transcripts', rel)), { recursive: true });
      cpSync(join(WEEK_FIXTURE, 'transcripts', rel), join(root, 'transcripts', rel));
    }
  };
  if (upTo) for (const d of DAYS) if (d <= upTo) release(d);
  return { root, ws: join(root, 'workspace'), release };
}

/** Next calendar day (YYYY-MM-DD). */
export function nextDay(day: string): string {
  const d = new Date(`${day}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

/** One day of the schedule: microsync in the evening (Europe/Berlin), wrapup early next morning. */
export async function liveDay(ws: string, day: string): Promise<{ microsync: RunResult; wrapup: RunResult }> {
  const microsync = await mem(['-C', ws, 'microsync', '--now', `${day}T22:00`]);
  const wrapup = await mem(['-C', ws, 'wrapup', '--now', `${nextDay(day)}T05:00`]);
  return { microsync, wrapup };
}

/** Every Markdown file of the workspace (relative path → text). */
export function markdownFiles(ws: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const full = join(d, name);
      if (name === '.mem' || name === '.locks') continue;
      if (statSync(full).isDirectory()) walk(full);
      else if (name.endsWith('.md')) out.set(relative(ws, full).split('\\').join('/'), readFileSync(full, 'utf8'));
    }
  };
  walk(ws);
  return out;
}

export const SECTIONS = [
  'Decisions made today',
  'Action items',
  'Important conversations',
  'Technical notes / debugging lessons',
  'Open loops',
  'Tomorrow next steps',
];

/** Level-2 headings of a Markdown text, in order. */
export function h2(text: string): string[] {
  return [...text.matchAll(/^## (.+)$/gm)].map((m) => m[1]!);
}

/** Bullets under the six sections (not front matter). */
export function bullets(text: string): string[] {
  const body = text.replace(/^---\n[\s\S]*?\n---\n/, '');
  return body.split('\n').filter((l) => l.startsWith('- '));
}

/** A wrap-up bullet names its source: an entry id link, or a session and message range. */
export const CITED =
  /^- \((?:none|listed per session under Important conversations)\)$|— (?:\[(?:DECISION|RULE|ARCH|NOTE|PREF|GOAL|TASK|LESSON)-\d{8}-\S+\]\(\.\.\/\.\.\/memory\/[^)]+\.md\)|session \S+ · messages \d+-\d+)$/u;
