import type { Db } from '../store/index.js';
import { lineTimeSql, SHOWN_TS_SQL } from './placed.js';
import { CONVERSATION } from './sessions.js';

/** A session row with the counts the index keeps for it (zero until its parts are indexed). */
export interface SessionRecord {
  sessionId: string;
  provider: string;
  source: string | null;
  projectKey: string | null;
  parentSessionId: string | null;
  /** A subagent the parent started, or a conversation branched (forked) from it. */
  parentKind: 'subagent' | 'branch' | null;
  title: string | null;
  /** The first request capture kept, bounded and without the context an app put before the person's words. */
  firstRequest: string | null;
  agentType: string | null;
  /** The model the provider's parser stored for the session (null for rows stored before it did). */
  model: string | null;
  firstTs: number | null;
  lastTs: number | null;
  parts: number;
  messages: number;
  toolCalls: number;
  subagents: number;
}

/** One part in conversation order; `place` and `rowid` are its place in that order (its PartKey). */
export interface OrderedPart {
  rowid: number;
  partId: string;
  role: string | null;
  kind: string;
  /** Its line's time, null when the line has none (then its place is not a time anyone wrote). */
  ts: number | null;
  /** Its line's time, or for a line without one, the time capture placed it at (see placed.ts); null for such a line stored before. */
  place: number | null;
  text: string | null;
  meta: string | null;
  /** The person's own words, as the parser marked them once (`genuine_user_turn`, see PART_FLAGS in transcripts/). */
  genuineUserTurn: boolean;
  /** The summary the harness wrote, in the user's role, to continue a compacted conversation (`is_compact_summary`). */
  isCompactSummary: boolean;
}

/**
 * A row as read, its flags as SQLite keeps them. Its time as shown is read as `shownTs`, not `ts`: an
 * ORDER BY ts would take a result column of that name before the table's, and leave the index.
 */
type PartRow = Omit<OrderedPart, 'ts' | 'genuineUserTurn' | 'isCompactSummary'> & { shownTs: number | null; genuineUserTurn: number; isCompactSummary: number };

const ordered = (rows: unknown[]): OrderedPart[] =>
  (rows as PartRow[]).map(({ shownTs, ...r }) => ({ ...r, ts: shownTs, genuineUserTurn: r.genuineUserTurn === 1, isCompactSummary: r.isCompactSummary === 1 }));

/** A position in a conversation: parts order by line time (a placed line's place), then by when they were stored. */
export interface PartKey {
  ts: number | null;
  rowid: number;
}

export interface SessionListFilter {
  projectKey?: string | undefined;
  provider?: string | undefined;
  /** Only sessions the provider's app of this kind wrote (sessions.source: Claude Desktop's `desktop`). */
  source?: string | undefined;
  fromMs?: number | undefined;
  toMs?: number | undefined;
  /** The last row of the previous page. */
  after?: { lastTs: number; sessionId: string } | undefined;
  limit: number;
}

/**
 * A conversation's first and last times as read (lineTimeSql): null when no line can hold them, as a
 * store an older build wrote may (1e300), so a duration is only ever of two times a Date holds. A list
 * orders, filters and pages by the same value it shows, so a page's cursor (its last row's) goes on from it.
 */
const FIRST_TS = lineTimeSql('s.first_ts');
const LAST_TS = lineTimeSql('s.last_ts');
const LISTED_LAST = `IFNULL(${LAST_TS}, 0)`;

const RECORD = `s.session_id AS sessionId, s.provider, s.source, s.project_key AS projectKey, s.parent_session_id AS parentSessionId,
  CASE WHEN s.parent_session_id IS NULL THEN NULL WHEN s.parent_kind = 'branch' THEN 'branch' ELSE 'subagent' END AS parentKind, s.title, s.first_request AS firstRequest, s.agent_type AS agentType, s.model, ${FIRST_TS} AS firstTs, ${LAST_TS} AS lastTs,
  IFNULL(st.parts, 0) AS parts, IFNULL(st.messages, 0) AS messages, IFNULL(st.tool_calls, 0) AS toolCalls,
  (SELECT COUNT(*) FROM sessions c WHERE c.parent_session_id = s.session_id AND c.parent_kind IS NOT 'branch') AS subagents`;
