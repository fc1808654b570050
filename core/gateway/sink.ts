import type { Statement } from 'better-sqlite3';
import { z } from 'zod';
import { TITLE_SOURCES, type ProviderId } from '../api/index.js';
import { errorCode, type Logger } from '../log/index.js';
import { inTransaction, type Db } from '../store/index.js';
import { blankSession, COPIED_ID_PROVIDERS, countsAsMessage, messageOf, namedBlock, PART_FLAGS, startsMessage, type PartRow } from '../transcripts/index.js';
import { turn } from './pace.js';
import { SearchIndex } from './search-index.js';
import { CONVERSATION, mergeSession, type CommittedSession, type MergedSession, type SessionUpdate } from './sessions.js';
import { padded, widthFor } from './widths.js';

/** A spooled session row; fields added since a row may have been spooled by an older version default. */
const SpooledSession = z.object({
  sessionId: z.string(),
  provider: z.string(),
  source: z.string().nullable(),
  cwd: z.string().nullable(),
  parentSessionId: z.string().nullable(),
  parentKind: z.enum(['subagent', 'branch']).nullable().default(null),
  parentMissing: z.boolean().default(false),
  followsMessage: z.string().nullable().default(null),
  agentType: z.string().nullable(),
  agentTypeSource: z.enum(['sidecar', 'task']).nullable().default('sidecar'),
  title: z.string().nullable(),
  titleSource: z.enum(TITLE_SOURCES).nullable().default(null),
  projectCwd: z.string().nullable().default(null),
  ownFile: z.boolean().default(false),
  model: z.string().nullable().default(null),
  firstRequest: z.string().nullable().default(null),
  firstTs: z.number().nullable(),
  lastTs: z.number().nullable(),
  updateOnly: z.boolean().default(false),
});

/** A stored part's row as a refresh compares it. */
interface StoredRow {
  rowid: number;
  ts: number | null;
  role: string | null;
  kind: string;
  text: string | null;
  meta: string | null;
  is_meta: number;
  is_compact_summary: number;
  is_sidechain: number;
  genuine_user_turn: number;
  content_key: string | null;
}

/** A project that received new genuine user turns in a committed step, and the newest one's time. */
export interface UserTurns {
  projectKey: string;
  /** UTC ms of the newest new turn. */
  at: number;
}

/** Where a session's working directory becomes a project key (the projects room, wired by capture). */
export interface ProjectKeys {
  /** The project's key, its row made if new (a session's time is not recorded: see ProjectStore.touch). */
  touch(cwd: string, now?: number): string;
  /** The key without recording anything (is this project forgotten?). */
  keyOf(cwd: string): string;
  /** Sessions moved out of this project; the projects room decides whether its row stays. */
  vacated(projectKey: string): boolean;
}

export interface FlushResult {
  rows: number;
  partsWritten: number;
  /** The messages among those parts (see countsAsMessage): counted as they land, never read back. */
  messagesWritten: number;
  sessionsWritten: number;
}

/** A run's write: with the refreshed parts it rewrote (a refreshed part that differs in nothing writes nothing). */
export interface WriteResult extends FlushResult {
  partsRefreshed: number;
  /** Characters of text those rewrites wrote: what their commit will have to write. */
  textRefreshed: number;
  /** Message lines a stored part's id came with again in other words, not kept (SKIP_REASONS' `differing_copy`). */
  copiesDiffering: number;
}

const STEP_ROWS = 250;
/** How far up a chain of parents #descendsFrom looks: conversations branch a few times, not hundreds. */
const MAX_DEPTH = 64;

/** Messages continuations wait for (Sink.#follow), kept in memory: the oldest go past this. */
const MAX_AWAITED = 4096;


/**
 * The messages of a write's parts that hold the person's own words (see countsAsMessage): a message's
 * parts are read together, so its tool result and the words after it are in the same write.
 */
function spokenMessages(parts: readonly PartRow[]): Set<string> {
  const spoken = new Set<string>();
  for (const p of parts) if ((p.flags & PART_FLAGS.genuineUserTurn) !== 0) spoken.add(messageOf(p.partId));
  return spoken;
}

