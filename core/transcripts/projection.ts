import { TITLE_SOURCES, type ProviderId, type TitleSource } from '../api/constants/index.js';
import { prefix } from './bounds.js';
import type { PartRow, SessionRow, TitleClaim, TranscriptBatch } from './types.js';

export type Json = Record<string, unknown>;

export function asObject(value: unknown): Json | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : undefined;
}

export function asString(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/**
 * Parses one complete line. Lines are checked field by field with type guards rather than a schema
 * per line: a cold import parses millions of lines and only a handful of fields are ever used.
 */
export function parseLine(line: string): Json | undefined {
  try {
    return asObject(JSON.parse(line));
  } catch {
    return undefined;
  }
}

/** A title's precedence (TITLE_SOURCES order); -1 for none. */
export function titleRank(source: TitleSource | null): number {
  return source === null ? -1 : TITLE_SOURCES.indexOf(source);
}

const TITLE_CHARS = 500;
const REQUEST_CHARS = 200;

/**
 * Accumulates one file's parts into batches and its sessions until the file is done. A session is
 * written in full when the file gave it a part (or a provider vouches for it, see `vouch`); one the
 * file only described (a title, a model) is written as an update of a row the cache already holds, so
 * pruned sessions stay pruned and an appended title line still reaches its session.
 */
/** A session row that says nothing yet beyond which session, provider and source it is. */
export function blankSession(sessionId: string, provider: ProviderId, source: string): SessionRow {
  return {
    sessionId,
    provider,
    source,
    cwd: null,
    parentSessionId: null,
    parentKind: null,
    parentMissing: false,
    followsMessage: null,
    agentType: null,
    agentTypeSource: null,
    title: null,
    titleSource: null,
    projectCwd: null,
    ownFile: false,
    model: null,
    firstRequest: null,
    firstTs: null,
    lastTs: null,
    updateOnly: false,
  };
}

export class Projection {
  #parts: PartRow[] = [];
  readonly #sessions = new Map<string, SessionRow>();
  readonly #withParts = new Set<string>();
  readonly #vouched = new Set<string>();
  #touched = new Set<string>();
  #claims: TitleClaim[] = [];
  readonly #provider: ProviderId;
  readonly #source: string;

  constructor(provider: ProviderId, source: string) {
    this.#provider = provider;
    this.#source = source;
  }

  session(sessionId: string): SessionRow {
    let row = this.#sessions.get(sessionId);
    if (!row) {
      row = blankSession(sessionId, this.#provider, this.#source);
      this.#sessions.set(sessionId, row);
    }
    return row;
  }

  hasSession(sessionId: string): boolean {
    return this.#sessions.has(sessionId);
  }

  sessions(): IterableIterator<SessionRow> {
    return this.#sessions.values();
  }

  /** Keeps the title of the highest precedence the file offered (the latest of equal ones). */
  title(session: SessionRow, title: string, source: TitleSource): void {
    if (titleRank(source) < titleRank(session.titleSource)) return;
    session.title = prefix(title, TITLE_CHARS);
    session.titleSource = source;
  }

  /** Records the session's first genuine user words, bounded, unless it has some already. */
  request(session: SessionRow, text: string): void {
    if (session.firstRequest === null && text.trim() !== '') session.firstRequest = prefix(text.trim(), REQUEST_CHARS);
  }

  /** Lets a session without parts in this file be created (provenance that arrived before the transcript). */
  vouch(session: SessionRow, ts: number | null): void {
    this.#vouched.add(session.sessionId);
    this.#extend(session, ts);
  }

  /** A title for the session that holds a message the cache may know (resolved by the gateway). */
  claim(claim: TitleClaim): void {
    this.#claims.push({ ...claim, title: prefix(claim.title, TITLE_CHARS) });
  }

  add(part: PartRow, session: SessionRow): void {
    this.#parts.push(part);
    this.#withParts.add(session.sessionId);
    this.#touched.add(session.sessionId);
    this.#extend(session, part.ts);
  }

  get pending(): number {
    return this.#parts.length;
  }

  /**
   * Parts so far with the sessions they belong to (so a session row never trails its parts through
   * the spool); the final batch carries every session of the file in its complete form. A session
   * with no part inside the window is not created: pruned sessions must stay pruned.
   */
  take(final: boolean): TranscriptBatch {
    const parts = this.#parts;
    const touched = this.#touched;
    this.#parts = [];
    this.#touched = new Set();
    const rows: SessionRow[] = [];
    for (const s of this.#sessions.values()) {
      const full = this.#withParts.has(s.sessionId) || this.#vouched.has(s.sessionId);
      if (final || (touched.has(s.sessionId) && full)) rows.push({ ...s, updateOnly: !full });
    }
    if (!final || this.#claims.length === 0) return { parts, sessions: rows };
    const titleClaims = this.#claims;
    this.#claims = [];
    return { parts, sessions: rows, titleClaims };
  }

  #extend(session: SessionRow, ts: number | null): void {
    if (ts === null) return;
    if (session.firstTs === null || ts < session.firstTs) session.firstTs = ts;
    if (session.lastTs === null || ts > session.lastTs) session.lastTs = ts;
  }
}
