import { TITLE_SOURCES, type TitleSource } from '../api/index.js';
import type { SessionRow } from '../transcripts/index.js';

/**
 * A conversation is a session a person had: a top-level one, or one branched from another. A
 * subagent's transcript belongs to its parent's conversation.
 */
export const CONVERSATION = "(parent_session_id IS NULL OR parent_kind = 'branch')";

/**
 * What the refreshing reads of one run (each a whole file from its start: a newer parser's, a manual
 * run's) said of a session, merged in the order they came as a fresh import of those files merges
 * them: the earliest and latest lines they met, and the first request a fresh import would keep.
 */
export interface Reread {
  firstRequest: string | null;
  firstTs: number | null;
  lastTs: number | null;
}

/** The times of a session's first and last lines one read of a file met (a projected row's: cumulative over the read). */
export type LineSpan = Pick<SessionRow, 'firstTs' | 'lastTs'>;

/**
 * What the sink merges into a session row: a projected row, or one spooled by an older version. A row
 * of a refreshing read carries `reread`, this read included (the materializer keeps it per run).
 */
export type SessionUpdate = Omit<SessionRow, 'provider' | 'source'> & { provider: string; source: string | null; reread?: Reread };

/** The columns of a committed session row that a merge reads. */
export interface CommittedSession {
  source: string | null;
  project_key: string | null;
  cwd: string | null;
  project_cwd: string | null;
  parent_session_id: string | null;
  parent_kind: string | null;
  agent_type: string | null;
  title: string | null;
  title_source: string | null;
  model: string | null;
  first_request: string | null;
  first_ts: number | null;
  last_ts: number | null;
}

export interface MergedSession {
  sessionId: string;
  provider: string;
  source: string | null;
  cwd: string | null;
  /** The folder the project is: the row's authoritative one (Cowork), else its cwd. */
  projectCwd: string | null;
  parentSessionId: string | null;
  parentKind: string | null;
  agentType: string | null;
  title: string | null;
  titleSource: string | null;
  model: string | null;
  firstRequest: string | null;
  firstTs: number | null;
  lastTs: number | null;
}

function rank(source: string | null): number {
  return source === null ? -1 : TITLE_SOURCES.indexOf(source as TitleSource);
}

function earliest(a: number | null, b: number | null): number | null {
  return a === null ? b : b === null ? a : Math.min(a, b);
}

function latest(a: number | null, b: number | null): number | null {
  return a === null ? b : b === null ? a : Math.max(a, b);
}

/**
 * The first request once a read is merged into what is held: the read's when it met the earliest line
 * held and found a request (an append never does), else the one held, else the read's. A read that
 * leaves stored parts as they are (`refreshes` false: a tick reading a rewritten file from 0) must
 * meet a line earlier than any held: the one held came from a part it does not rewrite, which the
 * session's text would otherwise contradict.
 */
function firstRequestOf(update: SessionUpdate, held: string | null, heldFirstTs: number | null, refreshes = true): string | null {
  const earlier = (ts: number) => heldFirstTs === null || ts < heldFirstTs || (refreshes && ts === heldFirstTs);
  const sawStart = update.firstRequest !== null && update.firstTs !== null && earlier(update.firstTs);
  return sawStart ? update.firstRequest : (held ?? update.firstRequest);
}

/** `before` (this run's earlier refreshing reads of the session) with one more merged in, as a fresh import merges it. */
export function rereadWith(update: SessionUpdate, before: Reread | undefined): Reread {
  return {
    firstRequest: firstRequestOf(update, before?.firstRequest ?? null, before?.firstTs ?? null),
    firstTs: earliest(before?.firstTs ?? null, update.firstTs),
    lastTs: latest(before?.lastTs ?? null, update.lastTs),
  };
}

/**
 * Whether a run's refreshing reads met the session from the earliest line the cache holds to its
 * latest: not when a window cut its start off, another file not read again holds lines outside
 * them, or its lines outlived their file.
 */
function spans(reread: Reread | undefined, c: CommittedSession | undefined): reread is Reread {
  if (reread?.firstTs == null || reread.lastTs === null) return false;
  return (c?.first_ts == null || reread.firstTs <= c.first_ts) && (c?.last_ts == null || reread.lastTs >= c.last_ts);
}

/** The folder the session's project is once `update` is merged: see mergeSession. */
function projectCwdOf(update: SessionUpdate, c: CommittedSession | undefined, cwd: string | null): string | null {
  if (update.projectCwd !== null) return update.projectCwd;
  // A session without a cwd keeps the project it has: its own file names none to go back to.
  return update.ownFile && cwd !== null ? cwd : (c?.project_cwd ?? cwd);
}

