/**
 * What an extractor proposes: a settled statement with where it came from. The microsync planner
 * turns candidates into entries (ids, dates, sources, dedupe, supersedes); extractors never write.
 */
import type { Kind, Origin } from '../entries/model.js';

export interface Candidate {
  kind: Kind;
  title: string;
  /** The statement itself, in the speaker's words (redacted). */
  conclusion: string;
  why?: string;
  finding?: string;
  impact?: string;
  /** 0..1: how explicit and confirmed the statement was. */
  confidence: number;
  /** Who stated it: extractors say user or agent; `mem remember` says manual. */
  origin: Origin;
  /** An agent's statement: the index of the user turn that confirmed it (written as `confirmed:`). */
  confirmedAt?: number;
  key?: string;
  scope?: string;
  refs?: string[];
  tags?: string[];
  /** The statement revises an earlier one ("instead of", "改为"): the planner looks for what it supersedes. */
  revises: boolean;
  /** The user corrected what was just said ("不对，改成…", "Actually no, X instead"): it revises the statement just before it, shared words or not. */
  corrects?: boolean;
  /** Explicit id of a superseded entry, when the extractor knows it. */
  supersedes?: string;
  /** The statement retracts an earlier fact ("that's wrong", "forget the X decision"): the planner names it in `retracts`. */
  retracting?: boolean;
  /** A Task's state; kind Task only. */
  state?: 'todo' | 'doing' | 'done' | 'blocked';
  /** Folder the session ran in (Turn.cwd of the statement's turns): the planner derives `scope` from it. */
  cwd?: string;
  sessionId: string;
  sessionPath: string;
  /** Inclusive 1-based turn indexes (Turn.index) the statement was made in. */
  firstTurn: number;
  lastTurn: number;
  /** ISO time of the last turn: decides the daily file. */
  timestamp: string;
}
