import type { Statement } from 'better-sqlite3';
import type { ForgetKind } from '../api/index.js';
import { blankSession, geminiChatPlace, geminiHashPrefix, type PartRow, type SessionRow, type TitleClaim, type TranscriptBatch } from '../transcripts/index.js';
import { inTransaction, type Db } from '../store/index.js';
import { EMITTED_CAP, EmittedIds } from './emitted.js';
import { changesCommitted, rereadWith, type CommittedSession, type LineSpan, type Reread, type SessionUpdate } from './sessions.js';
import { placeUntimed } from './placed.js';
import type { Sink } from './sink.js';
import type { Spool } from './spool.js';
import { TitleClaims } from './title-claims.js';
import { Tombstones } from './tombstones.js';
import { padded, widthFor } from './widths.js';

/** An opaque object, fresh per provider invocation; the materializer keys in-run state by it. */
export type RunToken = object;

interface RunState {
  emitted: EmittedIds;
  /** The spool's pending ids, snapshotted once per run on first use. */
  spooled: Set<string> | undefined;
  /** What this run last emitted per session, so an unchanged session is not spooled twice. */
  sessions: Map<string, string>;
  /**
   * Sessions that had no committed part when this run first met them: every committed part of such
   * a session is one this run emitted, so `emitted` answers for it and the cache is not probed (until
   * `emitted` forgets the session: then it is known, and probed).
   */
  fresh: Set<string>;
  /** Sessions met and found with committed parts: their candidates are probed. */
  known: Set<string>;
  /** Content keys this run emitted (see PartRow.contentKey). */
  emittedKeys: Set<string>;
  /** What this run's refreshing reads said of each session they met (see Reread). */
  reread: Map<string, Reread>;
  /** The file whose batches come now (as `materialize` was told), and the parts it yielded so far in this run. */
  file: string | undefined;
  fromFile: Set<string>;
  /** Per conversation, whether the file being read holds it as a copy (see #holdOf): one answer per file, holds being written with its checkpoint. */
  copies: Map<string, boolean>;
  /** The Gemini hash folder the file being read sits in (null: none), once asked (see #hashFolderCover). */
  hashFolder: string | null | undefined;
  /** The conversations whose own file the batch being written is (SessionRow.ownFile). */
  own: Set<string>;
  /** The time of the last timed line this run read of the file being read: it places the lines without one after it (placeUntimed). */
  lastTs: number | null;
  /** Conversations this run wrote parts of from a file not their own: their own file, read later in the run, rewrites those. */
  unowned: Set<string>;
}

const COMMITTED_COLUMNS =
  'session_id, source, project_key, cwd, project_cwd, parent_session_id, parent_kind, agent_type, title, title_source, model, first_request, first_ts, last_ts';

export interface MaterializeResult {
  /** Parts this run had not emitted before and the cache did not hold in their session. */
  partsAppended: number;
  sessionsAppended: number;
  /** Characters of part text appended or rewritten: what a commit of these rows will have to write. */
  textAppended: number;
  /** Parts that landed in the cache: a copy of a part committed under another session is not one. */
  partsWritten: number;
  /** The messages among them, as a person counts them (see countsAsMessage). */
  messagesWritten: number;
  /** Parts the cache held that a refreshing read rewrote, something in them having changed (they count toward a commit's size too). */
  partsRefreshed: number;
  /** Parts held back on purpose: their session or project was forgotten, or its folder is excluded. */
  withheld: { forgotten: number; excluded: number };
  /**
   * Message lines whose ids another file's version holds in other words (SKIP_REASONS' `differing_copy`):
   * not kept, or the version they replaced (a copy's, once its conversation's own file is read).
   */
  copiesDiffering: number;
}

/**
 * What may be captured (history): sessions in a folder the configuration excludes never are. A
 * forgotten session or project (a tombstone) is checked on every batch, so forgetting one while a
 * run is reading it takes effect at once.
 */