/**
 * The one rule for merging what a file says about a session into what the cache holds:
 * - the first cwd seen stays; an authoritative project folder (Cowork's selected folder) replaces. A
 *   provider says one only from the session's own file (Claude: ownsSession), so lines copied into
 *   another file, which carry none, never move a session, whichever file is read first. The own file
 *   speaks even when it names no folder (ownFile): the project is then the cwd, so a session an older
 *   parser moved by a copy (Claude before parser 7) goes back when its own file is read again;
 * - a parent is linked, except a subagent whose parent's transcript is gone and whom the cache does
 *   not know either: it stays a conversation of its own, so its project counts and sweeps it, until
 *   a row for its parent is written (the sink then links it: its own file is not read again);
 * - a sidecar's agent type beats one learned from the parent's Task call;
 * - a title replaces one of lower or equal precedence (TITLE_SOURCES), never a higher one;
 * - the latest model, the widest time span: a file's lines may have been read in pieces, or be one of
 *   several files holding the session. Only a whole read from the start of the one file that holds the
 *   session narrows it, to what that file says now (a transcript rewritten shorter, a chat with messages
 *   removed): FileCheckpoints.put, once the read is known to be whole;
 * - the first request of the read that saw the session's earliest line (a read of its file from the
 *   start, by this parser: a newer one may know better what the person said), else the one held; a
 *   read that does not refresh stored parts (no `reread`: a tick reading a rewritten file from 0)
 *   keeps the one held unless it met a line earlier than any held, so the row agrees with the parts;
 *   but once a run's refreshing reads span the whole session (see spans), the one a fresh import of
 *   those files keeps, none included: a newer parser that finds no words of the person's there (a
 *   subagent's prompt is the main agent's) clears what an older one took for them. Only the first
 *   request is rebuilt so: the other fields may come from another file or a sidecar (a title, an
 *   agent type, the project), which a read of this one does not speak for.
 * Undefined: an update-only row for a session the cache does not hold (pruned rows stay pruned).
 */
export function mergeSession(update: SessionUpdate, committed: CommittedSession | undefined, parentKnown: boolean): MergedSession | undefined {
  if (!committed && update.updateOnly) return undefined;
  const c = committed;
  const cwd = c?.cwd ?? update.cwd;
  let parentSessionId = c?.parent_session_id ?? null;
  let parentKind = c?.parent_kind ?? (parentSessionId ? 'subagent' : null);
  if (update.parentSessionId !== null) {
    const orphan = update.parentMissing && !parentKnown;
    parentSessionId = orphan ? null : update.parentSessionId;
    parentKind = orphan ? null : (update.parentKind ?? 'subagent');
  }
  const ownType = update.agentType !== null && (update.agentTypeSource !== 'task' || !c?.agent_type);
  const ownTitle = update.title !== null && rank(update.titleSource) >= rank(c?.title_source ?? null);
  return {
    sessionId: update.sessionId,
    provider: update.provider,
    // Where the session was recorded (a Claude Code root or a Claude Desktop sandbox): its own file says.
    source: update.ownFile ? update.source : (c?.source ?? update.source),
    cwd,
    projectCwd: projectCwdOf(update, c, cwd),
    parentSessionId,
    parentKind,
    agentType: ownType ? update.agentType : (c?.agent_type ?? null),
    title: ownTitle ? update.title : (c?.title ?? null),
    titleSource: ownTitle ? update.titleSource : (c?.title_source ?? null),
    model: update.model ?? c?.model ?? null,
    firstRequest: spans(update.reread, c) ? update.reread.firstRequest : firstRequestOf(update, c?.first_request ?? null, c?.first_ts ?? null, update.reread !== undefined),
    firstTs: earliest(c?.first_ts ?? null, update.firstTs),
    lastTs: latest(c?.last_ts ?? null, update.lastTs),
  };
}

/**
 * Whether merging `update` would change the committed row (the materializer spools only those). With
 * `keyOf`, a row whose folder now keys another project changes too: a path normalized anew (Windows'
 * `\\?\C:\…` form) moves the session when its file is read again, though its cwd did not change.
 */
export function changesCommitted(update: SessionUpdate, committed: CommittedSession | undefined, keyOf?: (cwd: string) => string): boolean {
  // Assumes a missing parent is known: a row that may link is spooled, and the sink decides.
  const merged = mergeSession(update, committed, true);
  if (!merged) return false;
  if (!committed) return true;
  return (
    (keyOf !== undefined && merged.projectCwd !== null && committed.project_key !== null && keyOf(merged.projectCwd) !== committed.project_key) ||
    merged.source !== committed.source ||
    merged.cwd !== committed.cwd ||
    merged.projectCwd !== committed.project_cwd ||
    merged.parentSessionId !== committed.parent_session_id ||
    merged.parentKind !== committed.parent_kind ||
    merged.agentType !== committed.agent_type ||
    merged.title !== committed.title ||
    merged.titleSource !== committed.title_source ||
    merged.model !== committed.model ||
    merged.firstRequest !== committed.first_request ||
    merged.firstTs !== committed.first_ts ||
    merged.lastTs !== committed.last_ts ||
    (update.parentMissing && committed.parent_session_id !== null)
  );
}
