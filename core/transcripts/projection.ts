import type { PartRow, SessionRow, TranscriptBatch } from './types.js';
import type { ProviderId } from '../api/index.js';

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

/** Accumulates one file's parts into batches and its sessions until the file is done. */
export class Projection {
  #parts: PartRow[] = [];
  readonly #sessions = new Map<string, SessionRow>();
  readonly #withParts = new Set<string>();
  #touched = new Set<string>();
  readonly #provider: ProviderId;
  readonly #source: string;

  constructor(provider: ProviderId, source: string) {
    this.#provider = provider;
    this.#source = source;
  }

  session(sessionId: string): SessionRow {
    let row = this.#sessions.get(sessionId);
    if (!row) {
      row = { sessionId, provider: this.#provider, source: this.#source, cwd: null, parentSessionId: null, agentType: null, title: null, firstTs: null, lastTs: null };
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

  add(part: PartRow, session: SessionRow): void {
    this.#parts.push(part);
    this.#withParts.add(session.sessionId);
    this.#touched.add(session.sessionId);
    if (part.ts !== null) {
      if (session.firstTs === null || part.ts < session.firstTs) session.firstTs = part.ts;
      if (session.lastTs === null || part.ts > session.lastTs) session.lastTs = part.ts;
    }
  }

  get pending(): number {
    return this.#parts.length;
  }

  /**
   * Parts so far with the sessions they belong to (so a session row never trails its parts through
   * the spool); the final batch carries every session of the file in its complete form. A session
   * with no part inside the window is not written: pruned sessions must stay pruned.
   */
  take(final: boolean): TranscriptBatch {
    const parts = this.#parts;
    const touched = this.#touched;
    this.#parts = [];
    this.#touched = new Set();
    const sessions = [...this.#sessions.values()].filter((s) => (final ? this.#withParts.has(s.sessionId) : touched.has(s.sessionId)));
    return { parts, sessions: sessions.map((s) => ({ ...s })) };
  }
}