export interface CapturePolicy {
  projectKeyOf(cwd: string): string;
  excluded(cwd: string): boolean;
  /**
   * Keys of projects a folder's sessions belonged to under an earlier version's rule: a forget of one
   * of those still withholds them (a forget is never lifted by an upgrade, only by Unforget).
   */
  formerKeysOf?(cwd: string): readonly string[];
  /**
   * The folder's hash (folderHashOf), the same for each spelling of it: a forgotten project's record
   * keeps it, so a spelling whose own key it is not stays out too (Tombstones.projectOfFolder).
   */
  folderHashOf?(cwd: string): string;
  /**
   * Told of each conversation a batch admits and each forget record that withholds some of it: the
   * file being read holds them (FileCheckpoints.held), so lifting that record has the file read again.
   * `span`: the times of the conversation's first and last lines this read of the file met so far (a
   * whole read of the one file that holds it makes them its span: see FileCheckpoints.put). `withheld`:
   * with a forget record, the conversation of this file it keeps out.
   */
  held?(kind: ForgetKind | 'copy', id: string, ownFile?: boolean, span?: LineSpan, withheld?: string): void;
  /**
   * Whether other files are known to hold this conversation and `file` is not one of them, a copy of
   * its lines there not counting (FileCheckpoints.heldElsewhere).
   */
  heldElsewhere?(sessionId: string, provider: string, file: string): boolean;
}

type Withheld = keyof MaterializeResult['withheld'];

function signature(s: SessionUpdate): string {
  return JSON.stringify(s);
}

/**
 * Turns projected batches into committed rows exactly once. Committed rows are probed only for the
 * batch's candidate part ids, grouped by session id, each a seek on the part_id key; the committed
 * identity set is never loaded. What is new is written through the sink straight into the committed
 * tables, in the caller's transaction (a run's commit window): rows once went through the spool
 * first, but a run filled and emptied it within the same transaction, so it bought no durability and
 * cost every part a second insert and a delete. Ids still pending in the spool (left by an older
 * version) are snapshotted once per run and left to the sink.
 */
export class Materializer {
  readonly #db: Db;
  readonly #spool: Spool;
  readonly #sink: Sink;
  readonly #runs = new WeakMap<RunToken, RunState>();
  readonly #partProbes = new Map<number, Statement>();
  readonly #sessionProbes = new Map<number, Statement>();
  readonly #keyProbes = new Map<number, Statement>();
  readonly #anyPart: Statement;
  readonly #leafSession: Statement;
  readonly #newestTs: Statement;
  readonly #tombstones: Tombstones;
  readonly #titleClaims: TitleClaims;
  readonly #policy: CapturePolicy | undefined;
  readonly #emittedCap: number;

  constructor(db: Db, spool: Spool, sink: Sink, policy?: CapturePolicy, emittedCap = EMITTED_CAP) {
    this.#emittedCap = emittedCap;
    this.#db = db;
    this.#spool = spool;
    this.#sink = sink;
    this.#tombstones = new Tombstones(db);
    this.#titleClaims = new TitleClaims(db);
    this.#policy = policy;
    // One row at most, from the session's range of parts_session_ts.
    this.#anyPart = db.prepare('SELECT 1 FROM parts WHERE session_id = ? LIMIT 1').pluck();
    // A range of the part_id key: the parts of one message, whichever session holds them.
    this.#leafSession = db.prepare('SELECT session_id FROM parts WHERE part_id >= ? AND part_id < ? LIMIT 1').pluck();
    // The last entry of the session's range of parts_session_ts (a null ts sorts first).
    this.#newestTs = db.prepare('SELECT MAX(ts) FROM parts WHERE session_id = ?').pluck();
  }

  /** Whether a forget record of this kind and id keeps its conversations out of capture. */
  forgotten(kind: ForgetKind, id: string): boolean {
    return this.#tombstones.has(kind, id);
  }

