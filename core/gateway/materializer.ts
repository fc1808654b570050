import type { Statement } from 'better-sqlite3';
import type { PartRow, SessionRow, TranscriptBatch } from '../transcripts/index.js';
import { inTransaction, type Db } from '../store/index.js';
import type { Spool } from './spool.js';
import { Tombstones } from './tombstones.js';

/** An opaque object, fresh per provider invocation; the materializer keys in-run state by it. */
export type RunToken = object;

interface RunState {
  emitted: Set<string>;
  /** The spool's pending ids, snapshotted once per run on first use. */
  spooled: Set<string> | undefined;
  /** What this run last emitted per session, so an unchanged session is not spooled twice. */
  sessions: Map<string, string>;
  /**
   * Sessions that had no committed part when this run first met them: every committed part of such
   * a session is one this run emitted, so `emitted` answers for it and the cache is not probed.
   */
  fresh: Set<string>;
  /** Sessions met and found with committed parts: their candidates are probed. */
  known: Set<string>;
}

interface CommittedSession {
  session_id: string;
  cwd: string | null;
  parent_session_id: string | null;
  agent_type: string | null;
  title: string | null;
  first_ts: number | null;
  last_ts: number | null;
}

export interface MaterializeResult {
  partsAppended: number;
  sessionsAppended: number;
  /** Characters of part text appended: what a commit of these rows will have to write. */
  textAppended: number;
  /** Parts held back on purpose: their session or project was forgotten, or its folder is excluded. */
  withheld: { forgotten: number; excluded: number };
}

/**
 * What may be captured (history): sessions in a folder the configuration excludes never are. A
 * forgotten session or project (a tombstone) is checked on every batch, so forgetting one while a
 * run is reading it takes effect at once.
 */
export interface CapturePolicy {
  projectKeyOf(cwd: string): string;
  excluded(cwd: string): boolean;
}

type Withheld = keyof MaterializeResult['withheld'];

/** Probe statements come in a few fixed widths; a short list is padded by repeating its last id. */
const WIDTHS = [1, 8, 64, 256] as const;

function widthFor(n: number): number {
  return WIDTHS.find((w) => w >= n) ?? WIDTHS[WIDTHS.length - 1]!;
}

function padded(ids: string[], width: number): string[] {
  const out = ids.slice(0, width);
  while (out.length < width) out.push(out[out.length - 1]!);
  return out;
}

function signature(s: SessionRow): string {
  return JSON.stringify([s.cwd, s.parentSessionId, s.agentType, s.title, s.firstTs, s.lastTs]);
}

function addsToCommitted(next: SessionRow, row: CommittedSession): boolean {
  return (
    (row.cwd === null && next.cwd !== null) ||
    (row.parent_session_id === null && next.parentSessionId !== null) ||
    (next.agentType !== null && next.agentType !== row.agent_type) ||
    (row.title === null && next.title !== null) ||
    (next.firstTs !== null && (row.first_ts === null || next.firstTs < row.first_ts)) ||
    (next.lastTs !== null && (row.last_ts === null || next.lastTs > row.last_ts))
  );
}

/**
 * Turns projected batches into spool rows exactly once. Committed rows are probed only for the
 * batch's candidate part ids, grouped by session id so each probe is a range on
 * parts(session_id, part_id); the committed identity set is never loaded.
 */
export class Materializer {
  readonly #db: Db;
  readonly #spool: Spool;
  readonly #runs = new WeakMap<RunToken, RunState>();
  readonly #partProbes = new Map<number, Statement>();
  readonly #sessionProbes = new Map<number, Statement>();
  readonly #anyPart: Statement;
  readonly #tombstones: Tombstones;
  readonly #policy: CapturePolicy | undefined;

  constructor(db: Db, spool: Spool, policy?: CapturePolicy) {
    this.#db = db;
    this.#spool = spool;
    this.#tombstones = new Tombstones(db);
    this.#policy = policy;
    // One row at most, from the session's range of parts(session_id, part_id).
    this.#anyPart = db.prepare('SELECT 1 FROM parts WHERE session_id = ? LIMIT 1').pluck();
  }