/** A cut text's facts in a part's meta (bounds' Truncated): the whole's length and hash. */
function wholeOf(meta: string | null): { length?: unknown; sha256?: unknown } | undefined {
  if (meta === null || !meta.includes('"truncated"')) return undefined;
  const truncated = (parseJsonOrNull(meta) as { truncated?: unknown } | null)?.truncated;
  return truncated !== null && typeof truncated === 'object' ? (truncated as { length?: unknown; sha256?: unknown }) : undefined;
}

/**
 * Whether a copy's words differ from a stored part's. Two cut texts are compared by their wholes
 * (length and hash), not by what each kept: a parser that cuts another way (a tool result's start
 * and end, not its start alone) keeps other words of the same text, so a copy read before its own
 * file after such a change is no copy in other words; and two wholes that differ only where both
 * left it out still differ.
 */
function copyDiffers(stored: { text: string | null; meta: string | null }, copy: PartRow): boolean {
  const held = wholeOf(stored.meta);
  const read = held && wholeOf(copy.meta);
  if (read !== undefined) return held!.sha256 !== read.sha256 || held!.length !== read.length;
  return stored.text !== copy.text;
}

function parseJsonOrNull(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/**
 * Writes sessions and parts into the committed tables: a run's rows straight from the materializer
 * (`write`, in the run's commit window), and rows still in the spool — an older version's — one
 * bounded transaction per step. The timer tick flushes one step and never awaits transcript work; a
 * provider run drains the rest at its end.
 */
export class Sink {
  readonly #db: Db;
  readonly #projects: ProjectKeys;
  readonly #logger: Logger | undefined;
  readonly #upper;
  readonly #moveParts;
  readonly #sessionsUpTo;
  readonly #committed;
  readonly #exists;
  readonly #upsertSession;
  readonly #adoptSubagents;
  readonly #messageHolder;
  readonly #adoptFollower;
  readonly #parentOf;
  /** Message (part id prefix) → the sessions whose first line follows it, waiting for it to be stored (see #follow). */
  readonly #awaited = new Map<string, Set<string>>();
  readonly #deleteUpTo;
  readonly #insertPart;
  readonly #storedPart;
  readonly #textProbes = new Map<number, Statement>();
  readonly #refreshPart;
  readonly #placePart;
  readonly #conversationProject;
  readonly #earlierOfMessage;
  readonly #index: SearchIndex;
  readonly #sessionsOf;
  #deferred = false;
  /**
   * Nothing in this version writes the spool (see Spool): once a step of its own transaction found it
   * empty, it stays empty, and a step no longer opens a transaction to look. An unchanged tick drains
   * once per provider, and that first read of the file cost 0.5–2 ms of a 25 ms tick.
   */
  #spoolEmpty = false;
  #timer: NodeJS.Timeout | undefined;
  /**
   * Sweeper hook (spec 001): told, after each write, which projects received a new genuine user turn
   * (a new part whose `genuine_user_turn` flag the parser set) in a conversation. Rows an older
   * version left in the spool carry no flag and tell nothing.
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
      // Rows an older version spooled carry no flags; reading their file again refreshes them.
      "INSERT OR IGNORE INTO parts (part_id, session_id, provider, role, kind, ts, text, meta) SELECT id, session_id, provider, role, part_kind, ts, text, meta FROM spool WHERE seq <= ? AND kind = 'part' ORDER BY seq RETURNING part_id, kind, role",
    ).raw();
    this.#sessionsUpTo = db.prepare("SELECT meta FROM spool WHERE seq <= ? AND kind = 'session' ORDER BY seq").pluck();
    this.#committed = db.prepare(
      'SELECT source, project_key, cwd, project_cwd, parent_session_id, parent_kind, agent_type, title, title_source, model, first_request, first_ts, last_ts FROM sessions WHERE session_id = ?',
    );
    this.#exists = db.prepare('SELECT 1 FROM sessions WHERE session_id = ?').pluck();
    this.#sessionsOf = db.prepare('SELECT session_id, provider, source FROM sessions WHERE project_key = ?').raw();
    // Every column is decided by mergeSession; the statement only writes the outcome.
    this.#upsertSession = db.prepare(`
      INSERT INTO sessions (session_id, provider, source, project_key, cwd, project_cwd, parent_session_id, parent_kind, agent_type, title, title_source, model, first_request, first_ts, last_ts, updated_at)
      VALUES (@sessionId, @provider, @source, @projectKey, @cwd, @projectCwd, @parentSessionId, @parentKind, @agentType, @title, @titleSource, @model, @firstRequest, @firstTs, @lastTs, @now)
      ON CONFLICT(session_id) DO UPDATE SET
        source = excluded.source, project_key = excluded.project_key, cwd = excluded.cwd, project_cwd = excluded.project_cwd,
        parent_session_id = excluded.parent_session_id, parent_kind = excluded.parent_kind, agent_type = excluded.agent_type,
        title = excluded.title, title_source = excluded.title_source, model = excluded.model, first_request = excluded.first_request,
        first_ts = excluded.first_ts, last_ts = excluded.last_ts, updated_at = excluded.updated_at`);
    // The `{id}:agent-…` range of the primary key (see subagentParentOf): a seek, never a scan. The
    // unary `+` keeps the planner off sessions_parent, where IS NULL is every conversation.
    this.#adoptSubagents = db.prepare(
      `UPDATE sessions SET parent_session_id = @id, parent_kind = 'subagent', updated_at = @now
       WHERE session_id >= @id || ':agent-' AND session_id < @id || ':agent.' AND +parent_session_id IS NULL`,
    );
    // A range of the part_id key: the parts of one message, whichever session holds them.
    this.#messageHolder = db.prepare('SELECT session_id, provider FROM parts WHERE part_id > ? AND part_id < ? LIMIT 1').raw();
    this.#parentOf = db.prepare('SELECT parent_session_id FROM sessions WHERE session_id = ?').pluck();
    this.#adoptFollower = db.prepare(
      `UPDATE sessions SET parent_session_id = @parent, parent_kind = 'branch', updated_at = @now
       WHERE session_id = @id AND parent_session_id IS NULL AND provider = @provider`,
    );
    this.#deleteUpTo = db.prepare('DELETE FROM spool WHERE seq <= ?');
    this.#insertPart = db.prepare(
      `INSERT OR IGNORE INTO parts (part_id, session_id, provider, role, kind, ts, ts_inferred, text, meta, is_meta, is_compact_summary, is_sidechain, genuine_user_turn, content_key)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.#storedPart = db.prepare(
      'SELECT rowid, ts, role, kind, text, meta, is_meta, is_compact_summary, is_sidechain, genuine_user_turn, content_key FROM parts WHERE part_id = ? AND session_id = ?',
    );
    // A part read again by a newer parser: what it is may have changed, which session holds it may not.
    this.#refreshPart = db.prepare(
      `UPDATE parts SET role = ?, kind = ?, text = ?, meta = ?, is_meta = ?, is_compact_summary = ?, is_sidechain = ?, genuine_user_turn = ?, content_key = ?
       WHERE part_id = ? AND session_id = ?`,
    );
    // A part stored with no time before gateway step 29 takes its place (placed.ts); a stored time is never replaced.
    this.#placePart = db.prepare('UPDATE parts SET ts = ?, ts_inferred = 1 WHERE part_id = ? AND session_id = ? AND ts IS NULL');
    this.#conversationProject = db.prepare(`SELECT project_key FROM sessions WHERE session_id = ? AND project_key IS NOT NULL AND ${CONVERSATION}`).pluck();
    // A part of the same message stored before this one (a range of the part_id key): see startsMessage.
    this.#earlierOfMessage = db.prepare('SELECT 1 FROM parts WHERE part_id > ? AND part_id < ? AND rowid < ? LIMIT 1').pluck();
  }

  /**
   * A project's stored sessions (subagents too) as rows that change nothing they hold (update-only,
   * every field unsaid): written again (`write`), each takes the project key its folder has now
   * (mergeSession), the project left is vacated and the search tags move.
   */
  storedOf(projectKey: string): SessionUpdate[] {
    return (this.#sessionsOf.all(projectKey) as Array<[string, string, string | null]>).map(([sessionId, provider, source]) => ({
      ...blankSession(sessionId, provider as ProviderId, ''),
      provider,
      source,
      updateOnly: true,
    }));
  }

  /**
   * A run's new rows, in the caller's transaction (its commit window): sessions first, so a part's
   * session row is committed with or before it. A part id the cache holds already (a copy of a line
   * under another session) is not written again and not counted. `refreshed` parts are rows of their
   * own session the cache holds, read again from a file's start: their derived fields are rewritten.
   * `places`: where each part without a time sits in its conversation (see placeUntimed), by part id:
   * a new part is stored there, a refreshed one stored with no time before step 29 moves there.
   * `collided`: parts whose ids the cache holds (or `parts` holds) that are not written (a copy of a
   * line), or that replace a copy's version (their conversation's own file): compared with what is
   * stored once the new parts are, as a part left out because another session holds its id is.
   */
  write(sessions: readonly SessionUpdate[], parts: readonly PartRow[], refreshed: readonly PartRow[] = [], places: ReadonlyMap<string, number> = new Map(), collided: readonly PartRow[] = []): WriteResult {
    const turned = new Map<string, number>();
    const result = inTransaction(this.#db, (): WriteResult => {
      const now = Date.now();
      const ignored: PartRow[] = [];
      let sessionsWritten = 0;
      for (const session of sessions) if (this.#writeSession(session, now)) sessionsWritten += 1;
      // The person's words added to a message stored before (a newer parser reads a block an older
      // one did not) change what the part that stands for it counts: see countsAsMessage.
      const spoken = spokenMessages(parts);
      const started = new Set(parts.filter((p) => startsMessage(p.partId)).map((p) => messageOf(p.partId)));
      const joined = [...spoken].filter((message) => !started.has(message));
      const { partsWritten, messagesWritten } = this.#index.recountMessages(joined, () => this.#insertParts(parts, spoken, turned, places, ignored));
      // After the inserts (a second part of one id is compared with the first, stored now), before
      // the refreshes (which replace what is compared).
      const differing = this.#differing([...collided, ...ignored]);
      let partsRefreshed = 0;
      let textRefreshed = 0;
      for (const p of refreshed) {
        if (!this.#refresh(p, places.get(p.partId))) continue;
        partsRefreshed += 1;
        textRefreshed += p.text?.length ?? 0;
      }
      return { rows: sessions.length + parts.length + partsRefreshed, partsWritten, messagesWritten, sessionsWritten, partsRefreshed, textRefreshed, copiesDiffering: differing.size };
    });
    this.#tell([...turned].map(([projectKey, at]) => ({ projectKey, at })));
    return result;
  }

  /**
   * The messages among `parts` (ids the cache holds) whose stored words differ from theirs (copyDiffers): a
   * copy of a message in other words (see COPIED_ID_PROVIDERS). Only these are asked, a few hundred ids a statement, one
   * seek of the part_id key each: a new part never is, and a copy with the same words is the same message.
   */
  #differing(parts: readonly PartRow[]): Set<string> {
    const into = new Set<string>();
    const asked = parts.filter((p) => COPIED_ID_PROVIDERS.has(p.provider));
    for (let i = 0; i < asked.length; ) {
      const width = widthFor(asked.length - i);
      const chunk = asked.slice(i, i + width);
      const rows = this.#textProbe(width).all(...padded(chunk.map((p) => p.partId), width)) as Array<[string, string | null, string | null]>;
      const stored = new Map(rows.map(([id, text, meta]) => [id, { text, meta }]));
      for (const p of chunk) {
        const held = stored.get(p.partId);
        if (held !== undefined && copyDiffers(held, p)) into.add(messageOf(p.partId));
      }
      i += chunk.length;
    }
    return into;
  }

  #textProbe(width: number): Statement {
    let stmt = this.#textProbes.get(width);
    if (!stmt) {
      stmt = this.#db.prepare(`SELECT part_id, text, meta FROM parts WHERE part_id IN (${new Array<string>(width).fill('?').join(', ')})`).raw();
      this.#textProbes.set(width, stmt);
    }
    return stmt;
  }

  /**
   * Stores the parts the cache does not hold yet and indexes them (unless a run defers it), counting
   * the messages they start; `turned` gains the projects whose conversations received new genuine
   * user turns. `spoken`: the messages among them that hold the person's words. A part without a time
   * is stored at its place, marked inferred (placed.ts). `ignored` gains the parts whose id was stored
   * already (under another session): not written, and not counted.
   */
  #insertParts(parts: readonly PartRow[], spoken: ReadonlySet<string>, turned: Map<string, number>, places: ReadonlyMap<string, number>, ignored: PartRow[]): FlushResult {
    let partsWritten = 0;
    let messagesWritten = 0;
    const projects = new Map<string, string | undefined>();
    const before = this.#index.lastPartRowid();
    const messages = new Set<string>();
    for (const p of parts) {
      const { flags } = p;
      const place = p.ts ?? places.get(p.partId) ?? null;
      const inserted = this.#insertPart.run(p.partId, p.sessionId, p.provider, p.role, p.kind, place, p.ts === null && place !== null ? 1 : 0, p.text, p.meta, flags & 1, (flags >> 1) & 1, (flags >> 2) & 1, (flags >> 3) & 1, p.contentKey);
      if (inserted.changes === 0) {
        ignored.push(p);
        continue;
      }
      partsWritten += 1;
      if (this.#awaited.size > 0) this.#adoptFollowers(p);
      if (this.#startsMessage(p.partId, Number(inserted.lastInsertRowid), messages) && countsAsMessage(p, () => spoken.has(messageOf(p.partId)))) messagesWritten += 1;
      if ((flags & PART_FLAGS.genuineUserTurn) === 0) continue;
      if (!projects.has(p.sessionId)) projects.set(p.sessionId, this.#conversationProject.get(p.sessionId) as string | undefined);
      const key = projects.get(p.sessionId);
      if (key) turned.set(key, Math.max(turned.get(key) ?? 0, p.ts ?? 0));
    }
    // The full-text index moves with its parts, in the same transaction (or commit window).
    if (partsWritten > 0 && !this.#deferred) this.#index.indexAfter(before);
    return { rows: parts.length, partsWritten, messagesWritten, sessionsWritten: 0 };
  }

  /**
   * Rewrites a stored part as a newer parser (or a newer version of its line) reads it, only where
   * something differs; true when it did. What the full-text index holds of it (its text, kind and
   * role) leaves the index before the row changes and enters it again after: an external-content
   * index re-tokenizes the row to delete it. `place`: where it sits if its line has no time; a row
   * stored with no time (before gateway step 29) takes it, and is indexed again under its time key.
   */
  #refresh(p: PartRow, place: number | undefined): boolean {
    const stored = this.#storedPart.get(p.partId, p.sessionId) as StoredRow | undefined;
    if (!stored) return false;
    const flags = [p.flags & 1, (p.flags >> 1) & 1, (p.flags >> 2) & 1, (p.flags >> 3) & 1];
    const placing = place !== undefined && stored.ts === null;
    const indexed = placing || stored.role !== p.role || stored.kind !== p.kind || stored.text !== p.text;
    const same =
      !indexed &&
      stored.meta === p.meta &&
      stored.content_key === p.contentKey &&
      [stored.is_meta, stored.is_compact_summary, stored.is_sidechain, stored.genuine_user_turn].every((v, i) => v === flags[i]);
    if (same) return false;
    // The person's words coming or going change what the part that stands for its message counts
    // (countsAsMessage), whichever part of it this is: its kind is the standing part's own, indexed again.
    const spoken = stored.genuine_user_turn === flags[3] ? [] : [messageOf(p.partId)];
    this.#index.rewriteParts(
      indexed ? [stored.rowid] : [],
      () => {
        this.#refreshPart.run(p.role, p.kind, p.text, p.meta, ...flags, p.contentKey, p.partId, p.sessionId);
        if (placing) this.#placePart.run(place, p.partId, p.sessionId);
      },
      spoken,
    );
    return true;
  }

  /**
   * Whether a part just stored stands for its message (see startsMessage): block 0, or the first
   * stored part of a message with named blocks. `seen` holds the named-block messages this write
   * already met, so only the first of their parts here asks the store.
   */
  #startsMessage(partId: string, rowid: number, seen: Set<string>): boolean {
    if (startsMessage(partId)) return true;
    if (!namedBlock(partId)) return false;
    const message = messageOf(partId);
    if (seen.has(message)) return false;
    seen.add(message);
    return this.#earlierOfMessage.get(message, `${message.slice(0, -1)};`, rowid) === undefined;
  }

  /** Tells the sweeper hook; a listener's failure never rolls back capture. */
  #tell(turns: UserTurns[]): void {
    if (turns.length === 0) return;
    try {
      this.onUserTurns?.(turns);
    } catch (error) {
      // The sweeper is best-effort; capture goes on.
      this.#logger?.warn('user-turn listener failed', { code: errorCode(error) });
    }
  }

  /** One bounded step of the spool in one transaction. */
  flushStep(maxRows = STEP_ROWS): FlushResult {
    if (this.#spoolEmpty) return { rows: 0, partsWritten: 0, messagesWritten: 0, sessionsWritten: 0 };
    // Only a step that commits itself may conclude the spool is empty: a window that rolls back
    // could still bring rows back.
    const ownTransaction = !this.#db.inTransaction;
    // Joins a commit window when one is open. Each statement is idempotent (an upsert, an INSERT OR
    // IGNORE, a delete of what was moved), so a step cut short is completed by the next one.
    return inTransaction(this.#db, (): FlushResult => {
      const upper = this.#upper.get(maxRows) as number | null;
      if (upper === null) {
        this.#spoolEmpty = ownTransaction;
        return { rows: 0, partsWritten: 0, messagesWritten: 0, sessionsWritten: 0 };
      }
      let sessionsWritten = 0;
      const now = Date.now();
      for (const raw of this.#sessionsUpTo.all(upper) as string[]) {
        // A damaged spooled session row is skipped, never thrown: one bad row must not wedge every
        // later flush. Its parts still commit, and the transcript on disk still holds the session.
        const parsed = SpooledSession.safeParse(parseJsonOrNull(raw));
        if (parsed.success && this.#writeSession(parsed.data, now)) sessionsWritten += 1;
      }
      const before = this.#index.lastPartRowid();
      const moved = this.#moveParts.all(upper) as Array<[partId: string, kind: string, role: string | null]>;
      const partsWritten = moved.length;
      // The full-text index moves with its parts, in the same transaction (or commit window).
      if (partsWritten > 0 && !this.#deferred) this.#index.indexAfter(before);
      const rows = this.#deleteUpTo.run(upper).changes;
      // Spooled rows carry no flags: none says the person's words.
      const messagesWritten = moved.filter(([partId, kind, role]) => startsMessage(partId) && countsAsMessage({ kind, role }, () => false)).length;
      return { rows, partsWritten, messagesWritten, sessionsWritten };
    });
  }

  #writeSession(update: SessionUpdate, now: number): boolean {
    const committed = this.#committed.get(update.sessionId) as CommittedSession | undefined;
    const parentKnown = update.parentSessionId !== null && this.#exists.get(update.parentSessionId) !== undefined;
    const merged = mergeSession(update, committed, parentKnown);
    if (!merged) return false;
    if (merged.parentSessionId === null && update.followsMessage !== null) this.#follow(merged, update.followsMessage);
    // A branch never descends from itself (A's lines written after B's in B's file, a resume into the
    // wrong file: anthropics/claude-code#30802): the link that would close a circle is not made.
    if (merged.parentKind === 'branch' && merged.parentSessionId !== (committed?.parent_session_id ?? null) && this.#descendsFrom(merged.parentSessionId, merged.sessionId)) {
      merged.parentSessionId = committed?.parent_session_id ?? null;
      merged.parentKind = committed?.parent_kind ?? null;
    }
    const projectKey = merged.projectCwd ? this.#projects.touch(merged.projectCwd, now) : null;
    this.#upsertSession.run({ ...merged, projectKey, now });
    // A subagent stored before its parent was known stood alone (mergeSession); a fresh import of
    // its file would now link it, so the parent's first row adopts it. Its file, unchanged, is not
    // read again on a tick.
    if (!committed) this.#adoptSubagents.run({ id: update.sessionId, now });
    // A re-read by a newer parser can move a session to another project (Cowork's selected folder, a
    // path's new key), and a session first read without a folder gains one: told in the move's
    // transaction, no reader sees the project it left empty, and its indexed parts' project tags move
    // with it (a project or repository filter reads only the tags).
    const left = committed?.project_key ?? null;
    if (left === projectKey) return true;
    if (left !== null) this.#projects.vacated(left);
    this.#index.sessionMoved(update.sessionId);
    return true;
  }

  /**
   * A session whose first line follows a message of another session (SessionRow.followsMessage: a
   * continuation whose file copied nothing) is a branch of the session holding that message: one seek
   * of the part_id key, within the same provider, never the session itself. A message not stored yet
   * (the original's file is read later) is waited for: the write that stores it links the session
   * (#adoptFollowers), as a parent's first row adopts its subagents.
   */
  #follow(merged: MergedSession, message: string): void {
    const holder = this.#messageHolder.get(message, `${message.slice(0, -1)};`) as [sessionId: string, provider: string] | undefined;
    if (holder === undefined) {
      this.#await(message, merged.sessionId);
      return;
    }
    const [parent, provider] = holder;
    if (parent === merged.sessionId || provider !== merged.provider) return;
    merged.parentSessionId = parent;
    merged.parentKind = 'branch';
  }

  #await(message: string, sessionId: string): void {
    const waiting = this.#awaited.get(message) ?? new Set<string>();
    waiting.add(sessionId);
    this.#awaited.set(message, waiting);
    if (this.#awaited.size > MAX_AWAITED) this.#awaited.delete(this.#awaited.keys().next().value!);
  }

  /**
   * The sessions waiting for this stored part's message become branches of its session, unless one
   * has a parent by now. Kept waiting after: a window that rolls back must not lose them, and the
   * update changes nothing a second time.
   */
  #adoptFollowers(part: PartRow): void {
    const waiting = this.#awaited.get(messageOf(part.partId));
    if (waiting === undefined) return;
    const now = Date.now();
    for (const id of waiting) if (!this.#descendsFrom(part.sessionId, id)) this.#adoptFollower.run({ id, parent: part.sessionId, provider: part.provider, now });
  }

  /**
   * Whether `session` is `ancestor` or lies below it (its parent, its parent's parent…): a seek per
   * step, at most MAX_DEPTH steps (a chain a circle an older build made would otherwise never end).
   */
  #descendsFrom(session: string | null, ancestor: string): boolean {
    for (let at: string | null | undefined = session, step = 0; at !== null && at !== undefined && step < MAX_DEPTH; step += 1) {
      if (at === ancestor) return true;
      at = this.#parentOf.get(at) as string | null | undefined;
    }
    return false;
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
    const total: FlushResult = { rows: 0, partsWritten: 0, messagesWritten: 0, sessionsWritten: 0 };
    for (;;) {
      const step = this.flushStep();
      total.rows += step.rows;
      total.partsWritten += step.partsWritten;
      total.messagesWritten += step.messagesWritten;
      total.sessionsWritten += step.sessionsWritten;
      if (step.rows === 0) return total;
      await turn();
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