const FROM = 'FROM sessions s LEFT JOIN session_stats st ON st.session_id = s.session_id';
/** Whether a part's meta names the call id `@id` (a meta that is no JSON names none, as the JSON reading of it does). */
const ANSWERS = "(CASE WHEN json_valid(meta) THEN json_type(meta, '$.toolUseId') = 'text' AND json_extract(meta, '$.toolUseId') = @id ELSE 0 END)";
/** The call id a part's meta names (`toolUseId`), null for a meta that is no JSON (json_extract would throw). */
const CALL_ID = "(CASE WHEN json_valid(meta) THEN json_extract(meta, '$.toolUseId') END)";
const PART = `rowid, part_id AS partId, role, kind, ${SHOWN_TS_SQL} AS shownTs, ts AS place, text, meta, genuine_user_turn AS genuineUserTurn, is_compact_summary AS isCompactSummary`;
/** Strictly after (ts, rowid) in conversation order; a NULL ts sorts first, as the index keeps it. */
const AFTER = `(@ts IS NULL AND (ts IS NOT NULL OR rowid > @rowid)) OR ts > @ts OR (ts = @ts AND rowid > @rowid)`;
/**
 * The same after a part that has a time, as a range SQLite seeks to in parts(session_id, ts): under
 * AFTER's ORs it walked the index from the conversation's start on every page, so a page near the end
 * of a 149k-part conversation took 12–17 ms instead of 1.5, and a whole export read quadratically.
 */
const AFTER_TIMED = `ts >= @ts AND (ts > @ts OR rowid > @rowid)`;
const BEFORE = `(@ts IS NULL AND ts IS NULL AND rowid < @rowid) OR (@ts IS NOT NULL AND (ts IS NULL OR ts < @ts OR (ts = @ts AND rowid < @rowid)))`;
/** The timed parts strictly before a part that has a time, as a range (see AFTER_TIMED); the untimed ones come after them. */
const BEFORE_TIMED = `ts <= @ts AND (ts < @ts OR rowid < @rowid)`;

/**
 * Whether session `id` holds a part whose time (or place: a line with no time is placed, as search's date
 * filter keys it) is in [@fromMs, @toMs]: a conversation is listed for a date range by a message in it,
 * as a search of it finds one, not by its first-to-last span (a conversation of 20 Nov and 5 Dec has
 * nothing on 23 Nov). The span's overlap is kept before it as a cheap first cut; this is a seek in
 * parts(session_id, ts) per conversation left.
 */
const IN_RANGE = (id: string) =>
  `EXISTS (SELECT 1 FROM parts r INDEXED BY parts_session_ts WHERE r.session_id = ${id} AND r.ts BETWEEN IFNULL(@fromMs, ${Number.MIN_SAFE_INTEGER}) AND IFNULL(@toMs, ${Number.MAX_SAFE_INTEGER}))`;

/**
 * What history reads of sessions and parts: lists, one conversation in order a page at a time, and
 * its subagents. Parts are walked on parts(session_id, ts); nothing scans the parts table whole.
 */
export class HistoryReader {
  readonly #list;
  readonly #one;
  readonly #children;
  readonly #childIds;
  readonly #forward;
  readonly #forwardTimed;
  readonly #backward;
  readonly #backwardTimed;
  readonly #keyOf;
  readonly #firstUserTexts;
  readonly #firstAssistantMeta;
  readonly #toolUsesUpTo;
  readonly #callsAnswering;
  readonly #resultsAnswering;

