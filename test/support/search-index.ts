import { expect } from 'vitest';
import { KEY_SHIFT, registerSearchFunctions, SearchIndex } from '../../core/gateway/search-index.js';
import { IndexBackfill } from '../../core/history/indexer.js';
import { createMemoryLogger } from '../../core/log/index.js';
import type { Db } from '../../core/store/index.js';

const count = (db: Db, sql: string) => db.prepare(sql).pluck().get() as number;

/** A part id's message (messageOf), in SQL. */
const MESSAGE = "rtrim(part_id, replace(part_id, ':', ''))";

/**
 * Each session's messages counted afresh from its parts, by what a message is rather than by the
 * rule the index applies part by part (COUNTS_AS_MESSAGE_SQL): the part that stands for it is its part
 * of block 0 where blocks are numbered, and the first stored of those left where they are named
 * (Gemini's); a message stands for a tool's result, not a message, when that part is one, unless
 * the person's own words (genuine_user_turn) are among its parts.
 */
const RECOUNTED_MESSAGES = `SELECT session_id, SUM(stands AND (kind <> 'tool_result' OR speaks)) AS m FROM (
    SELECT session_id, kind,
      CASE WHEN substr(part_id, length(${MESSAGE}) + 1, 1) GLOB '[0-9]' THEN part_id LIKE '%:0' ELSE rowid = MIN(rowid) OVER message END AS stands,
      MAX(genuine_user_turn) OVER message AS speaks
    FROM parts WINDOW message AS (PARTITION BY ${MESSAGE}))
  GROUP BY session_id`;

/** Sessions whose stored message count differs from a recount of their parts (see RECOUNTED_MESSAGES). */
export function miscountedMessages(db: Db): Array<{ session_id: string; stored: number | null; recounted: number }> {
  return db
    .prepare(`SELECT x.session_id, s.messages AS stored, x.m AS recounted FROM (${RECOUNTED_MESSAGES}) x LEFT JOIN session_stats s USING (session_id) WHERE s.messages IS NOT x.m`)
    .all() as Array<{ session_id: string; stored: number | null; recounted: number }>;
}

/**
 * The full-text index holds exactly the stored parts, each tagged with its session's project as it is
 * now, FTS5 finds itself consistent, and each session's counts (parts, messages, tool calls) match
 * its parts: what forgetting, retention, re-tagging and re-importing must all leave behind.
 */
export function expectIndexExact(db: Db): void {
  const parts = count(db, 'SELECT COUNT(*) FROM parts');
  expect(count(db, 'SELECT COUNT(*) FROM search_map')).toBe(parts);
  expect(count(db, 'SELECT COUNT(*) FROM search_fts_docsize')).toBe(parts);
  expect(count(db, 'SELECT COUNT(*) FROM search_map m LEFT JOIN parts p ON p.rowid = m.part_rowid WHERE p.rowid IS NULL')).toBe(0);
  db.prepare("INSERT INTO search_fts (search_fts, rank) VALUES ('integrity-check', 1)").run();
  const stale = count(
    db,
    `SELECT COUNT(*) FROM search_map m JOIN parts p ON p.rowid = m.part_rowid
     WHERE m.scope <> steward_search_scope_v1(p.provider, p.role, p.session_id, (SELECT s.project_key FROM sessions s WHERE s.session_id = p.session_id))`,
  );
  expect(stale).toBe(0);
  const mismatched = count(
    db,
    `SELECT COUNT(*) FROM (SELECT session_id, COUNT(*) AS n, SUM(kind = 'tool_use') AS t FROM parts GROUP BY session_id) x
     LEFT JOIN session_stats s USING (session_id) WHERE s.parts IS NOT x.n OR s.tool_calls IS NOT x.t`,
  );
  expect(mismatched).toBe(0);
  expect(miscountedMessages(db)).toEqual([]);
  // No counts outlive what they count: a conversation gone (forgotten, pruned) leaves none; one kept
  // without parts of its own (for a subagent that still holds some) counts nothing.
  expect(count(db, 'SELECT COUNT(*) FROM session_stats WHERE session_id NOT IN (SELECT session_id FROM parts) AND session_id NOT IN (SELECT session_id FROM sessions)')).toBe(0);
  expect(count(db, 'SELECT COUNT(*) FROM session_stats WHERE session_id NOT IN (SELECT session_id FROM parts) AND (parts <> 0 OR messages <> 0 OR tool_calls <> 0)')).toBe(0);
}

/**
 * Indexes every part of a store opened at an older schema (3 to 12) the way those versions did: each
 * part mapped without a text version, through the view's steward_search_text_v1, and counted (each
 * part its own message, as these tests' parts are). SearchIndex itself writes only today's schema.
 */
export function indexAsBefore(db: Db): void {
  registerSearchFunctions(db);
  db.exec(`
    INSERT INTO search_map (fts_rowid, part_rowid, scope)
      SELECT (MAX(IFNULL(p.ts, 0), 0) / 1000) * ${KEY_SHIFT} + (p.rowid & ${KEY_SHIFT - 1}), p.rowid,
        steward_search_scope_v1(p.provider, p.role, p.session_id, (SELECT s.project_key FROM sessions s WHERE s.session_id = p.session_id))
      FROM parts p;
    INSERT INTO search_fts (rowid, body, thinking, tool_input, tool_output, scope) SELECT fts_rowid, body, thinking, tool_input, tool_output, scope FROM search_source;
    INSERT INTO session_stats (session_id, parts, messages, tool_calls) SELECT session_id, COUNT(*), COUNT(*), SUM(kind = 'tool_use') FROM parts GROUP BY session_id;
  `);
}

/** Runs the re-tag walk on `db` to its end, as the owner's background work does: it had parts to index again, and leaves none. */
export async function retagWalk(db: Db): Promise<void> {
  const index = new SearchIndex(db);
  expect(index.retagPending()).toBe(true);
  const walk = new IndexBackfill({ index, logger: createMemoryLogger(), onProgress: () => undefined });
  walk.start();
  await walk.whenIdle();
  expect(index.retagPending()).toBe(false);
}
