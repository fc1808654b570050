import { z } from 'zod';
import { errorCode, type Logger } from '../log/index.js';
import { inTransaction, type Db } from '../store/index.js';
import { SearchIndex } from './search-index.js';

const SpooledSession = z.object({
  sessionId: z.string(),
  provider: z.string(),
  source: z.string(),
  cwd: z.string().nullable(),
  parentSessionId: z.string().nullable(),
  agentType: z.string().nullable(),
  title: z.string().nullable(),
  firstTs: z.number().nullable(),
  lastTs: z.number().nullable(),
});

/** A project that received new genuine user turns in a committed step, and the newest one's time. */
export interface UserTurns {
  projectKey: string;
  /** UTC ms of the newest new turn. */
  at: number;
}

/** Where a session's working directory becomes a project key (the projects room, wired by capture). */
export interface ProjectKeys {
  touch(cwd: string, lastActivityAt: number | null, now?: number): string;
  /** The key without recording anything (is this project forgotten?). */
  keyOf(cwd: string): string;
}

export interface FlushResult {
  rows: number;
  partsWritten: number;
  sessionsWritten: number;
}

const STEP_ROWS = 250;

function parseJsonOrNull(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/**
 * Moves spooled rows into the committed tables, one transaction per step. The timer tick flushes one
 * bounded step and never awaits transcript work; a provider run drains the rest at its end.
 */
export class Sink {
  readonly #db: Db;
  readonly #projects: ProjectKeys;
  readonly #logger: Logger | undefined;
  readonly #upper;
  readonly #moveParts;
  readonly #sessionsUpTo;
  readonly #upsertSession;
  readonly #deleteUpTo;
  readonly #newUserTurns;
  readonly #index: SearchIndex;
  #deferred = false;
  #timer: NodeJS.Timeout | undefined;
  /**
   * Sweeper hook (spec 001): told, after each committed step, which projects received a new genuine
   * user turn (user text, not harness-injected lines, not a subagent's prompt).
   */
  onUserTurns: ((turns: UserTurns[]) => void) | undefined;

  constructor(db: Db, projects: ProjectKeys, logger?: Logger) {
    this.#db = db;
    this.#projects = projects;
    this.#logger = logger;
    this.#index = new SearchIndex(db);
    // No run is under way yet: a deferral left open by a process that stopped mid-run is closed.
    this.#index.endDeferral();
    this.#upper = db.prepare('SELECT MAX(seq) FROM (SELECT seq FROM spool ORDER BY seq LIMIT ?)').pluck();
    this.#moveParts = db.prepare(
      "INSERT OR IGNORE INTO parts (part_id, session_id, provider, role, kind, ts, text, meta) SELECT id, session_id, provider, role, part_kind, ts, text, meta FROM spool WHERE seq <= ? AND kind = 'part' ORDER BY seq",
    );
    this.#sessionsUpTo = db.prepare("SELECT meta FROM spool WHERE seq <= ? AND kind = 'session' ORDER BY seq").pluck();
    this.#upsertSession = db.prepare(`
      INSERT INTO sessions (session_id, provider, source, project_key, cwd, parent_session_id, agent_type, title, first_ts, last_ts, updated_at)
      VALUES (@sessionId, @provider, @source, @projectKey, @cwd, @parentSessionId, @agentType, @title, @firstTs, @lastTs, @now)
      ON CONFLICT(session_id) DO UPDATE SET
        source = COALESCE(sessions.source, excluded.source),
        project_key = COALESCE(sessions.project_key, excluded.project_key),
        cwd = COALESCE(sessions.cwd, excluded.cwd),
        parent_session_id = COALESCE(excluded.parent_session_id, sessions.parent_session_id),
        agent_type = COALESCE(excluded.agent_type, sessions.agent_type),
        title = COALESCE(sessions.title, excluded.title),
        first_ts = CASE WHEN sessions.first_ts IS NULL OR excluded.first_ts < sessions.first_ts THEN excluded.first_ts ELSE sessions.first_ts END,
        last_ts = CASE WHEN sessions.last_ts IS NULL OR excluded.last_ts > sessions.last_ts THEN excluded.last_ts ELSE sessions.last_ts END,
        updated_at = excluded.updated_at`);
    this.#deleteUpTo = db.prepare('DELETE FROM spool WHERE seq <= ?');
    // Run after the sessions upsert and before the parts move, so "new" means not yet committed.
    this.#newUserTurns = db
      .prepare(
        `SELECT s.project_key AS projectKey, MAX(COALESCE(sp.ts, 0)) AS at FROM spool sp JOIN sessions s ON s.session_id = sp.session_id
         WHERE sp.seq <= ? AND sp.kind = 'part' AND sp.role = 'user' AND sp.part_kind = 'text'
           AND s.project_key IS NOT NULL AND s.parent_session_id IS NULL
           AND sp.text NOT LIKE '<command-%' AND sp.text NOT LIKE '<local-command-%' AND sp.text NOT LIKE '<system-reminder>%'
           AND sp.text NOT LIKE 'Caveat: The messages below%' AND sp.text NOT LIKE '[Request interrupted%'
           AND sp.text NOT LIKE '<task-notification>%' AND sp.text NOT LIKE '<user-prompt-submit-hook>%' AND sp.text NOT LIKE '<bash-%'
           AND sp.text NOT LIKE 'This session is being continued from a previous conversation%' AND sp.text NOT LIKE 'Base directory for this skill:%'
           AND NOT EXISTS (SELECT 1 FROM parts p WHERE p.part_id = sp.id)
         GROUP BY s.project_key`,
      );
  }

  /** One bounded step in one transaction. */
  flushStep(maxRows = STEP_ROWS): FlushResult {
    let turned: UserTurns[] = [];
    // Joins a commit window when one is open. Each statement is idempotent (an upsert, an INSERT OR
    // IGNORE, a delete of what was moved), so a step cut short is completed by the next one.
    const result = inTransaction(this.#db, (): FlushResult => {
      const upper = this.#upper.get(maxRows) as number | null;
      if (upper === null) return { rows: 0, partsWritten: 0, sessionsWritten: 0 };
      let sessionsWritten = 0;
      const now = Date.now();
      for (const raw of this.#sessionsUpTo.all(upper) as string[]) {
        // A damaged spooled session row is skipped, never thrown: one bad row must not wedge every
        // later flush. Its parts still commit, and the transcript on disk still holds the session.
        const parsed = SpooledSession.safeParse(parseJsonOrNull(raw));
        if (!parsed.success) continue;
        const s = parsed.data;
        const projectKey = s.cwd ? this.#projects.touch(s.cwd, s.lastTs, now) : null;
        this.#upsertSession.run({ ...s, projectKey, now });
        sessionsWritten += 1;
      }
      if (this.onUserTurns) turned = this.#newUserTurns.all(upper) as UserTurns[];
      const before = this.#index.lastPartRowid();
      const partsWritten = this.#moveParts.run(upper).changes;
      // The full-text index moves with its parts, in the same transaction (or commit window).
      if (partsWritten > 0 && !this.#deferred) this.#index.indexAfter(before);
      const rows = this.#deleteUpTo.run(upper).changes;
      return { rows, partsWritten, sessionsWritten };
    });
    // Outside the transaction: a listener's failure must never roll back committed capture.
    if (turned.length > 0) {
      try {
        this.onUserTurns?.(turned);
      } catch (error) {
        // The sweeper is best-effort; capture goes on.
        this.#logger?.warn('user-turn listener failed', { code: errorCode(error) });
      }
    }
    return result;
  }

  /** The rest of a large run is indexed by the background walk once the run ends (SearchIndex.defer). */
  deferIndexing(): void {
    if (this.#deferred) return;
    this.#index.defer();
    this.#deferred = true;
  }

  resumeIndexing(): void {
    if (!this.#deferred) return;
    this.#index.endDeferral();
    this.#deferred = false;
  }

  /** Flushes everything pending, yielding to the event loop between steps. */
  async drain(): Promise<FlushResult> {
    const total: FlushResult = { rows: 0, partsWritten: 0, sessionsWritten: 0 };
    for (;;) {
      const step = this.flushStep();
      total.rows += step.rows;
      total.partsWritten += step.partsWritten;
      total.sessionsWritten += step.sessionsWritten;
      if (step.rows === 0) return total;
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }

  start(intervalMs: number, onError: (error: unknown) => void): void {
    this.stop();
    this.#timer = setInterval(() => {
      try {
        this.flushStep();
      } catch (error) {
        onError(error);
      }
    }, intervalMs);
    this.#timer.unref();
  }

  stop(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
  }
}
