import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Core, type EventPayload } from '../../../core/index.js';
import { GATEWAY_MIGRATIONS } from '../../../core/gateway/migrations.js';
import { GatewayReader, openGateway, SearchIndex, SessionEraser } from '../../../core/gateway/index.js';
import { Capture } from '../../../core/capture/index.js';
import { parseConfig } from '../../../core/config/index.js';
import { History } from '../../../core/history/index.js';
import { IndexBackfill } from '../../../core/history/indexer.js';
import { createMemoryLogger } from '../../../core/log/index.js';
import { ProjectStore } from '../../../core/projects/index.js';
import { writeHistoryFixture } from '../../support/history.js';
import { inTransaction, openDatabase, type Db } from '../../../core/store/index.js';
import { CommitWindow } from '../../../core/gateway/commit-window.js';
import { tempHome, type TempHome } from '../../support/home.js';
import { claudeLine, writeJsonl } from '../../support/transcripts.js';

let home: TempHome | undefined;
afterEach(() => {
  home?.cleanup();
  home = undefined;
});

const PARTS = 1_200;

/**
 * A gateway.db as the version before the index left it (schema 2): parts and sessions, no index.
 * Rows are written the way that version's sink wrote them.
 */
function oldStore(dir: string): void {
  const db = openDatabase(join(dir, 'gateway.db'), { label: 'gateway', migrations: GATEWAY_MIGRATIONS.slice(0, 2) });
  const part = db.prepare("INSERT INTO parts (part_id, session_id, provider, role, kind, ts, text, meta) VALUES (?, ?, 'claude', ?, 'text', ?, ?, NULL)");
  const session = db.prepare("INSERT INTO sessions (session_id, provider, source, project_key, cwd, first_ts, last_ts, updated_at) VALUES (?, 'claude', 'code', NULL, '/work/old', ?, ?, ?)");
  const base = Date.UTC(2026, 0, 1);
  db.transaction(() => {
    for (let s = 0; s < 12; s += 1) session.run(`old-${s}`, base, base + 100 * 60_000, base);
    for (let i = 0; i < PARTS; i += 1) part.run(`cc:old-${i}:0`, `old-${i % 12}`, i % 2 === 0 ? 'user' : 'assistant', base + i * 1000, `history line ${i} about ${i % 3 === 0 ? 'orchards' : 'kitchens'} and parseConfig`);
  })();
  db.close();
}

/** A store the version before the index left, opened with today's schema, and its index. */
function openOldStore(): { home: TempHome; db: Db; index: SearchIndex } {
  const made = tempHome('steward-index-backfill-');
  home = made;
  oldStore(made.dir);
  const db = openGateway(made.dir);
  return { home: made, db, index: new SearchIndex(db) };
}

const count = (db: Db, sql: string) => db.prepare(sql).pluck().get() as number;

function expectExact(db: Db): void {
  expect(count(db, 'SELECT COUNT(*) FROM search_map')).toBe(count(db, 'SELECT COUNT(*) FROM parts'));
  expect(count(db, 'SELECT COUNT(*) FROM search_fts_docsize')).toBe(count(db, 'SELECT COUNT(*) FROM parts'));
  db.prepare("INSERT INTO search_fts (search_fts, rank) VALUES ('integrity-check', 1)").run();
}