  constructor(db: Db) {
    this.#list = db.prepare(
      `SELECT ${RECORD} ${FROM}
       WHERE ${CONVERSATION.replaceAll('parent_', 's.parent_')}
         AND (@projectKey IS NULL OR s.project_key = @projectKey) AND (@provider IS NULL OR s.provider = @provider) AND (@source IS NULL OR s.source = @source)
         AND (@fromMs IS NULL OR ${LISTED_LAST} >= @fromMs) AND (@toMs IS NULL OR IFNULL(${FIRST_TS}, 0) <= @toMs)
         AND ((@fromMs IS NULL AND @toMs IS NULL) OR ${IN_RANGE('s.session_id')} OR EXISTS (SELECT 1 FROM sessions c WHERE c.parent_session_id = s.session_id AND c.parent_kind IS NOT 'branch' AND ${IN_RANGE('c.session_id')}))
         AND (@afterTs IS NULL OR ${LISTED_LAST} < @afterTs OR (${LISTED_LAST} = @afterTs AND s.session_id < @afterId))
       ORDER BY ${LISTED_LAST} DESC, s.session_id DESC LIMIT @limit`,
    );
    this.#one = db.prepare(`SELECT ${RECORD} ${FROM} WHERE s.session_id = ?`);
    // A subagent belongs to its parent's conversation; a session branched from it is a conversation of its own.
    this.#children = db.prepare(`SELECT ${RECORD} ${FROM} WHERE s.parent_session_id = ? AND s.parent_kind IS NOT 'branch' ORDER BY IFNULL(s.first_ts, 0), s.session_id`);
    this.#childIds = db.prepare(`SELECT session_id FROM sessions WHERE parent_session_id = ? AND parent_kind IS NOT 'branch' ORDER BY IFNULL(first_ts, 0), session_id`).pluck();
    this.#forward = db.prepare(`SELECT ${PART} FROM parts WHERE session_id = @sessionId AND (@start OR ${AFTER}) ORDER BY ts, rowid LIMIT @limit`);
    this.#forwardTimed = db.prepare(`SELECT ${PART} FROM parts WHERE session_id = @sessionId AND ${AFTER_TIMED} ORDER BY ts, rowid LIMIT @limit`);
    this.#backward = db.prepare(`SELECT ${PART} FROM parts WHERE session_id = @sessionId AND (${BEFORE}) ORDER BY ts DESC, rowid DESC LIMIT @limit`);
    this.#backwardTimed = db.prepare(`SELECT ${PART} FROM parts WHERE session_id = @sessionId AND ${BEFORE_TIMED} ORDER BY ts DESC, rowid DESC LIMIT @limit`);
    this.#keyOf = db.prepare('SELECT session_id AS sessionId, ts, rowid FROM parts WHERE part_id = ?');
    // The person's own words, as the parser marked them once (genuine_user_turn): never a command echo or a
    // hook's output. A subagent's prompt (its parent agent's words, a sidechain line) names the subagent.
    this.#firstUserTexts = db.prepare(
      "SELECT text, meta FROM parts WHERE session_id = ? AND role = 'user' AND kind = 'text' AND (genuine_user_turn = 1 OR (is_sidechain = 1 AND is_meta = 0)) ORDER BY ts, rowid LIMIT ?",
    );
    this.#firstAssistantMeta = db.prepare("SELECT meta FROM parts WHERE session_id = ? AND role = 'assistant' AND meta IS NOT NULL ORDER BY ts, rowid LIMIT ?").pluck();
    this.#toolUsesUpTo = db.prepare("SELECT part_id AS partId, meta, ts, rowid FROM parts WHERE session_id = ? AND kind = 'tool_use' AND ts <= ? ORDER BY ts DESC, rowid DESC LIMIT ?");
    // The call id is read in SQL (no meta parsed in JS), and a call's text only for the one that answers.
    this.#callsAnswering = db.prepare(
      `SELECT part_id AS partId, meta, ${ANSWERS} AS answers, CASE WHEN ${ANSWERS} THEN text END AS text
       FROM parts WHERE session_id = @sessionId AND kind = 'tool_use' AND ts <= @ts ORDER BY ts DESC, rowid DESC LIMIT @limit`,
    );
    // A seek in parts(session_id, ts) to the next @limit results; only those answering @ids (a JSON list) are read whole.
    this.#resultsAnswering = db.prepare(
      `SELECT ${CALL_ID} AS toolUseId, text FROM parts
       WHERE rowid IN (SELECT rowid FROM parts WHERE session_id = @sessionId AND kind = 'tool_result' AND ts >= @ts ORDER BY ts, rowid LIMIT @limit)
         AND ${CALL_ID} IN (SELECT value FROM json_each(@ids))`,
    );
  }

  /** Conversations (no subagents), most recently active first, after the previous page's last row. */
  list(filter: SessionListFilter): SessionRecord[] {
    return this.#list.all({
      projectKey: filter.projectKey ?? null,
      provider: filter.provider ?? null,
      source: filter.source ?? null,
      fromMs: filter.fromMs ?? null,
      toMs: filter.toMs ?? null,
      afterTs: filter.after?.lastTs ?? null,
      afterId: filter.after?.sessionId ?? null,
      limit: filter.limit,
    }) as SessionRecord[];
  }

  session(sessionId: string): SessionRecord | undefined {
    return this.#one.get(sessionId) as SessionRecord | undefined;
  }

  subagents(sessionId: string): SessionRecord[] {
    return this.#children.all(sessionId) as SessionRecord[];
  }

  /** The ids of `subagents`, in the same order: an export reads each one as it writes it. */
  subagentIds(sessionId: string): string[] {
    return this.#childIds.all(sessionId) as string[];
  }

  /** Up to `limit` parts after `after` (from the start when null), in conversation order. */
  partsAfter(sessionId: string, after: PartKey | null, limit: number): OrderedPart[] {
    // Parts without a time sort first, so only a page inside them walks from the start (past them alone).
    if (after !== null && after.ts !== null) return ordered(this.#forwardTimed.all({ sessionId, ts: after.ts, rowid: after.rowid, limit }));
    return ordered(this.#forward.all({ sessionId, start: after === null ? 1 : 0, ts: null, rowid: after?.rowid ?? 0, limit }));
  }

  /** Up to `limit` parts before `before`, nearest first (reverse conversation order). */
  partsBefore(sessionId: string, before: PartKey, limit: number): OrderedPart[] {
    if (before.ts === null) return ordered(this.#backward.all({ sessionId, ts: null, rowid: before.rowid, limit }));
    // Sought as a range, not walked from the conversation's end; a page that reaches its start goes on
    // into the parts without a time, which sort first.
    const timed = ordered(this.#backwardTimed.all({ sessionId, ts: before.ts, rowid: before.rowid, limit }));
    if (timed.length === limit) return timed;
    return [...timed, ...ordered(this.#backward.all({ sessionId, ts: null, rowid: Number.MAX_SAFE_INTEGER, limit: limit - timed.length }))];
  }

  /** Where a part sits (its place, see OrderedPart), and in which session. */
  partKey(partId: string): (PartKey & { sessionId: string }) | undefined {
    return this.#keyOf.get(partId) as (PartKey & { sessionId: string }) | undefined;
  }

  /** The session's first user texts in order (the caller picks the first genuine one). */
  firstUserTexts(sessionId: string, limit: number): Array<{ text: string | null; meta: string | null }> {
    return this.#firstUserTexts.all(sessionId, limit) as Array<{ text: string | null; meta: string | null }>;
  }

  /** Facts of the session's first assistant parts (a provider may record the model there). */
  firstAssistantMeta(sessionId: string, limit: number): string[] {
    return this.#firstAssistantMeta.all(sessionId, limit) as string[];
  }

  /**
   * The tool call whose id (its meta's toolUseId) is `toolUseId`, among the session's `limit` calls at or
   * before `ts`, walked nearest first and no further than the first that has it: what a tool output answers.
   */
  callAnswering(sessionId: string, ts: number, toolUseId: string, limit: number): { partId: string; meta: string | null; text: string | null } | undefined {
    for (const row of this.#callsAnswering.iterate({ sessionId, ts, id: toolUseId, limit }) as Iterable<{ partId: string; meta: string | null; answers: number; text: string | null }>) {
      // Leaving the loop ends the walk (the iterator is returned, the statement reset).
      if (row.answers === 1) return { partId: row.partId, meta: row.meta, text: row.text };
    }
    return undefined;
  }

  /** The session's tool calls at or before `ts`, nearest first, with where each sits: where a subagent was started. */
  toolUsesUpTo(sessionId: string, ts: number, limit: number): Array<{ partId: string; meta: string | null; ts: number; rowid: number }> {
    return this.#toolUsesUpTo.all(sessionId, ts, limit) as Array<{ partId: string; meta: string | null; ts: number; rowid: number }>;
  }

  /**
   * The results of the calls `toolUseIds` among the session's next `limit` tool results at or after
   * `ts`, by the call each answers: what a Task's result says of the subagent it started.
   */
  resultsAnswering(sessionId: string, ts: number, toolUseIds: readonly string[], limit: number): Array<{ toolUseId: string; text: string | null }> {
    return this.#resultsAnswering.all({ sessionId, ts, ids: JSON.stringify(toolUseIds), limit }) as Array<{ toolUseId: string; text: string | null }>;
  }
}
