import { blankSession, type PartRow, type SessionRow } from '../../core/transcripts/index.js';

/** A projected session row with every field a test does not name at its empty value. */
export function sessionRow(fields: Partial<SessionRow> & Pick<SessionRow, 'sessionId'>): SessionRow {
  return { ...blankSession(fields.sessionId, 'claude', 'code'), firstTs: 1, lastTs: 2, ...fields };
}

/** A projected part row (a user text part unless told otherwise). */
export function partRow(fields: Partial<PartRow> & Pick<PartRow, 'partId' | 'sessionId'>): PartRow {
  return { provider: 'claude', role: 'user', kind: 'text', ts: 1_700_000_000_000, text: null, meta: null, flags: 0, contentKey: null, ...fields };
}