describe('indexing a store that predates the index', () => {
  it('migrates without indexing, then indexes in the background with progress; searches say how far it has come', async () => {
    home = tempHome('steward-index-backfill-');
    oldStore(home.dir);
    const core = Core.open({ home: { dir: home.dir, kind: 'env' }, env: home.env });
    try {
      // Opening did not index anything: that is background work.
      expect(count(core.gateway, 'SELECT COUNT(*) FROM search_map')).toBe(0);
      const before = await core.call('Search.Query', { query: 'orchards' });
      expect(before.indexing).toEqual({ phase: 'index', indexedParts: 0, totalParts: PARTS });
      expect(before.hits).toEqual([]);

      const events: Array<EventPayload<'search.indexing'>> = [];
      const done = new Promise<void>((resolve) =>
        core.events.subscribe((name, payload) => {
          if (name !== 'search.indexing') return;
          const progress = payload as EventPayload<'search.indexing'>;
          events.push(progress);
          if (progress.complete) resolve();
        }),
      );
      core.history.startIndexing();
      await done;
      expect(events.at(-1)).toMatchObject({ phase: 'index', complete: true });
      // The upgrade's re-tag walk (steps 13, 14, 18) then reads every part again, with progress of its own.
      await core.history.whenIndexed();
      expect(events.at(-1)).toMatchObject({ phase: 'retag', complete: true });
      const after = await core.call('Search.Query', { query: 'orchards', limit: 100 });
      expect(after.indexing).toBeUndefined();
      expect(after.hits).toHaveLength(100);
      expect((await core.call('Search.Query', { query: 'Config', sort: 'newest', limit: 1 })).hits[0]?.partId).toBe(`cc:old-${PARTS - 1}:0`);
      expectExact(core.gateway);
      expect((await core.call('Sessions.List', {})).sessions.find((s) => s.sessionId === 'old-0')?.messages).toBe(PARTS / 12);
    } finally {
      await core.shutdown();
    }
  });

  it('resumes where it stopped after a restart, and never indexes a part twice while the sink adds new ones', async () => {
    const store = openOldStore();
    let { db, index } = store;
    const seen: number[] = [];
    for (let i = 0; i < 3; i += 1) seen.push(index.backfillStep(100).indexedParts);
    expect(seen).toEqual([100, 200, 300]);
    db.close();

    // A restart, then new parts arrive through capture while the walk is still behind.
    const roots = join(store.home.dir, 'roots');
    writeJsonl(join(roots, 'projects', '-work-new', 'new-1.jsonl'), [claudeLine({ sessionId: 'new-1', cwd: '/work/new', text: 'fresh orchards talk' })]);
    const core = Core.open({ home: { dir: store.home.dir, kind: 'env' }, env: { ...store.home.env, STEWARD_CLAUDE_ROOTS: roots } });
    try {
      await core.call('Sweep.Tick', {});
      expect((await core.call('Search.Query', { query: 'fresh' })).hits.map((h) => h.sessionId)).toEqual(['new-1']);
      expect((await core.call('Search.Query', { query: 'orchards' })).indexing).toEqual({ phase: 'index', indexedParts: 300, totalParts: PARTS });
    } finally {
      await core.shutdown();
    }
    db = openGateway(store.home.dir);
    index = new SearchIndex(db);
    let progress = index.progress();
    while (!progress.complete) progress = index.backfillStep(250);
    expectExact(db);
    db.close();
  });
});

describe('a large run leaves its parts to the index walk', () => {
  it('indexes the first parts in step, the rest after the run, and the next small run in step again', async () => {
    home = tempHome('steward-index-defer-');
    const fixture = writeHistoryFixture(join(home.dir, 'roots'));
    const env = { ...home.env, STEWARD_CLAUDE_ROOTS: fixture.claudeRoot };
    const db = openGateway(home.dir);
    const projects = new ProjectStore(db, new GatewayReader(db));
    const logger = createMemoryLogger();
    const capture = new Capture({ db, config: parseConfig({}), env, logger, projects, record: () => undefined, inStepIndexParts: 5 });
    const events: Array<{ complete: boolean }> = [];
    const history = new History({ db, projects, env, logger, emit: (name, payload) => name === 'search.indexing' && events.push(payload as { complete: boolean }), removeNotes: async () => false });
    try {
      const [stats] = await capture.tick();
      const indexed = count(db, 'SELECT COUNT(*) FROM search_map');
      expect(stats!.partsWritten).toBe(count(db, 'SELECT COUNT(*) FROM parts'));
      expect(indexed).toBeGreaterThanOrEqual(5);
      expect(indexed).toBeLessThan(stats!.partsWritten);
      const pending = await history.search.query({ query: 'apple' });
      expect(pending.indexing).toEqual({ phase: 'index', indexedParts: 0, totalParts: stats!.partsWritten - indexed });

      history.startIndexing();
      await new Promise<void>((resolve) => {
        const wait = () => (events.at(-1)?.complete ? resolve() : setTimeout(wait, 10));
        wait();
      });
      expectExact(db);
      expect((await history.search.query({ query: 'apple' })).indexing).toBeUndefined();

      writeJsonl(join(fixture.claudeRoot, 'projects', '-work-kitchen', 'later.jsonl'), [claudeLine({ sessionId: 'later', cwd: '/work/kitchen', text: 'quince jelly' })]);
      await capture.tick();
      expect((await history.search.query({ query: 'quince' })).hits.map((h) => h.sessionId)).toEqual(['later']);
      expectExact(db);
    } finally {
      await history.stop();
      await capture.stop();
      db.close();
    }
  });

  it('leaves every part of a run that will read more than the in-step bytes to the walk, from its first part', async () => {
    home = tempHome('steward-index-defer-bytes-');
    const fixture = writeHistoryFixture(join(home.dir, 'roots'));
    const env = { ...home.env, STEWARD_CLAUDE_ROOTS: fixture.claudeRoot };
    const db = openGateway(home.dir);
    const projects = new ProjectStore(db, new GatewayReader(db));
    const capture = new Capture({ db, config: parseConfig({}), env, logger: createMemoryLogger(), projects, record: () => undefined, inStepIndexBytes: 1024 });
    try {
      const [stats] = await capture.tick();
      expect(stats!.partsWritten).toBeGreaterThan(0);
      // The parts rule alone (20,000 in step) would have indexed all of this small run in step.
      expect(count(db, 'SELECT COUNT(*) FROM search_map')).toBe(0);
      const index = new SearchIndex(db);
      expect(index.progress()).toMatchObject({ totalParts: stats!.partsWritten, complete: false });

      // A live tick after it reads a few hundred bytes: its parts are searchable when it ends.
      writeJsonl(join(fixture.claudeRoot, 'projects', '-work-kitchen', 'later.jsonl'), [claudeLine({ sessionId: 'later', cwd: '/work/kitchen', text: 'quince jelly' })]);
      await capture.tick();
      expect(count(db, "SELECT COUNT(*) FROM search_map m JOIN parts p ON p.rowid = m.part_rowid WHERE p.session_id = 'later'")).toBeGreaterThan(0);
    } finally {
      await capture.stop();
      db.close();
    }
  });
});

