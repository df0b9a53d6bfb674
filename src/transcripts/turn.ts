/**
 * A reader's draft and where it was read → the Turn every reader yields. One function for every
 * format, so the session id and a tool's name pass the same gate (safeSessionId, redaction) whichever
 * reader made the turn.
 */
import { redactSecrets } from '../secrets/secrets.js';
import { safeSessionId } from './session-id.js';
import type { Turn } from './types.js';

type Where = Pick<Turn, 'sessionId' | 'sessionPath' | 'index' | 'timestamp' | 'endOffset'>;

export function toTurn(
  draft: { role: Turn['role']; text: string; toolName?: string; cwd?: string; sidechain?: boolean; meta?: boolean },
  where: Where,
): Turn {
  const turn: Turn = {
    sessionId: safeSessionId(where.sessionId),
    sessionPath: where.sessionPath,
    index: where.index,
    role: draft.role,
    text: draft.text,
    timestamp: where.timestamp,
    endOffset: where.endOffset,
  };
  // Shown to the LLM and stored in the archive beside the text, so through the same gate as the session id.
  if (draft.toolName) turn.toolName = redactSecrets(draft.toolName).text;
  // Kept as written: the scope is found from the real folder. Whatever stores it redacts it first.
  if (draft.cwd) turn.cwd = draft.cwd;
  if (draft.sidechain) turn.sidechain = true;
  if (draft.meta) turn.meta = true;
  return turn;
}
