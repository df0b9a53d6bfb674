/**
 * Credentials are never knowledge (issue 27, DESIGN "secrets never land"). Redaction keeps a secret's
 * value out of memory, but a statement handing credentials over ("the prod credentials, for the
 * record: AWS key AKIA…", "正式環境的憑證給你參考：…，千萬不要存起來") still landed as a Note or a
 * Rule holding their labels. Two refusals, on the extraction side (the secret engine finds the values):
 *   - a turn that carries a secret value and says not to keep it lands nothing at all;
 *   - a statement carrying a secret value lands only as what the user explicitly asked to keep
 *     (a Note: "remember: the staging password … rotates monthly") or work to do about it (a Task:
 *     "rotate the key …"), and then redacted; a rule or decision about a value is never one.
 */
import type { Kind } from '../entries/model.js';
import { containsSecret } from '../secrets/secrets.js';

const EN = String.raw;

/** "Do not store them", "don't save this", "千万别存下来", "不要存", "千萬不要存起來", "別記下來". */
export const DONT_KEEP = new RegExp(
  [
    EN`\b(?:do\s+not|don['’]?t|never|please\s+don['’]?t)\s+(?:ever\s+)?(?:store|save|keep|record|persist|log|write\s+(?:it|them|this|these)\s+down|commit|remember)\b`,
    EN`\bnot\s+(?:to\s+be\s+)?(?:stored|saved|kept|recorded)\b`,
    '(?:不要|[别別]|千[万萬][别別]|千[万萬]不要|不能|不准|勿)\\s*(?:存|保存|儲存|存储|存儲|[记記](?:下|住|录|錄)|落地)',
  ].join('|'),
  'i',
);

/** A redaction marker (secrets' redactionMarker): turns are redacted before an extractor sees them (trust.ts), so a value shows as one. */
const MARKER = /\[REDACTED:[\w-]+\]/;

/** Whether the text carries a credential's value, as written or already redacted. */
export function carriesSecret(text: string): boolean {
  return MARKER.test(text) || containsSecret(text);
}

/** A turn handing over credentials it says not to keep: nothing in it is memory. */
export function handsOverCredentials(turnText: string): boolean {
  return DONT_KEEP.test(turnText) && carriesSecret(turnText);
}

/** Whether a statement of `kind` carrying `text` may land: one holding a secret value only as a Note or a Task. */
export function mayCarry(kind: Kind, text: string): boolean {
  return kind === 'Note' || kind === 'Task' || !carriesSecret(text);
}