describe('merging the index in pieces of its own', () => {
  const segments = (db: Db) => count(db, 'SELECT COUNT(DISTINCT segid) FROM search_fts_idx');

  it('leaves FTS5 no automatic merging to do inside a commit, and the walk merges what pieces left behind', async () => {
    const { db, index } = openOldStore();
    const automerge = () => db.prepare("SELECT v FROM search_fts_config WHERE k = 'automerge'").pluck().get();
    expect(automerge()).toBe(0);
    // Twelve small pieces, each its own commit: twelve segments (three levels' worth at FTS5's default).
    for (let i = 0; i < 12; i += 1) index.backfillStep(100);
    expect(index.progress().complete).toBe(true);
    const before = segments(db);
    expect(before).toBeGreaterThanOrEqual(12);
    const hits = (word: string) => db.prepare('SELECT rowid FROM search_fts WHERE search_fts MATCH ? ORDER BY rowid').pluck().all(word);
    const orchards = hits('orchards');

    const walk = new IndexBackfill({ index, logger: createMemoryLogger(), onProgress: () => undefined });
    walk.start();
    await walk.whenIdle();
    expect(segments(db)).toBeLessThan(4);
    expect(hits('orchards')).toEqual(orchards);
    expectExact(db);
    // Nothing left to merge: the next walk is one no-op piece.
    expect(index.mergePiece()).toBe(false);
    db.close();
  });

  it('a merge piece writes a few hundred pages at most, however quick the pieces before it were', () => {
    const { db, index } = openOldStore();
    const pages: number[] = [];
    const exec = db.exec.bind(db);
    db.exec = ((sql: string) => {
      const merge = /VALUES \('merge', (\d+)\)/.exec(sql);
      if (merge) pages.push(Number(merge[1]));
      return exec(sql);
    }) as Db['exec'];
    // A walk's rhythm: a small piece indexed (a segment of its own), then a piece of merging. Most
    // find little to merge and are quick, so the size grows; one that meets a real merge must not
    // meet it at thousands of pages (90-110 ms held at 4,000, forgetting 150k sessions).
    for (let i = 0; i < 120 && !index.progress().complete; i += 1) {
      index.backfillStep(10);
      index.mergePiece();
    }
    expect(pages.length).toBeGreaterThan(60);
    expect(Math.max(...pages)).toBeGreaterThan(64);
    expect(Math.max(...pages)).toBeLessThanOrEqual(300);
    db.close();
  });

  it('forgetting merges in step: thirty pieces of deletions leave a few segments, not a level per piece', async () => {
    const { db, index } = openOldStore();
    index.backfillStep(PARTS);
    const eraser = new SessionEraser(db, index);
    const erased = await eraser.erase(['old-0', 'old-1', 'old-2', 'old-3', 'old-4', 'old-5'], 20);
    expect(erased.parts).toBe(PARTS / 2);
    expect(segments(db)).toBeLessThan(8);
    expectExact(db);
    db.close();
  });
});

