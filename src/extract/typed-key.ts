/**
 * Typed keys, generated (DESIGN §5, issue 27): a stable, readable name for the fact a statement is
 * about, so a later statement about the same thing in the same scope replaces it.
 *   Preference            pref:<category>:<topic>     pref:tools:package-manager
 *   Decision, Architecture decision:<project>:<topic> decision:shop:database
 *   Goal                  goal:<project>:<topic or name>
 *   Task                  task:<project>:<name>       a slug of the task's title
 * Topics come from the lexicon (topics.ts) only; Rule, Note and Lesson get no generated key (two
 * rules on one topic are two rules). A key a model or a person gave is kept, its project part set
 * to the entry's scope, so `task:<project>:x` from a model and `task:shop:x` are one key.
 */
import { slugify } from '../entries/id.js';
import type { Kind } from '../entries/model.js';
import type { Topic } from './topic-lexicon.js';

/** The project part of a key: `project:shop` → `shop`, `global` → `global`. */
export function keyProject(scope: string | undefined): string | undefined {
  if (!scope) return undefined;
  const name = scope.includes(':') ? scope.slice(scope.indexOf(':') + 1) : scope;
  const part = name.replace(/[\s:/\\\p{Cc}]+/gu, '-').toLowerCase();
  return part || undefined;
}

/** Words that say how far a task is, not what it is: left out of its name. */
const STATE_WORDS =
  /\b(?:todo|to-do|done|finished|completed?|blocked|in progress|doing|started|task)\b|已?完成|做完了?|卡住了?|进行中|進行中|待办|待辦/gi;

/** A task's or goal's name: its title's first words as a slug, at most 40 characters, cut at a word. */
export function nameSlug(title: string): string | undefined {
  const slug = slugify(title.replace(STATE_WORDS, ' '));
  if (slug === 'entry') return undefined;
  if (slug.length <= 40) return slug;
  const cut = slug.slice(0, 41);
  return cut.slice(0, cut.lastIndexOf('-') > 10 ? cut.lastIndexOf('-') : 40);
}

/** The key generated for a statement of `kind` about `topic` (undefined: none, see above). */
export function generatedKey(
  kind: Kind,
  topic: Topic | undefined,
  title: string,
  scope: string | undefined,
): string | undefined {
  const project = keyProject(scope);
  if (kind === 'Preference') return topic ? `pref:${topic.category}:${topic.name}` : undefined;
  if (!project) return undefined;
  if (kind === 'Decision' || kind === 'Architecture') return topic ? `decision:${project}:${topic.name}` : undefined;
  if (kind === 'Goal') {
    const name = topic?.name ?? nameSlug(title);
    return name ? `goal:${project}:${name}` : undefined;
  }
  if (kind === 'Task') {
    const name = nameSlug(title);
    return name ? `task:${project}:${name}` : undefined;
  }
  return undefined;
}

/** A given key with its project part (decision:, goal:, task:, rule:) set to the scope's. */
export function scopedKey(key: string, scope: string | undefined): string {
  const project = keyProject(scope);
  const m = /^(decision|goal|task|rule):([^:]+):(.+)$/i.exec(key);
  return m && project ? `${m[1]!.toLowerCase()}:${project}:${m[3]}` : key;
}