  materialize(token: RunToken, batch: TranscriptBatch): MaterializeResult {
    const state = this.#state(token);
    const result: MaterializeResult = { partsAppended: 0, sessionsAppended: 0, textAppended: 0, withheld: { forgotten: 0, excluded: 0 } };
    batch = this.#admitted(batch, result.withheld);
    // Joins a commit window when one is open: a half-done batch leaves valid spool rows, and the
    // in-run state below records each row only once it was appended.
    inTransaction(this.#db, () => {
      // Sessions first: a sink step that commits a part has already committed its session row.
      for (const session of this.#changedSessions(state, batch.sessions)) {
        this.#spool.appendSession(session);
        state.sessions.set(session.sessionId, signature(session));
        result.sessionsAppended += 1;
      }
      for (const part of this.#novelParts(state, batch.parts)) {
        this.#spool.appendPart(part);
        state.emitted.add(part.partId);
        result.partsAppended += 1;
        result.textAppended += part.text?.length ?? 0;
      }
    });
    return result;
  }

  /** The batch without the sessions (and their parts) that must not be captured, counted by reason. */
  #admitted(batch: TranscriptBatch, counts: MaterializeResult['withheld']): TranscriptBatch {
    const held = new Map<string, Withheld>();
    for (const session of batch.sessions) {
      const reason = this.#withheld(session);
      if (reason) held.set(session.sessionId, reason);
    }
    // A part whose session row is not in the batch is still checked by its own id.
    const checked = new Set(batch.sessions.map((s) => s.sessionId));
    for (const { sessionId } of batch.parts) {
      if (checked.has(sessionId)) continue;
      checked.add(sessionId);
      if (this.#tombstones.forgets({ sessionId, parentSessionId: null }, null)) held.set(sessionId, 'forgotten');
    }
    if (held.size === 0) return batch;
    const parts = batch.parts.filter((part) => {
      const reason = held.get(part.sessionId);
      if (reason) counts[reason] += 1;
      return reason === undefined;
    });
    return { parts, sessions: batch.sessions.filter((s) => !held.has(s.sessionId)) };
  }

  #withheld(session: SessionRow): Withheld | undefined {
    if (session.cwd !== null && this.#policy?.excluded(session.cwd)) return 'excluded';
    const projectKey = session.cwd !== null && this.#policy ? this.#policy.projectKeyOf(session.cwd) : null;
    return this.#tombstones.forgets(session, projectKey) ? 'forgotten' : undefined;
  }

  /** True while the token's run has state; completed runs are collected with their token. */
  hasRun(token: RunToken): boolean {
    return this.#runs.has(token);
  }

  #state(token: RunToken): RunState {
    let state = this.#runs.get(token);
    if (!state) {
      state = { emitted: new Set(), spooled: undefined, sessions: new Map(), fresh: new Set(), known: new Set() };
      this.#runs.set(token, state);
    }
    state.spooled ??= this.#spool.pendingPartIds();
    return state;
  }

  #novelParts(state: RunState, parts: PartRow[]): PartRow[] {
    const bySession = new Map<string, Map<string, PartRow>>();
    for (const part of parts) {
      if (state.emitted.has(part.partId) || state.spooled?.has(part.partId)) continue;
      let group = bySession.get(part.sessionId);
      if (!group) bySession.set(part.sessionId, (group = new Map()));
      if (!group.has(part.partId)) group.set(part.partId, part);
    }
    const novel: PartRow[] = [];
    for (const [sessionId, group] of bySession) {
      if (this.#isFresh(state, sessionId)) {
        novel.push(...group.values());
        continue;
      }
      const committed = this.#probeParts(sessionId, [...group.keys()]);
      for (const [partId, part] of group) if (!committed.has(partId)) novel.push(part);
    }
    return novel;
  }

  /** Asked once per session and run: a session new to the cache needs no candidate probes. */
  #isFresh(state: RunState, sessionId: string): boolean {
    if (state.fresh.has(sessionId)) return true;
    if (state.known.has(sessionId)) return false;
    const fresh = this.#anyPart.get(sessionId) === undefined;
    (fresh ? state.fresh : state.known).add(sessionId);
    return fresh;
  }

  /** Answers each candidate once and stops when all of them are answered. */
  #probeParts(sessionId: string, candidates: string[]): Set<string> {
    const found = new Set<string>();
    for (let i = 0; i < candidates.length; ) {
      const width = widthFor(candidates.length - i);
      const chunk = candidates.slice(i, i + width);
      const stmt = this.#statement(this.#partProbes, width, (marks) => `SELECT part_id FROM parts WHERE session_id = ? AND part_id IN (${marks})`);
      for (const id of stmt.pluck().all(sessionId, ...padded(chunk, width)) as string[]) found.add(id);
      i += chunk.length;
    }
    return found;
  }

  #changedSessions(state: RunState, sessions: SessionRow[]): SessionRow[] {
    const pending = sessions.filter((s) => state.sessions.get(s.sessionId) !== signature(s));
    if (pending.length === 0) return [];
    const committed = new Map<string, CommittedSession>();
    const ids = pending.map((s) => s.sessionId);
    for (let i = 0; i < ids.length; ) {
      const width = widthFor(ids.length - i);
      const chunk = ids.slice(i, i + width);
      const stmt = this.#statement(
        this.#sessionProbes,
        width,
        (marks) => `SELECT session_id, cwd, parent_session_id, agent_type, title, first_ts, last_ts FROM sessions WHERE session_id IN (${marks})`,
      );
      for (const row of stmt.all(...padded(chunk, width)) as CommittedSession[]) committed.set(row.session_id, row);
      i += chunk.length;
    }
    return pending.filter((s) => {
      const row = committed.get(s.sessionId);
      return row === undefined || addsToCommitted(s, row);
    });
  }

  #statement(cache: Map<number, Statement>, width: number, sql: (marks: string) => string): Statement {
    let stmt = cache.get(width);
    if (!stmt) {
      stmt = this.#db.prepare(sql(new Array<string>(width).fill('?').join(', ')));
      cache.set(width, stmt);
    }
    return stmt;
  }
}