  /**
   * `refresh`: the batch comes from a file read from its start, which may be a newer parser reading
   * it again: parts its session already holds (before this run, or since an earlier batch of the same
   * `file` in it) are
   * rewritten with what the parser now says (kind, text, meta, flags) where it differs, not skipped,
   * and its session rows carry what the run's refreshing reads said of them (see mergeSession). New
   * parts are the same either way.
   */
  materialize(token: RunToken, batch: TranscriptBatch, options: { refresh?: boolean; file?: string } = {}): MaterializeResult {
    const state = this.#state(token);
    if (options.file !== state.file) [state.file, state.fromFile, state.copies, state.hashFolder, state.lastTs] = [options.file, new Set(), new Map(), undefined, null];
    // Placed over every line the batch read, in file order, before any is left out: an earlier line's
    // time is a place, whether or not its part is stored.
    const places = this.#places(state, batch.parts, options.refresh === true);
    const result: MaterializeResult = { partsAppended: 0, sessionsAppended: 0, textAppended: 0, partsWritten: 0, messagesWritten: 0, partsRefreshed: 0, withheld: { forgotten: 0, excluded: 0 }, copiesDiffering: 0 };
    batch = this.#admitted(state, batch, result.withheld);
    // Joins a commit window when one is open. Every write is idempotent (an upsert, an INSERT OR
    // IGNORE), and the in-run state below records rows only once they were written, so a batch cut
    // short by a failed statement is written again in full by a later pass.
    inTransaction(this.#db, () => {
      // Sessions before their parts, title claims once their leaves may be stored.
      const updates = this.#reread(state, batch.sessions, options.refresh === true);
      const sessions = this.#changedSessions(state, updates);
      const known: PartRow[] = [];
      const collided: PartRow[] = [];
      const parts = this.#novelParts(state, batch.parts, collided, options.refresh === true ? known : undefined);
      const written = this.#sink.write(sessions, parts, known, places, collided);
      const titled = this.#titles(batch, parts);
      result.copiesDiffering = written.copiesDiffering;
      result.partsWritten = written.partsWritten;
      result.messagesWritten = written.messagesWritten;
      state.emitted.touch(new Set(batch.parts.map((p) => p.sessionId)));
      for (const part of known) state.emitted.add(part.sessionId, part.partId);
      // Only a refreshing read asks it (see #novelParts): a resumed tick's batches pay nothing for it.
      if (options.refresh === true) for (const list of [known, parts]) for (const part of list) state.fromFile.add(`${part.sessionId}\n${part.partId}`);
      // Only the rows a refresh rewrote: a re-read that changes nothing adds nothing to a commit.
      result.partsRefreshed = written.partsRefreshed;
      result.textAppended += written.textRefreshed;
      // Every row's, written or not: a later file's row merges into what this one said.
      for (const update of updates) if (update.reread) state.reread.set(update.sessionId, update.reread);
      for (const session of sessions) state.sessions.set(session.sessionId, signature(session));
      for (const part of parts) {
        if (!state.own.has(part.sessionId)) state.unowned.add(part.sessionId);
        state.emitted.add(part.sessionId, part.partId);
        if (part.contentKey !== null) state.emittedKeys.add(`${part.sessionId}\n${part.contentKey}`);
        result.textAppended += part.text?.length ?? 0;
      }
      result.sessionsAppended = sessions.length + titled;
      result.partsAppended = parts.length;
      for (const sessionId of state.emitted.trim()) {
        state.fresh.delete(sessionId);
        state.known.add(sessionId);
      }
    });
    return result;
  }

  /**
   * Title rows from claims, so that where a title lands does not depend on which file was read first:
   * the claims waiting for a leaf this batch stored, then the batch's own. Each row is written as it
   * is decided, since a claim recorded next reads its fallback session's title as the rows before it
   * left it. Returns the rows written.
   */
  #titles(batch: TranscriptBatch, stored: PartRow[]): number {
    let rows = 0;
    for (const leaf of this.#titleClaims.awaitedAmong(stored)) rows += this.#settle(leaf, batch);
    for (const claim of batch.titleClaims ?? []) rows += this.#claimed(claim, batch);
    return rows;
  }

  /**
   * A title for the session holding the claim's message: one of this batch, else one the cache holds,
   * else the claim's own file's session, recorded until that message is stored.
   */
  #claimed(claim: TitleClaim, batch: TranscriptBatch): number {
    const inBatch = batch.parts.find((p) => p.partId.startsWith(claim.leafPartPrefix))?.sessionId;
    const holder = inBatch ?? this.#holderOf(claim.leafPartPrefix);
    let rows = 1;
    // A leaf stored by a path that did not settle its claims (a row an older version spooled).
    if (holder !== undefined && this.#titleClaims.awaits(claim.leafPartPrefix)) rows += this.#settle(claim.leafPartPrefix, batch);
    if (holder === undefined) this.#titleClaims.record(claim);
    this.#sink.write([this.#titleRow(holder ?? claim.fallbackSessionId, claim, batch)], []);
    return rows;
  }

  /** The claims waiting for this leaf title the session now holding it; their stand-in titles are withdrawn. */
  #settle(leaf: string, batch: TranscriptBatch): number {
    const holder = this.#holderOf(leaf);
    if (holder === undefined) return 0;
    const settled = this.#titleClaims.settle(leaf);
    for (const claim of settled) {
      this.#sink.write([this.#titleRow(holder, claim, batch)], []);
      if (claim.fallbackSessionId !== holder) this.#titleClaims.withdraw(claim);
    }
    return settled.length;
  }

  /** The session holding a message's parts, whichever it is: a range of the part_id key. */
  #holderOf(prefix: string): string | undefined {
    const upper = `${prefix.slice(0, -1)}${String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1)}`;
    return this.#leafSession.get(prefix, upper) as string | undefined;
  }

  /** Only updates a row the cache holds (or this batch made). */
  #titleRow(sessionId: string, claim: TitleClaim, batch: TranscriptBatch): SessionRow {
    const base = batch.sessions.find((s) => s.sessionId === sessionId);
    const blank = blankSession(sessionId, base?.provider ?? batch.sessions[0]?.provider ?? 'claude', base?.source ?? batch.sessions[0]?.source ?? 'code');
    return { ...blank, title: claim.title, titleSource: claim.source, updateOnly: true };
  }

  /** The batch without the sessions (and their parts) that must not be captured, counted by reason. */
  #admitted(state: RunState, batch: TranscriptBatch, counts: MaterializeResult['withheld']): TranscriptBatch {
    const held = new Map<string, Withheld>();
    state.own = new Set(batch.sessions.filter((s) => s.ownFile).map((s) => s.sessionId));
    for (const session of batch.sessions) {
      const reason = this.#withheld(state, session);
      if (reason) held.set(session.sessionId, reason);
      else this.#policy?.held?.(this.#holdOf(state, session.sessionId, session.provider), session.sessionId, session.ownFile, session.updateOnly ? undefined : session);
    }
    // A part whose session row is not in the batch is still checked by its own id.
    const checked = new Set(batch.sessions.map((s) => s.sessionId));
    for (const { sessionId, provider } of batch.parts) {
      if (checked.has(sessionId)) continue;
      checked.add(sessionId);
      const cover = this.#tombstones.coverOf({ sessionId, parentSessionId: null }, null) ?? this.#hashFolderCover(state, provider);
      if (cover) held.set(sessionId, 'forgotten');
      this.#policy?.held?.(cover?.kind ?? this.#holdOf(state, sessionId, provider), cover?.id ?? sessionId, false, undefined, cover ? sessionId : undefined);
    }
    // What the conversation asked first is said by the files that hold it, not by a copy of its lines
    // (which may differ); a copy's row still brings what this file alone knows (a subagent's type
    // from its parent's Task call, a late parent).
    if (batch.sessions.some((s) => state.copies.get(s.sessionId) === true)) {
      batch = { ...batch, sessions: batch.sessions.map((s) => (state.copies.get(s.sessionId) === true ? { ...s, firstRequest: null } : s)) };
    }
    if (held.size === 0) return batch;
    const parts = batch.parts.filter((part) => {
      const reason = held.get(part.sessionId);
      if (reason) counts[reason] += 1;
      return reason === undefined;
    });
    // A claim left on a withheld session would keep that file's words (see TitleClaims): it is dropped.
    const titleClaims = batch.titleClaims?.filter((claim) => !held.has(claim.fallbackSessionId));
    return { ...batch, parts, sessions: batch.sessions.filter((s) => !held.has(s.sessionId)), ...(titleClaims && { titleClaims }) };
  }

  /**
   * A session's folder is its project's (Cowork: the one the user selected), else its cwd. The record
   * that withholds it is told to the policy (see CapturePolicy.held).
   */
  #withheld(state: RunState, session: SessionRow): Withheld | undefined {
    const folder = session.projectCwd ?? session.cwd;
    if (folder !== null && this.#policy?.excluded(folder)) return 'excluded';
    const projectKey = folder !== null && this.#policy ? this.#policy.projectKeyOf(folder) : null;
    const former = folder !== null ? (this.#policy?.formerKeysOf?.(folder) ?? []) : [];
    let cover = this.#tombstones.coverOf(session, projectKey);
    for (const key of former) cover ??= this.#tombstones.coverOf(session, key);
    const folderHash = cover || folder === null ? undefined : this.#policy?.folderHashOf?.(folder);
    if (folderHash !== undefined) cover = this.#tombstones.projectOfFolder(folderHash);
    cover ??= this.#hashFolderCover(state, session.provider);
    if (!cover) return undefined;
    this.#policy?.held?.(cover.kind, cover.id, false, undefined, session.sessionId);
    return 'forgotten';
  }

  /**
   * The forgotten project that keeps out a Gemini chat by the hash folder its file sits in
   * (Tombstones.projectOfHashFolder: a name its record keeps, or its key's digits, for a record made
   * before records kept names): once its row is erased, nothing else knows that folder's path, and the
   * chat would come back as a "folder unknown" project. Whatever project the chat says, and in a batch
   * before its last (which says none yet).
   */
  #hashFolderCover(state: RunState, provider: string): { kind: 'project'; id: string } | undefined {
    if (provider !== 'gemini' || state.file === undefined) return undefined;
    if (state.hashFolder === undefined) {
      const folder = geminiChatPlace(state.file)?.projectId;
      state.hashFolder = folder !== undefined && geminiHashPrefix(folder) !== undefined ? folder : null;
    }
    return state.hashFolder === null ? undefined : this.#tombstones.projectOfHashFolder(state.hashFolder);
  }

  /** True while the token's run has state; completed runs are collected with their token. */
  hasRun(token: RunToken): boolean {
    return this.#runs.has(token);
  }

  /**
   * Where the batch's parts without a time sit (see placeUntimed). A read resumed past lines read before
   * has nothing before them in this run: such a part with no timed line after it in its batch (a line
   * appended alone) sits after the newest time its conversation holds, as the file's earlier lines do.
   */
  #places(state: RunState, parts: readonly PartRow[], fromStart: boolean): Map<string, number> {
    const { places, last } = placeUntimed(parts, state.lastTs);
    state.lastTs = last;
    if (fromStart) return places;
    for (const part of parts) {
      if (part.ts !== null || places.has(part.partId)) continue;
      const newest = this.#newestTs.get(part.sessionId) as number | null;
      if (newest !== null) places.set(part.partId, newest);
    }
    return places;
  }

  #state(token: RunToken): RunState {
    let state = this.#runs.get(token);
    if (!state) {
      state = { emitted: new EmittedIds(this.#emittedCap), spooled: undefined, sessions: new Map(), fresh: new Set(), known: new Set(), emittedKeys: new Set(), reread: new Map(), file: undefined, fromFile: new Set(), copies: new Map(), hashFolder: undefined, own: new Set(), unowned: new Set(), lastTs: null };
      this.#runs.set(token, state);
    }
    state.spooled ??= this.#spool.pendingPartIds();
    return state;
  }

  /**
   * How the file being read holds a conversation it admits: as its `copy` when other files hold it and
   * this one never did (see #speaksFor), so a later read of this file from its start (a parser upgrade,
   * an Unforget) still does not speak for it; else as one of its files (`session`).
   */
  #holdOf(state: RunState, sessionId: string, provider: string): 'session' | 'copy' {
    return this.#isCopy(state, sessionId, provider) ? 'copy' : 'session';
  }

  /** Whether the file being read holds the conversation as a copy: asked once per file and conversation. */
  #isCopy(state: RunState, sessionId: string, provider: string): boolean {
    // A conversation's own file is never its copy, whichever file was read first.
    if (state.file === undefined || state.own.has(sessionId) || !this.#policy?.heldElsewhere) return false;
    let copy = state.copies.get(sessionId);
    if (copy === undefined) state.copies.set(sessionId, (copy = this.#policy.heldElsewhere(sessionId, provider, state.file)));
    return copy;
  }

  /**
   * Whether the file being read may rewrite what the cache held of `part`'s conversation before this
   * run: not when other files hold it and this one never did (a copy of its lines in a resumed
   * conversation's file, read for the first time, would replace the version first stored).
   */
  #speaksFor(state: RunState, part: PartRow): boolean {
    return !this.#isCopy(state, part.sessionId, part.provider);
  }

  /**
   * The parts new to the cache; with `known`, the ones their session already holds are collected
   * there, whether it held them before the run or an earlier batch of it wrote them (a message the
   * file re-emits further on, a mark its end puts on turns yielded before: the last read wins).
   * `collided` gains the held ones not rewritten (a copy of a line in another file), and those a
   * conversation's own file rewrites over another file's version: the sink says which differ.
   */
  #novelParts(state: RunState, parts: PartRow[], collided: PartRow[], known?: PartRow[]): PartRow[] {
    const bySession = new Map<string, Map<string, PartRow>>();
    for (const part of parts) {
      if (state.spooled?.has(part.partId)) continue;
      if (state.emitted.has(part.sessionId, part.partId)) {
        // Only a re-emission of the file being read rewrites what this run wrote: a copy of the line in
        // another file (a resumed conversation's) never replaces the first version read, unless this file
        // is the conversation's own and a file not its own wrote it first. A caller that names no file
        // is taken to read one.
        const ownRewrites = state.own.has(part.sessionId) && state.unowned.has(part.sessionId);
        const reemitted = state.file === undefined || state.fromFile.has(`${part.sessionId}\n${part.partId}`);
        if (known && (reemitted || ownRewrites)) known.push(part);
        // What another file of this run stored (a non-refreshing read does not track its own): kept, or replaced by the own file's version.
        if (!reemitted) collided.push(part);
        continue;
      }
      let group = bySession.get(part.sessionId);
      if (!group) bySession.set(part.sessionId, (group = new Map()));
      // The same id twice in one batch (a line written again in its own file): the first is the one stored.
      if (!group.has(part.partId)) group.set(part.partId, part);
      else collided.push(part);
    }
    const novel: PartRow[] = [];
    for (const [sessionId, group] of bySession) {
      const fresh = this.#isFresh(state, sessionId);
      const committed = fresh ? undefined : this.#probeParts(sessionId, [...group.keys()]);
      if (committed) {
        const held = known && this.#speaksFor(state, group.values().next().value!) ? known : collided;
        for (const part of group.values()) if (committed.has(part.partId)) held.push(part);
      }
      const candidates = committed ? [...group.values()].filter((part) => !committed.has(part.partId)) : group.values();
      let keyed: Set<string> | undefined;
      for (const part of candidates) {
        if (part.contentKey !== null) {
          // Known by what it says under another id (a v1 OpenClaw file rewritten as v3): not stored again.
          keyed ??= fresh ? new Set<string>() : this.#probeKeys(sessionId, [...group.values()]);
          if (keyed.has(part.contentKey) || state.emittedKeys.has(`${sessionId}\n${part.contentKey}`)) continue;
        }
        novel.push(part);
      }
    }
    return novel;
  }

  /** The candidates' content keys already committed in the session (rides parts_content_key). */
  #probeKeys(sessionId: string, candidates: PartRow[]): Set<string> {
    const keys = candidates.flatMap((p) => (p.contentKey === null ? [] : [p.contentKey]));
    const found = new Set<string>();
    for (let i = 0; i < keys.length; ) {
      const width = widthFor(keys.length - i);
      const chunk = keys.slice(i, i + width);
      const stmt = this.#statement(this.#keyProbes, width, (marks) => `SELECT content_key FROM parts WHERE session_id = ? AND content_key IN (${marks})`);
      for (const key of stmt.pluck().all(sessionId, ...padded(chunk, width)) as string[]) found.add(key);
      i += chunk.length;
    }
    return found;
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
      // Rides the part_id key, one seek per candidate: the unary + keeps the planner from walking the
      // session's whole range of parts_session_ts instead.
      const stmt = this.#statement(this.#partProbes, width, (marks) => `SELECT part_id FROM parts WHERE +session_id = ? AND part_id IN (${marks})`);
      for (const id of stmt.pluck().all(sessionId, ...padded(chunk, width)) as string[]) found.add(id);
      i += chunk.length;
    }
    return found;
  }

  /**
   * A refreshing read's rows with what the run's refreshing reads, this one included, said of their
   * session. A row that only describes a session (a title, a sidecar's) holds none of its lines.
   */
  #reread(state: RunState, sessions: SessionRow[], refresh: boolean): SessionUpdate[] {
    if (!refresh) return sessions;
    // A copy's read is no read of the conversation (see #admitted).
    return sessions.map((s) => (s.updateOnly || state.copies.get(s.sessionId) === true ? s : { ...s, reread: rereadWith(s, state.reread.get(s.sessionId)) }));
  }

  #changedSessions(state: RunState, sessions: SessionUpdate[]): SessionUpdate[] {
    const pending = sessions.filter((s) => state.sessions.get(s.sessionId) !== signature(s));
    if (pending.length === 0) return [];
    const committed = new Map<string, CommittedSession & { session_id: string }>();
    const ids = pending.map((s) => s.sessionId);
    for (let i = 0; i < ids.length; ) {
      const width = widthFor(ids.length - i);
      const chunk = ids.slice(i, i + width);
      const stmt = this.#statement(
        this.#sessionProbes,
        width,
        (marks) => `SELECT ${COMMITTED_COLUMNS} FROM sessions WHERE session_id IN (${marks})`,
      );
      for (const row of stmt.all(...padded(chunk, width)) as Array<CommittedSession & { session_id: string }>) committed.set(row.session_id, row);
      i += chunk.length;
    }
    const policy = this.#policy;
    const keyOf = policy ? (cwd: string) => policy.projectKeyOf(cwd) : undefined;
    return pending.filter((s) => changesCommitted(s, committed.get(s.sessionId), keyOf));
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
