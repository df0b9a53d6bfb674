/**
 * Every extracted statement gets a `scope` and, where the topic lexicon knows its subject, a typed
 * `key` (DESIGN §5, issue 27), before the planner compares it with what the workspace holds: scope
 * is part of a statement's identity ("use 2-space indentation" said in project A and in project B is
 * two entries; B's "use npm" never replaces A's "use pnpm").
 *
 * Scope, in order: the one the extractor gave (a model's, checked); `global` for what is said to hold
 * everywhere ("in every project", "全局") and for preferences on a user-level topic (language, tone);
 * else the session's: the folder it ran in (Turn.cwd, else the folder Claude Code's transcript path
 * encodes): workspace/session-scope.ts.
 */
import { SCOPE } from '../../entries/model.js';
import { EVERYWHERE, topicOf } from '../../extract/topics.js';
import { generatedKey, scopedKey } from '../../extract/typed-key.js';
import type { Candidate } from '../../extract/types.js';

/** The candidate with its scope and key (each left out when nothing gives one). */
export function labelCandidate<C extends Candidate>(c: C, sessionScope: string | undefined): C {
  const text = `${c.title} ${c.conclusion}`;
  const topic = topicOf(text);
  // A model hears "in every project"; it cannot know the project's name: that is the session's.
  const given =
    c.scope && SCOPE.test(c.scope) && (!c.scope.startsWith('project:') || !sessionScope) ? c.scope : undefined;
  // A user-level topic (the conversation's language and tone, how the agent reaches the user) holds everywhere, whatever the kind.
  const scope = given ?? (EVERYWHERE.test(text) || topic?.global ? 'global' : sessionScope);
  const givenKey = c.key ? scopedKey(c.key, scope) : undefined;
  // A model's `<project>` placeholder with no project to fill it names nothing.
  const key =
    givenKey && !givenKey.includes('<project>')
      ? givenKey
      : c.key
        ? undefined
        : generatedKey(c.kind, topic, c.title, scope);
  const out: C = { ...c };
  delete out.scope;
  delete out.key;
  return { ...out, ...(scope ? { scope } : {}), ...(key ? { key } : {}) };
}
