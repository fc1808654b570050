import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { EventPayload } from '../../../core/api/index.js';
import { GatewayReader, openGateway, SearchIndex } from '../../../core/gateway/index.js';
import { GATEWAY_MIGRATIONS } from '../../../core/gateway/migrations.js';
import { History } from '../../../core/history/index.js';
import { createMemoryLogger } from '../../../core/log/index.js';
import { ProjectStore } from '../../../core/projects/index.js';
import { openDatabase, type Db } from '../../../core/store/index.js';
import { tempHome, type TempHome } from '../../support/home.js';
import { expectIndexExact, indexAsBefore } from '../../support/search-index.js';

let home: TempHome | undefined;
afterEach(() => {
  home?.cleanup();
  home = undefined;
});

const SESSIONS = ['north', 'south', 'east'] as const;

/**
 * A gateway.db as schema 9 left it, indexed the way that version indexed: `parts` parts, the sessions'
 * parts in blocks of rowids (north first, east last). Opening it with today's schema asks the re-tag
 * walk to read every part again (steps 13, 14 and 18), as an upgrade does.
 */
function upgradedStore(parts: number): { dir: string; db: Db } {
  home = tempHome('steward-retag-progress-');
  const old = openDatabase(join(home.dir, 'gateway.db'), { label: 'gateway', migrations: GATEWAY_MIGRATIONS.slice(0, 9) });
  const session = old.prepare("INSERT INTO sessions (session_id, provider, source, project_key, cwd, first_ts, last_ts, updated_at) VALUES (?, 'claude', 'code', NULL, NULL, 0, 0, 0)");
  const part = old.prepare("INSERT INTO parts (part_id, session_id, provider, role, kind, ts, text, meta) VALUES (?, ?, 'claude', 'user', 'text', ?, ?, NULL)");
  const block = Math.ceil(parts / SESSIONS.length);
  old.transaction(() => {
    for (const id of SESSIONS) session.run(id);
    for (let i = 0; i < parts; i += 1) part.run(`cc:p-${i}:0`, SESSIONS[Math.floor(i / block)], Date.UTC(2026, 0, 1) + i * 1000, `loquat ${i}`);
  })();
  indexAsBefore(old);
  old.close();
  return { dir: home.dir, db: openGateway(home.dir) };
}

describe('progress of the re-tag walk an upgrade asks for', () => {
  it('starts at none of the span checked, rises piece by piece, survives a restart, and ends complete', () => {
    const PARTS = 600;
    const { dir, db: opened } = upgradedStore(PARTS);
    let db = opened;
    try {
      let index = new SearchIndex(db);
      // The index walk has nothing to do; what searches are told is the re-tag walk's progress.
      expect(index.progress()).toMatchObject({ phase: 'index', complete: true });
      expect(index.walkProgress()).toEqual({ phase: 'retag', indexedParts: 0, totalParts: PARTS, complete: false, deferred: false });

      // Each piece checks 16 parts per part it may re-tag.
      expect(index.retagStep(5)).toBe(true);
      expect(index.retagProgress()).toMatchObject({ phase: 'retag', indexedParts: 80, totalParts: PARTS, complete: false });
      expect(index.retagStep(5)).toBe(true);
      expect(index.retagProgress()).toMatchObject({ indexedParts: 160, totalParts: PARTS });

      // The cursor and the span's start are kept in the store: a restart resumes the figure.
      db.close();
      db = openGateway(dir);
      index = new SearchIndex(db);
      expect(index.walkProgress()).toMatchObject({ phase: 'retag', indexedParts: 160, totalParts: PARTS, complete: false });

      const seen: number[] = [];
      while (index.retagStep(5)) seen.push(index.retagProgress().indexedParts);
      expect(seen.length).toBeGreaterThan(3);
      for (let i = 1; i < seen.length; i += 1) expect(seen[i]).toBeGreaterThan(seen[i - 1]!);
      expect(index.retagProgress()).toMatchObject({ phase: 'retag', complete: true });
      expect(index.walkProgress().complete).toBe(true);
      expectIndexExact(db);
    } finally {
      db.close();
    }
  });

  it('counts a move’s span from where it starts, and a span widened while the walk runs keeps what was checked', () => {
    const PARTS = 600;
    const { db } = upgradedStore(PARTS);
    try {
      const index = new SearchIndex(db);
      while (index.retagStep(50));
      // East's parts are the last 200 rowids: a move too large to re-tag in step leaves them to the walk.
      db.prepare("UPDATE sessions SET project_key = 'p1' WHERE session_id = 'east'").run();
      index.sessionMoved('east');
      expect(index.retagProgress()).toEqual({ phase: 'retag', indexedParts: 0, totalParts: 200, complete: false, deferred: false });
      expect(index.retagStep(5)).toBe(true);
      const before = index.retagProgress();
      expect(before.indexedParts).toBeGreaterThan(0);

      // North (rowids 1–200) moves before the walk ends: its span joins what is left to check.
      db.prepare("UPDATE sessions SET project_key = 'p2' WHERE session_id = 'north'").run();
      index.sessionMoved('north');
      const widened = index.retagProgress();
      expect(widened.indexedParts).toBe(before.indexedParts);
      expect(widened.totalParts).toBe(before.indexedParts + (PARTS - 0));
      while (index.retagStep(50));
      expect(index.retagProgress().complete).toBe(true);
      expectIndexExact(db);

      // A later upgrade sets the span from rowid 0 again, as migrations do (the cursor only): it counts from 0.
      db.exec(`
        INSERT INTO search_state (key, value) VALUES ('retag_cursor', 0) ON CONFLICT(key) DO UPDATE SET value = 0;
        INSERT INTO search_state (key, value) VALUES ('retag_upto', (SELECT MAX(rowid) FROM parts)) ON CONFLICT(key) DO UPDATE SET value = excluded.value;
      `);
      expect(index.retagProgress()).toMatchObject({ indexedParts: 0, totalParts: PARTS, complete: false });
    } finally {
      db.close();
    }
  });

  it('the background walk reports the re-tag phase at the backfill’s cadence, and searches say how far it has come', async () => {
    const PARTS = 8_000;
    const { db } = upgradedStore(PARTS);
    const events: Array<EventPayload<'search.indexing'>> = [];
    const logger = createMemoryLogger();
    const projects = new ProjectStore(db, new GatewayReader(db));
    const history = new History({ db, projects, env: home!.env, logger, emit: (name, payload) => name === 'search.indexing' && events.push(payload as EventPayload<'search.indexing'>), removeNotes: async () => false });
    try {
      const pending = await history.search.query({ query: 'loquat' });
      expect(pending.indexing).toEqual({ phase: 'retag', indexedParts: 0, totalParts: PARTS });

      history.startIndexing();
      await history.whenIndexed();
      expect(events.length).toBeGreaterThanOrEqual(2);
      expect(events.every((e) => e.phase === 'retag')).toBe(true);
      const first = events[0]!;
      expect(first.complete).toBe(false);
      expect(first.indexedParts).toBeGreaterThan(0);
      expect(first.indexedParts).toBeLessThan(first.totalParts);
      expect(events.at(-1)?.complete).toBe(true);
      const figures = events.filter((e) => !e.complete).map((e) => e.indexedParts);
      for (let i = 1; i < figures.length; i += 1) expect(figures[i]).toBeGreaterThan(figures[i - 1]!);
      expect((await history.search.query({ query: 'loquat' })).indexing).toBeUndefined();
    } finally {
      await history.stop();
      db.close();
    }
  });
});
