/**
 * The requests of the resident server besides a search (protocol.ts holds that one, the replies and
 * the exchange): a plain `mem index`, `mem search --archive` and a plain `mem context`. Types only.
 */
import type { ClientEnv } from './client-env.js';

/**
 * A plain `mem index` (src/cli/served-index.ts): the server updates the index from its tracked file
 * list, under the index lock, and logs the job run as the client's (its pid and MEM_TRIGGER). The
 * reply is the run's result (reply-data.ts ServedIndexRun), which the client prints.
 */
export type IndexRequest = {
  v: number;
  build: string;
  op: 'index';
  workspace: string;
  env: ClientEnv;
  pid: number;
  trigger?: string;
};

/**
 * `mem search --archive` (cli/archive-search.ts), asked once the client has read its configuration and
 * checked the flags: the server runs the archive tier its host process plugged in (server.ts `archive`).
 */
export interface ArchiveAsk {
  query: string;
  k: number;
  sinceMs?: number;
  source?: string;
  session?: string;
  lexicalOnly: boolean;
}
export type ArchiveRequest = {
  v: number;
  build: string;
  op: 'archive';
  workspace: string;
  env: ClientEnv;
} & ArchiveAsk;

/**
 * A plain `mem context` (no --query, --hook or --evidence; cli/served-context.ts), asked before the
 * client reads anything: the server builds the pack its host process plugged in (cli/search-server.ts)
 * under its own configuration (its warnings come back with the pack), dates it by its clock in the
 * configured zone unless `at` is given, and takes memory/'s listing from its tracked files instead of
 * stating every file again.
 */
export interface ContextAsk {
  /** A moment of the client's (core/instant.ts); absent: the server's clock. */
  at?: { utc: string; day: string };
  cwd: string;
  scope?: string;
  /** As typed (`--budget`); the server checks it as a cold run does and leaves a bad one to the client. */
  budget?: string;
  /** Who asks, for the use log: a session-start hook (`hook:claude:SessionStart`); absent: `context`. */
  via?: string;
}
export type ContextRequest = {
  v: number;
  build: string;
  op: 'context';
  workspace: string;
  env: ClientEnv;
} & ContextAsk;
