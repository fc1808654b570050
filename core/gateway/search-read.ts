import type { Statement } from 'better-sqlite3';
import type { SearchKind } from '../api/index.js';
import type { Db } from '../store/index.js';
import { KEY_SHIFT, keyOfSeconds, registerSearchFunctions, scopeTokens, SearchSyntaxError } from './search-index.js';

/** What a search asks of the index. `expression` is full-text syntax, already made safe by the caller. */
export interface SearchFilter {
  expression: string;
  kind?: SearchKind | undefined;
  provider?: string | undefined;
  role?: string | undefined;
  /** A conversation: its own parts and its subagents'. */
  sessionId?: string | undefined;
  /** Any of these projects (a project filter, or the projects of one repository). */
  projectKeys?: readonly string[] | undefined;
  /** Line time in epoch ms, inclusive, at whole-second resolution. */
  fromMs?: number | undefined;
  toMs?: number | undefined;
}

export interface MatchedPart {
  /** The part's position in the index: orders by line time. */
  key: number;
  partId: string;
  sessionId: string;
  provider: string;
  role: string | null;
  kind: string;
  ts: number | null;
  text: string | null;
  meta: string | null;
  projectKey: string | null;
}

/** Characters of each candidate's text a ranking reads (the page's own hits are read whole). */
const HEAD_CHARS = 2_000;

const COLUMNS: Record<SearchKind, string> = { text: 'body', thinking: 'thinking', tool_use: 'tool_input', tool_result: 'tool_output' };
const ALL_COLUMNS = 'body thinking tool_input tool_output';

/** The whole MATCH: the expression within its columns, AND each filter's scope tokens. */
export function matchOf(filter: SearchFilter): string {
  const terms = [`{${filter.kind ? COLUMNS[filter.kind] : ALL_COLUMNS}} : (${filter.expression})`];
  if (filter.provider !== undefined) terms.push(`scope : ${scopeTokens.provider(filter.provider)}`);
  if (filter.role !== undefined) terms.push(`scope : ${scopeTokens.role(filter.role)}`);
  if (filter.sessionId !== undefined) terms.push(`scope : ${scopeTokens.session(filter.sessionId)}`);
  if (filter.projectKeys !== undefined) {
    // No project at all matches nothing: an always-absent token keeps the query valid.
    const keys = filter.projectKeys.length > 0 ? filter.projectKeys.map(scopeTokens.project) : ['zknone'];
    terms.push(`{scope} : (${keys.join(' OR ')})`);
  }
  return terms.join(' AND ');
}

/** [lo, hi) of index keys for a date range. */
function keyRange(filter: SearchFilter, beforeKey: number | null): [number, number] {
  const lo = filter.fromMs === undefined ? 0 : keyOfSeconds(filter.fromMs / 1000);
  let hi = filter.toMs === undefined ? Number.MAX_SAFE_INTEGER : keyOfSeconds(filter.toMs / 1000) + KEY_SHIFT;
  if (beforeKey !== null) hi = Math.min(hi, beforeKey);
  return [lo, hi];
}

/**
 * The full-text index as other rooms read it. Matches are found in the index alone (filters are scope
 * tokens, dates a range of its time-ordered keys); only the page's own parts are then read.
 */
export class SearchReader {
  readonly #newest: Statement;
  readonly #details: Statement;
  readonly #heads: Statement;
  readonly #top: Statement;

  constructor(db: Db) {
    registerSearchFunctions(db);
    this.#newest = db.prepare('SELECT rowid FROM search_fts WHERE search_fts MATCH ? AND rowid >= ? AND rowid < ? ORDER BY rowid DESC LIMIT ?').pluck();
    this.#details = db.prepare(
      `SELECT m.fts_rowid AS key, p.part_id AS partId, p.session_id AS sessionId, p.provider, p.role, p.kind, p.ts, p.text, p.meta,
              (SELECT s.project_key FROM sessions s WHERE s.session_id = p.session_id) AS projectKey
       FROM json_each(?) j JOIN search_map m ON m.fts_rowid = j.value JOIN parts p ON p.rowid = m.part_rowid ORDER BY j.key`,
    );
    // Ranking reads many candidates: a bounded head of each part's text is enough to weigh it.
    this.#heads = db.prepare(
      `SELECT m.fts_rowid AS key, p.part_id AS partId, p.session_id AS sessionId, p.provider, p.role, p.kind, p.ts, substr(p.text, 1, ${HEAD_CHARS}) AS text, NULL AS meta, NULL AS projectKey
       FROM json_each(?) j JOIN search_map m ON m.fts_rowid = j.value JOIN parts p ON p.rowid = m.part_rowid ORDER BY j.key`,
    );
    this.#top = db.prepare('SELECT IFNULL(MAX(fts_rowid), 0) + 1 FROM search_map').pluck();
  }

  /** Newest first, strictly below `beforeKey` (the previous page's last key). */
  newest(filter: SearchFilter, beforeKey: number | null, limit: number): MatchedPart[] {
    const [lo, hi] = keyRange(filter, beforeKey);
    const keys = guard(() => this.#newest.all(matchOf(filter), lo, hi, limit) as number[]);
    return this.details(keys);
  }

  /**
   * The newest `cap` matches under `upperKey`, their text cut to a head, for the caller to rank. FTS5's own bm25() counts every
   * match of every phrase (the filters' scope tokens included) for its IDF, which reads whole posting
   * lists of common words; `capped` says there were more matches than were handed back.
   */
  candidates(filter: SearchFilter, upperKey: number, cap: number): { heads: MatchedPart[]; capped: boolean } {
    const [lo, hi] = keyRange(filter, upperKey);
    const keys = guard(() => this.#newest.all(matchOf(filter), lo, hi, cap + 1) as number[]);
    const heads = keys.length === 0 ? [] : (this.#heads.all(JSON.stringify(keys.slice(0, cap))) as MatchedPart[]);
    return { heads, capped: keys.length > cap };
  }

  /** The parts at these index keys, in the order given. */
  details(keys: readonly number[]): MatchedPart[] {
    return keys.length === 0 ? [] : (this.#details.all(JSON.stringify(keys)) as MatchedPart[]);
  }

  /** A key above every indexed part: fixes a relevance result's candidates across its pages. */
  upperKey(): number {
    return this.#top.get() as number;
  }
}

function guard<T>(run: () => T): T {
  try {
    return run();
  } catch (error) {
    // Only the MATCH can fail this way; FTS5 reports a refused expression as a plain SQLITE_ERROR.
    if ((error as { code?: unknown }).code === 'SQLITE_ERROR') throw new SearchSyntaxError();
    throw error;
  }
}
