/**
 * Secrets in entry ids, for `mem lint --secrets` (issue 29 item 8): an id spells its title as a
 * slug, lower-cased with `/` and `+` folded to `-`, so no pattern recognises a key in it, and a title
 * redacted by hand (or by a newer memfold) leaves the id it was made from as it was. Each title is
 * scanned on its own to learn what its id may hold. Pure: a daily file's text in, the lines out.
 *
 * Invariant: an id is reported only with evidence from its own entry, never for looking random, so
 * git SHAs, UUIDs and ordinary ids are never reported: the id holds the slug of a secret found in
 * its title, or the title holds a `[REDACTED:kind]` marker where the id, made from the title before
 * it was redacted, holds other words (the words before the marker match, and `redacted-` does not follow).
 */
import { findSecrets } from '../secrets/secrets.js';
import { slugWords } from './id.js';
import { recordsOf } from './store.js';

export interface NameHit {
  /** 1-based line of the heading (a title) or of the `- id:` field. */
  line: number;
  kind: string;
  in: 'title' | 'id';
}

/** The shortest run of a secret's slug that, ending the id where the slug cut it, counts as held. */
const HELD_MIN = 8;
const MARKER = /\[REDACTED:([a-z0-9-]+)\]/;

/** Whether the id's slug holds `secret` (a slug) whole, or ends in its first HELD_MIN or more characters. */
function holds(idSlug: string, secret: string): boolean {
  if (secret.length < HELD_MIN) return false;
  if (idSlug.includes(secret)) return true;
  for (let k = secret.length - 1; k >= HELD_MIN; k--) if (idSlug.endsWith(secret.slice(0, k))) return true;
  return false;
}

/** The kind of the secret the id was made from before its title was redacted, if the title says so. */
function markerLeak(title: string, idSlug: string): string | undefined {
  const m = MARKER.exec(title);
  if (!m) return undefined;
  const before = slugWords(title.slice(0, m.index));
  if (!before || !idSlug.startsWith(`${before}-`)) return undefined;
  const rest = idSlug.slice(before.length + 1);
  // What follows the words before the marker: the marker's own slug, or a collision suffix (`-2`) after a slug cut there.
  return rest.startsWith('redacted') || /^\d+$/.test(rest) ? undefined : m[1];
}

export function secretsInEntryNames(text: string): NameHit[] {
  const hits: NameHit[] = [];
  for (const r of recordsOf('', text)) {
    const title = r.entry.title;
    // Scanned as its heading reads (`Kind: title`), not alone: a title that is one CamelCase word
    // (`OAuth2MigrationPlanV3`) is no token pasted as a message of its own.
    const lead = `${r.entry.kind}: `;
    const found = findSecrets(lead + title)
      .filter((f) => f.start >= lead.length)
      .map((f) => ({ ...f, start: f.start - lead.length, end: f.end - lead.length }));
    for (const f of found) hits.push({ line: r.block.startLine, kind: f.kind, in: 'title' });
    if (!r.id) continue;
    const idSlug = r.id.toLowerCase().replace(/^[a-z]+-\d{8}-/, '');
    const leaked =
      found.find((f) => holds(idSlug, slugWords(title.slice(f.start, f.end))))?.kind ?? markerLeak(title, idSlug);
    if (!leaked) continue;
    const at = r.block.raw.split('\n').findIndex((l) => /^[ \t]*[-*+][ \t]+id[ \t]*:/.test(l));
    hits.push({ line: r.block.startLine + Math.max(0, at), kind: leaked, in: 'id' });
  }
  return hits;
}
