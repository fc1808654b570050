import type { Db } from '../store/index.js';

/** One stored part as other rooms read it: the row, unchanged (text and meta as stored). */
export interface StoredPart {
  partId: string;
  sessionId: string;
  role: string | null;
  kind: string;
  ts: number | null;
  text: string | null;
  meta: string | null;
}

export interface SessionHead {
  sessionId: string;
  provider: string;
  projectKey: string | null;
  parentSessionId: string | null;
  title: string | null;
  agentType: string | null;
  firstTs: number | null;
  lastTs: number | null;
}

interface PartRow {
  part_id: string;
  session_id: string;
  role: string | null;
  kind: string;
  ts: number | null;
  text: string | null;
  meta: string | null;
}

interface SessionRow {
  session_id: string;
  provider: string;
  project_key: string | null;
  parent_session_id: string | null;
  title: string | null;
  agent_type: string | null;
  first_ts: number | null;
  last_ts: number | null;
}

const toPart = (r: PartRow): StoredPart => ({ partId: r.part_id, sessionId: r.session_id, role: r.role, kind: r.kind, ts: r.ts, text: r.text, meta: r.meta });

const toSession = (r: SessionRow): SessionHead => ({
  sessionId: r.session_id,
  provider: r.provider,
  projectKey: r.project_key,
  parentSessionId: r.parent_session_id,
  title: r.title,
  agentType: r.agent_type,
  firstTs: r.first_ts,
  lastTs: r.last_ts,
});

const SESSION_COLUMNS = 'session_id, provider, project_key, parent_session_id, title, agent_type, first_ts, last_ts';

/**
 * What other rooms may read of the gateway's sessions and parts. Every query rides an index
 * (`sessions_project`, `parts_session`, `parts_ts`); none scans the parts table whole.
 */
export class GatewayReader {
  readonly #projectSessions;
  readonly #newestParts;
  readonly #oldestParts;
  readonly #newestSessions;
  readonly #conversations;
  readonly #conversationsOf;

  constructor(db: Db) {
    // Top-level sessions only: a subagent's transcript is part of its parent's conversation.
    this.#projectSessions = db.prepare(
      `SELECT ${SESSION_COLUMNS} FROM sessions WHERE project_key = ? AND parent_session_id IS NULL ORDER BY last_ts DESC, session_id DESC LIMIT ?`,
    );
    this.#newestParts = db.prepare('SELECT part_id, session_id, role, kind, ts, text, meta FROM parts WHERE session_id = ? ORDER BY ts DESC, part_id DESC LIMIT ?');
    this.#oldestParts = db.prepare('SELECT part_id, session_id, role, kind, ts, text, meta FROM parts WHERE session_id = ? ORDER BY ts ASC, part_id ASC LIMIT ?');
    this.#newestSessions = db.prepare(`SELECT ${SESSION_COLUMNS} FROM sessions WHERE parent_session_id IS NULL ORDER BY last_ts DESC, session_id DESC LIMIT ?`);
    this.#conversations = db.prepare('SELECT project_key AS key, COUNT(*) AS n FROM sessions WHERE project_key IS NOT NULL AND parent_session_id IS NULL GROUP BY project_key');
    this.#conversationsOf = db.prepare('SELECT COUNT(*) FROM sessions WHERE project_key = ? AND parent_session_id IS NULL').pluck();
  }

  /** A project's conversations (top-level sessions), most recently active first. */
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

  /** How many conversations each project holds (subagent sessions are not counted). */
  conversationCounts(): Map<string, number> {
    return new Map((this.#conversations.all() as Array<{ key: string; n: number }>).map((r) => [r.key, r.n]));
  }

  conversationCount(projectKey: string): number {
    return this.#conversationsOf.get(projectKey) as number;
  }
}