/** A second connection to the store: it sees only what the walk's connection has committed. */
function committedView(dir: string): { count: (sql: string) => number; close: () => void } {
  const reader = openDatabase(join(dir, 'gateway.db'), { label: 'gateway', migrations: GATEWAY_MIGRATIONS, readonly: true });
  return { count: (sql) => count(reader, sql), close: () => reader.close() };
}

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A walk over `index` whose pieces call `onPiece` first, with a stub of the checkpoint thread's gate. */
function watchedWalk(index: SearchIndex, onPiece: (rows: number) => void = () => undefined, onProgress: (progress: EventPayload<'search.indexing'>) => void = () => undefined) {
  const sizes: number[] = [];
  const watched = {
    progress: () => index.progress(),
    retagPending: () => index.retagPending(),
    pieceWindow: () => index.pieceWindow(),
    backfillStep: (rows: number) => (sizes.push(rows), onPiece(rows), index.backfillStep(rows)),
    mergePiece: () => index.mergePiece(),
  } as unknown as SearchIndex;
  const gate = { held: false, quiet: false, start: 0, enter: 0, leave: 0 };
  const checkpointer = {
    start: () => void (gate.start += 1),
    enter: () => ((gate.enter += 1), !gate.held),
    leave: () => void (gate.leave += 1),
    wantsQuiet: () => gate.quiet,
  };
  const walk = new IndexBackfill({ index: watched, checkpointer, logger: createMemoryLogger(), onProgress });
  return { walk, sizes, gate };
}

/** An old store whose walk takes pieces of at most 25 parts (dozens of turns for its 1,200), its committed view beside it. */
function smallPieceStore() {
  const { home: made, db, index } = openOldStore();
  const view = committedView(made.dir);
  const step = index.backfillStep.bind(index);
  index.backfillStep = (rows: number) => step(Math.min(rows, 25));
  return { db, index, view, close: () => (view.close(), db.close()) };
}

