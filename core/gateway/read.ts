import type { Db } from '../store/index.js';
import { lineTimeOf, SHOWN_TS_SQL } from './placed.js';
import { CONVERSATION } from './sessions.js';

/** One stored part as other rooms read it: the row, unchanged (text and meta as stored), with its flags. */
export interface StoredPart {
  partId: string;
  sessionId: string;
  role: string | null;
  kind: string;
  /** Its time as shown: null when its line gave none. */
  ts: number | null;
  /**
   * Where it sits in its conversation (UTC ms): its time, or for a line without one the time of the
   * line before it in its file (placed.ts). Orders it and dates it; never shown as its time. Null for a
   * part stored with no time before places were kept (migration step 29), until its file is read again.
   */
  place: number | null;
  text: string | null;
  meta: string | null;
  isMeta: boolean;
  isCompactSummary: boolean;
  isSidechain: boolean;
  /** The user's own words, decided once by the parser (see PART_FLAGS in transcripts/). */
  genuineUserTurn: boolean;
}

export interface SessionHead {
  sessionId: string;
  provider: string;
  projectKey: string | null;
  parentSessionId: string | null;
  /** 'subagent' or 'branch' when the session has a parent. */
  parentKind: string | null;
  title: string | null;
  /** Where the title came from (TITLE_SOURCES), when there is one. */
  titleSource: string | null;
  /** The first genuine user words, bounded: a name for an untitled session. */
  firstRequest: string | null;
  agentType: string | null;
  model: string | null;
  firstTs: number | null;
  lastTs: number | null;
}

interface PartRow {
  part_id: string;
  session_id: string;
  role: string | null;
  kind: string;
  shown_ts: number | null;
  place: number | null;
  text: string | null;
  meta: string | null;
  is_meta: number;
  is_compact_summary: number;
  is_sidechain: number;
  genuine_user_turn: number;
}

interface SessionRow {
  session_id: string;
  provider: string;
  project_key: string | null;
  parent_session_id: string | null;
  parent_kind: string | null;
  title: string | null;
  title_source: string | null;
  first_request: string | null;
  agent_type: string | null;
  model: string | null;
  first_ts: number | null;
  last_ts: number | null;
}

const toPart = (r: PartRow): StoredPart => ({
  partId: r.part_id,
  sessionId: r.session_id,
  role: r.role,
  kind: r.kind,
  ts: r.shown_ts,
  place: r.place,
  text: r.text,
  meta: r.meta,
  isMeta: r.is_meta === 1,
  isCompactSummary: r.is_compact_summary === 1,
  isSidechain: r.is_sidechain === 1,
  genuineUserTurn: r.genuine_user_turn === 1,
});

const toSession = (r: SessionRow): SessionHead => ({
  sessionId: r.session_id,
  provider: r.provider,
  projectKey: r.project_key,
  parentSessionId: r.parent_session_id,
  parentKind: r.parent_kind,
  title: r.title,
  titleSource: r.title_source,
  firstRequest: r.first_request,
  agentType: r.agent_type,
  model: r.model,
  // Read as null when no line can hold it (lineTimeOf): a store an older build wrote; the order stays the index's.
  firstTs: lineTimeOf(r.first_ts),
  lastTs: lineTimeOf(r.last_ts),
});

const SESSION_COLUMNS = 'session_id, provider, project_key, parent_session_id, parent_kind, title, title_source, first_request, agent_type, model, first_ts, last_ts';
/**
 * A part's time as shown (a line without one has none, whatever place capture gave it) and its place,
 * both named apart from `ts`: an ORDER BY ts would take a result column of that name before the table's.
 */
const PART_COLUMNS = `part_id, session_id, role, kind, ${SHOWN_TS_SQL} AS shown_ts, ts AS place, text, meta, is_meta, is_compact_summary, is_sidechain, genuine_user_turn`;

/**
 * What other rooms may read of the gateway's sessions and parts. Every query rides an index
 * (`sessions_project`, `sessions_conversations`, the part_id key, `parts_session_ts`); none scans the
 * parts table whole, and none reads every session.
 */
export class GatewayReader {
  readonly #projectSessions;
  readonly #newestParts;
  readonly #oldestParts;
  readonly #newestSessions;
  readonly #conversationsOf;
  readonly #anySession;
  readonly #anyConversation;

  constructor(db: Db) {
    // Conversations only: a subagent's transcript is part of its parent's conversation.
    this.#projectSessions = db.prepare(`SELECT ${SESSION_COLUMNS} FROM sessions WHERE project_key = ? AND ${CONVERSATION} ORDER BY last_ts DESC, session_id DESC LIMIT ?`);
    // Conversation order, as history-read.ts reads it: by place, then as stored (file order). A placed
    // part shares the place of the line before it; its part id says nothing of which came first.
    this.#newestParts = db.prepare(`SELECT ${PART_COLUMNS} FROM parts WHERE session_id = ? ORDER BY ts DESC, rowid DESC LIMIT ?`);
    this.#oldestParts = db.prepare(`SELECT ${PART_COLUMNS} FROM parts WHERE session_id = ? ORDER BY ts ASC, rowid ASC LIMIT ?`);
    this.#newestSessions = db.prepare(`SELECT ${SESSION_COLUMNS} FROM sessions WHERE ${CONVERSATION} ORDER BY last_ts DESC, session_id DESC LIMIT ?`);
    // Counted in sessions_conversations (migration 12), which holds conversations only: no table row is read.
    this.#conversationsOf = db.prepare(`SELECT COUNT(*) FROM sessions WHERE project_key = ? AND ${CONVERSATION}`).pluck();
    this.#anySession = db.prepare('SELECT 1 FROM sessions WHERE project_key = ? LIMIT 1').pluck();
    this.#anyConversation = db.prepare(`SELECT 1 FROM sessions WHERE project_key = ? AND ${CONVERSATION} LIMIT 1`).pluck();
  }

  /** A project's conversations (top-level and branched sessions), most recently active first. */
  sessionsOfProject(projectKey: string, limit: number): SessionHead[] {
    return (this.#projectSessions.all(projectKey, limit) as SessionRow[]).map(toSession);
  }

  /** The newest `limit` parts of a session, returned in conversation order (oldest first). */
  partsOfSession(sessionId: string, limit: number): StoredPart[] {
    return (this.#newestParts.all(sessionId, limit) as PartRow[]).reverse().map(toPart);
  }

  /** The oldest `limit` parts of a session in conversation order: where its task statement is. */
  firstPartsOfSession(sessionId: string, limit: number): StoredPart[] {
    return (this.#oldestParts.all(sessionId, limit) as PartRow[]).map(toPart);
  }

  /** Conversations across every project, most recently active first. */
  newestSessions(limit: number): SessionHead[] {
    return (this.#newestSessions.all(limit) as SessionRow[]).map(toSession);
  }

  /** How many conversations a project holds (subagent sessions are not counted). */
  conversationCount(projectKey: string): number {
    return this.#conversationsOf.get(projectKey) as number;
  }

  /** Whether the project holds a conversation: one seek, where `conversationCount` walks them all. */
  holdsConversations(projectKey: string): boolean {
    return this.#anyConversation.get(projectKey) !== undefined;
  }

  /** Whether any session row names the project, a subagent's included. */
  holdsSessions(projectKey: string): boolean {
    return this.#anySession.get(projectKey) !== undefined;
  }
}
