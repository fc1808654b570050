import type { SessionPart } from '../../core/api/index.js';
import { blankSession, type PartRow, type SessionRow } from '../../core/transcripts/index.js';

/** A projected session row with every field a test does not name at its empty value. */
export function sessionRow(fields: Partial<SessionRow> & Pick<SessionRow, 'sessionId'>): SessionRow {
  return { ...blankSession(fields.sessionId, 'claude', 'code'), firstTs: 1, lastTs: 2, ...fields };
}

/** A projected part row (a user text part unless told otherwise). */
export function partRow(fields: Partial<PartRow> & Pick<PartRow, 'partId' | 'sessionId'>): PartRow {
  return { provider: 'claude', role: 'user', kind: 'text', ts: 1_700_000_000_000, text: null, meta: null, flags: 0, contentKey: null, ...fields };
}

/** A part as Sessions.Get gives it (a text part unless told otherwise), every field a test does not name at its empty value. */
export function sessionPart({ partId, ...fields }: Partial<SessionPart> & Pick<SessionPart, 'partId'>): SessionPart {
  return { partId, kind: 'text', text: '', summary: null, toolName: null, toolUseId: null, isError: false, truncatedFrom: null, image: null, genuineUserTurn: false, isCompactSummary: false, slashCommand: null, ...fields };
}