describe('the index walk beside WAL checkpoints', () => {
  it('lets pieces share a transaction: commits a few times rather than once a piece, never while a checkpoint holds the disk', async () => {
    const { db, index, view, close } = smallPieceStore();
    const { walk, sizes, gate } = watchedWalk(index);
    gate.held = true;
    try {
      walk.start();
      await sleep(600);
      expect(gate.start).toBe(1);
      // Pieces ran meanwhile (they write the page cache), but nothing reached the disk.
      expect(sizes.length).toBeGreaterThan(1);
      expect(view.count('SELECT COUNT(*) FROM search_map')).toBe(0);
      expect(gate.leave).toBe(0);

      gate.held = false;
      await walk.whenIdle();
      expect(index.progress().complete).toBe(true);
      expect(sizes.length).toBeGreaterThan(20);
      // A commit per piece went through the gate once a piece; a shared transaction a few times in all.
      expect(gate.leave).toBeGreaterThan(0);
      expect(gate.leave).toBeLessThan(sizes.length / 4);
      for (let i = 1; i < sizes.length; i += 1) expect(sizes[i]).toBeLessThanOrEqual(Math.round(sizes[i - 1]! * 1.15));
      expect(db.inTransaction).toBe(false);
      expect(view.count('SELECT COUNT(*) FROM search_map')).toBe(PARTS);
      expectExact(db);
    } finally {
      await walk.stop();
      close();
    }
  });

  it('never commits another writer’s transaction, even one begun after SQLite rolled the walk’s own back', async () => {
    const { db, index, view, close } = smallPieceStore();
    const capture = new CommitWindow(db);
    const checks: Array<{ open: boolean; foreign: number }> = [];
    const foreign = () => view.count("SELECT COUNT(*) FROM search_state WHERE key = 'foreign'");
    const { walk, sizes } = watchedWalk(index, () => {
      if (sizes.length === 3) {
        setImmediate(() => {
          // SQLite ends the walk's transaction on its own (an I/O error does), then capture opens a window.
          if (db.inTransaction) db.exec('ROLLBACK');
          capture.open();
          db.prepare("INSERT INTO search_state (key, value) VALUES ('foreign', 1)").run();
        });
      }
      // The walk's pieces in between join capture's window and leave it to capture, however long they
      // take together (longer than a window of the walk's own lasts).
      if (sizes.length > 4 && sizes.length < 9) {
        checks.push({ open: capture.isOpen && db.inTransaction, foreign: foreign() });
        for (const until = performance.now() + 80; performance.now() < until; );
      }
      if (sizes.length === 9) capture.commit();
    });
    try {
      walk.start();
      await walk.whenIdle();
      expect(checks).toHaveLength(4);
      expect(checks.every((c) => c.open && c.foreign === 0)).toBe(true);
      expect(foreign()).toBe(1);
      // What the rollback lost was indexed again: the cursor went back with the rows it covered.
      expect(view.count('SELECT COUNT(*) FROM search_map')).toBe(PARTS);
      expectExact(db);
    } finally {
      await walk.stop();
      close();
    }
  });

  it('commits what another writer wrote into its transaction before its next piece', async () => {
    const { db, index, view, close } = smallPieceStore();
    const seen: number[] = [];
    const { walk, sizes } = watchedWalk(index, () => {
      if (sizes.length === 3) setImmediate(() => inTransaction(db, () => db.prepare("INSERT INTO search_state (key, value) VALUES ('joined', 1)").run()));
      if (sizes.length === 5) seen.push(view.count("SELECT COUNT(*) FROM search_state WHERE key = 'joined'"));
    });
    try {
      walk.start();
      await walk.whenIdle();
      expect(seen).toEqual([1]);
      expectExact(db);
    } finally {
      await walk.stop();
      close();
    }
  });

  it('tells each walk complete only once its last rows are committed: a reader on another connection sees them all', async () => {
    const { db, index, view, close } = smallPieceStore();
    const told: Array<{ phase: string | undefined; open: boolean; indexed: number; cursor: number }> = [];
    const { walk } = watchedWalk(index, undefined, (progress) => {
      if (progress.complete) told.push({ phase: progress.phase, open: db.inTransaction, indexed: view.count('SELECT COUNT(*) FROM search_map'), cursor: view.count("SELECT value FROM search_state WHERE key = 'backfill_done'") });
    });
    try {
      walk.start();
      await walk.whenIdle();
      expect(told.map((t) => t.phase)).toContain('index');
      for (const t of told) expect(t).toMatchObject({ open: false, indexed: PARTS, cursor: PARTS });
    } finally {
      await walk.stop();
      close();
    }
  });

  it('stops between pieces with what it indexed committed with its cursor, and leaves no transaction open', async () => {
    const { db, index, view, close } = smallPieceStore();
    const { walk, sizes } = watchedWalk(index);
    try {
      walk.start();
      while (sizes.length < 6) await turn();
      await walk.stop();
      expect(db.inTransaction).toBe(false);
      const indexed = view.count('SELECT COUNT(*) FROM search_map');
      expect(indexed).toBeGreaterThan(0);
      expect(indexed).toBeLessThan(PARTS);
      expect(view.count("SELECT value FROM search_state WHERE key = 'backfill_done'")).toBe(indexed);
    } finally {
      close();
    }
  });

  it('leaves no transaction open while someone empties the WAL', async () => {
    const { db, index } = openOldStore();
    const step = index.backfillStep.bind(index);
    index.backfillStep = (rows: number) => step(Math.min(rows, 25));
    const { walk, sizes, gate } = watchedWalk(index);
    try {
      walk.start();
      while (sizes.length < 4) await turn();
      gate.quiet = true;
      await turn();
      await turn();
      const pieces = sizes.length;
      const open: boolean[] = [];
      for (let i = 0; i < 20; i += 1) {
        open.push(db.inTransaction);
        await sleep(2);
      }
      expect(open.every((o) => !o)).toBe(true);
      expect(sizes.length).toBe(pieces);
      gate.quiet = false;
      await walk.whenIdle();
      expectExact(db);
    } finally {
      await walk.stop();
      db.close();
    }
  });
});
