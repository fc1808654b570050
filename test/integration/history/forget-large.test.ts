import { describe, expect, it } from 'vitest';
import type { Core, EventPayload } from '../../../core/index.js';
import { DiskScrub, SearchIndex, SessionEraser, Tombstones, type PieceGate } from '../../../core/gateway/index.js';
import { Forgetting } from '../../../core/history/forget.js';
import { createRedactor } from '../../../core/secrets/index.js';
import type { Db } from '../../../core/store/index.js';
import { coreHome } from '../../support/core.js';
import { expectIndexExact } from '../../support/search-index.js';

const BIG = '/work/big-project';
const SMALL = '/work/small-project';
/** The eraser's most rows (parts and session rows) per piece. */
const MOST_ROWS_PER_PIECE = 2_000;

const temp = coreHome('steward-forget-large-');
const open = (schedule = false): Core => temp.open({ schedule });

const count = (db: Db, sql: string, ...args: unknown[]) => db.prepare(sql).pluck().get(...args) as number;

interface Store {
  big: string;
  small: string;
  /** Session rows of the big project's conversations, subagents included. */
  bigSessions: number;
}

/**
 * `sessions` conversations of two parts each in one project, the first with a subagent (row names its
 * parent, no project) and that one with its own (known only by the `:agent-` form of its id); each
 * conversation leaves a title claim. Another project of three conversations must come through whole.
 */
function bigStore(c: Core, sessions: number): Store {
  const db = c.gateway;
  const big = c.projects.touch(BIG);
  const small = c.projects.touch(SMALL);
  const session = db.prepare("INSERT INTO sessions (session_id, provider, source, project_key, cwd, parent_session_id, first_ts, last_ts, updated_at) VALUES (?, 'claude', 'code', ?, ?, ?, 1, 2, 1)");
  const part = db.prepare("INSERT INTO parts (part_id, session_id, provider, role, kind, ts, text) VALUES (?, ?, 'claude', ?, 'text', ?, ?)");
  const claim = db.prepare("INSERT INTO title_claims (leaf_prefix, fallback_session_id, title, title_source) VALUES (?, ?, 'a summary', 'summary')");
  const add = (id: string, projectKey: string | null, cwd: string | null, parent: string | null, words: string) => {
    session.run(id, projectKey, cwd, parent);
    part.run(`cc:${id}:q`, id, 'user', 1_700_000_000_000, `question about ${words}`);
    part.run(`cc:${id}:a`, id, 'assistant', 1_700_000_001_000, `answer about ${words}`);
    claim.run(`leaf-${id}`, id);
  };
  db.transaction(() => {
    for (let i = 0; i < sessions; i += 1) add(`big-${String(i).padStart(6, '0')}`, big, BIG, null, 'orchards');
    add('big-000000:agent-a1', null, null, 'big-000000', 'grafting');
    add('big-000000:agent-a1:agent-b2', null, null, null, 'grafting');
    for (let i = 0; i < 3; i += 1) add(`small-${i}`, small, SMALL, null, 'kitchens');
  })();
  new SearchIndex(db).indexAfter(0);
  expectIndexExact(db);
  return { big, small, bigSessions: sessions + 2 };
}

/** What is left of the small project: its rows, claims and search hits are as they were. */
async function expectSmallWhole(c: Core, store: Store): Promise<void> {
  expect(count(c.gateway, 'SELECT COUNT(*) FROM sessions WHERE project_key = ?', store.small)).toBe(3);
  expect(count(c.gateway, "SELECT COUNT(*) FROM parts WHERE session_id LIKE 'small-%'")).toBe(6);
  expect(count(c.gateway, "SELECT COUNT(*) FROM title_claims WHERE fallback_session_id LIKE 'small-%'")).toBe(3);
  expect((await c.call('Search.Query', { query: 'kitchens', limit: 100 })).hits).toHaveLength(6);
  expect((await c.call('Projects.Get', { projectKey: store.small })).projectKey).toBe(store.small);
}

async function expectBigGone(c: Core, store: Store): Promise<void> {
  expect(count(c.gateway, "SELECT COUNT(*) FROM sessions WHERE session_id LIKE 'big-%'")).toBe(0);
  expect(count(c.gateway, "SELECT COUNT(*) FROM parts WHERE session_id LIKE 'big-%'")).toBe(0);
  expect(count(c.gateway, "SELECT COUNT(*) FROM title_claims WHERE fallback_session_id LIKE 'big-%'")).toBe(0);
  expect((await c.call('Search.Query', { query: 'orchards' })).hits).toEqual([]);
  expect((await c.call('Search.Query', { query: 'grafting' })).hits).toEqual([]);
  expect((await c.call('Projects.List', {})).projects.map((p) => p.projectKey)).toEqual([store.small]);
  expect((await c.call('Forget.List', {})).tombstones).toEqual([{ kind: 'project', id: store.big, label: 'big-project', createdAt: expect.any(Number) }]);
  expectIndexExact(c.gateway);
}

describe('forgetting a project of tens of thousands of conversations', () => {
  it('deletes every row inside short pieces, each after a turn of the event loop, finds subagents in pieces too, and reports progress', async () => {
    const c = open();
    const store = bigStore(c, 20_000);
    const db = c.gateway;
    const rows = () => count(db, 'SELECT (SELECT COUNT(*) FROM sessions) + (SELECT COUNT(*) FROM parts) + (SELECT COUNT(*) FROM title_claims)');
    // Every row the connection wrote (index rows, counts and merges too); reading it costs nothing.
    const changes = () => count(db, 'SELECT total_changes()');

    // Turns of the event loop, counted while the forget runs.
    let turns = 0;
    let ticking = true;
    const tick = () => {
      turns += 1;
      if (ticking) setImmediate(tick);
    };
    setImmediate(tick);

    // Capture's disk gate as the forget sees it: what each piece found stored as it entered (counted
    // before the piece is timed), and what the connection had written as each entered and left.
    const pieces: Array<{ turn: number; rows: number; entered: number; left: number }> = [];
    const gate: PieceGate = {
      start: () => undefined,
      enter: () => {
        pieces.push({ turn: turns, rows: rows(), entered: changes(), left: -1 });
        return true;
      },
      leave: () => {
        pieces.at(-1)!.left = changes();
      },
    };
    const progress: Array<EventPayload<'forget.progress'>> = [];
    const forgetting = new Forgetting({
      tombstones: new Tombstones(db),
      eraser: new SessionEraser(db, new SearchIndex(db), gate),
      scrub: new DiskScrub(db, new SearchIndex(db)),
      sessions: c.history.sessions,
      projects: { describe: (key) => c.projects.get(key) ?? null, remove: (key) => c.projects.remove(key) },
      removeNotes: async () => false,
      redactor: () => createRedactor(),
      emit: (name, payload) => {
        if (name === 'forget.progress') progress.push(payload as EventPayload<'forget.progress'>);
      },
    });
    const before = rows();
    const result = await forgetting.project(store.big);
    ticking = false;

    expect(result).toEqual({ kind: 'project', id: store.big, removedParts: 2 * store.bigSessions, removedSessions: store.bigSessions, notesRemoved: false });
    // Nothing was written between pieces; before the first only the tombstone, after the last only the project row's removal.
    expect(pieces[0]!.rows).toBe(before);
    for (let i = 1; i < pieces.length; i += 1) expect(pieces[i]!.entered).toBe(pieces[i - 1]!.left);
    expect(changes() - pieces.at(-1)!.left).toBe(1);
    // Each piece deleted a bounded number of rows (parts and session rows, a title claim with each
    // session), and the event loop turned between any two.
    const deleted = pieces.map((p, i) => p.rows - (pieces[i + 1]?.rows ?? rows()));
    expect(deleted.reduce((a, b) => a + b, 0)).toBe(before - rows());
    expect(Math.max(...deleted)).toBeLessThanOrEqual(2 * MOST_ROWS_PER_PIECE);
    for (let i = 1; i < pieces.length; i += 1) expect(pieces[i]!.turn).toBeGreaterThan(pieces[i - 1]!.turn);
    // Finding the subagents of 20,002 sessions is a query each: it turned the event loop as it went.
    expect(pieces[0]!.turn).toBeGreaterThanOrEqual(store.bigSessions / MOST_ROWS_PER_PIECE);

    expect(progress.at(-1)).toEqual({ kind: 'project', id: store.big, sessionsDone: store.bigSessions, sessionsTotal: store.bigSessions, removedParts: 2 * store.bigSessions, complete: true });
    expect(progress.filter((p) => p.complete)).toHaveLength(1);
    for (let i = 1; i < progress.length; i += 1) expect(progress[i]!.sessionsDone).toBeGreaterThanOrEqual(progress[i - 1]!.sessionsDone);

    await expectBigGone(c, store);
    await expectSmallWhole(c, store);
  }, 60_000);

  it('a stop cuts it short between pieces (the call says cancelled); the next start of the owner finishes it', async () => {
    let c = open();
    const store = bigStore(c, 6_000);
    const forget = c.call('Forget.Project', { projectKey: store.big });
    const outcome = forget.then(
      () => 'finished',
      (error: unknown) => (error as { code?: string }).code,
    );
    // Stop once some conversations are gone, and well before all are.
    while (count(c.gateway, 'SELECT COUNT(*) FROM sessions WHERE project_key = ?', store.big) > 5_000) await new Promise((resolve) => setImmediate(resolve));
    await temp.close();
    expect(await outcome).toBe('cancelled');

    c = open();
    // What was deleted stays deleted, the rest waits whole: the index is exact, the project still listed.
    const left = count(c.gateway, 'SELECT COUNT(*) FROM sessions WHERE project_key = ?', store.big);
    expect(left).toBeGreaterThan(0);
    expect(left).toBeLessThanOrEqual(5_000);
    expect(count(c.gateway, 'SELECT COUNT(*) FROM parts WHERE session_id NOT IN (SELECT session_id FROM sessions)')).toBe(0);
    expect((await c.call('Projects.List', {})).projects.map((p) => p.projectKey).sort()).toEqual([store.big, store.small].sort());
    expect((await c.call('Forget.List', {})).tombstones.map((t) => t.id)).toEqual([store.big]);
    expectIndexExact(c.gateway);
    await temp.close();

    // The owner's next start finishes the forget in the background.
    c = open(true);
    const finished = new Promise<void>((resolve) =>
      c.events.subscribe((name, payload) => {
        if (name === 'history.changed' && (payload as EventPayload<'history.changed'>).id === store.big) resolve();
      }),
    );
    await finished;
    await expectBigGone(c, store);
    await expectSmallWhole(c, store);
  });

  it('unforgetting it while it runs stops it there: what is left stays, and no start finishes it', async () => {
    let c = open();
    const store = bigStore(c, 6_000);
    const outcome = c.call('Forget.Project', { projectKey: store.big }).then(
      () => 'finished',
      (error: unknown) => (error as { code?: string }).code,
    );
    while (count(c.gateway, 'SELECT COUNT(*) FROM sessions WHERE project_key = ?', store.big) > 5_000) await new Promise((resolve) => setImmediate(resolve));
    expect(await c.call('Forget.Lift', { kind: 'project', id: store.big })).toEqual({ lifted: true });
    expect(await outcome).toBe('cancelled');
    const left = count(c.gateway, 'SELECT COUNT(*) FROM sessions WHERE project_key = ?', store.big);
    expect(left).toBeGreaterThan(0);
    // The ids it kept of what it erased went with its record: none is kept once lifted, whatever the race.
    expect(count(c.gateway, 'SELECT COUNT(*) FROM history_tombstone_kept')).toBe(0);
    expectIndexExact(c.gateway);
    await temp.close();

    // Nothing is left to finish: the tombstone is gone, so a start keeps what is there.
    c = open(true);
    // What the start began (finishing interrupted forgets) has settled once this call, queued behind it, has.
    await c.history.forgetting.finishInterrupted();
    expect(count(c.gateway, 'SELECT COUNT(*) FROM sessions WHERE project_key = ?', store.big)).toBe(left);
    expect((await c.call('Forget.List', {})).tombstones).toEqual([]);
  });
});

/** A page of a project's sessions, as the eraser reads and erases them: far fewer than the big project has. */
const PAGE = 300;

/** Forgetting as the owner wires it, over `eraser`, keeping every `forget.progress` event it sends. */
function forgettingWith(c: Core, eraser: SessionEraser, progress: Array<EventPayload<'forget.progress'>> = [], removeNotes: () => Promise<boolean> = async () => false): Forgetting {
  return new Forgetting({
    tombstones: new Tombstones(c.gateway),
    eraser,
    scrub: new DiskScrub(c.gateway, new SearchIndex(c.gateway)),
    sessions: c.history.sessions,
    projects: { describe: (key) => c.projects.describe(key), remove: (key) => c.projects.remove(key) },
    removeNotes,
    redactor: () => createRedactor(),
    emit: (name, payload) => {
      if (name === 'forget.progress') progress.push(payload as EventPayload<'forget.progress'>);
    },
  });
}

/** The eraser's reads of a project's sessions (how many ids each gave, at which turn of the event loop), and a hook run before each. */
function recordPages(eraser: SessionEraser, before: (n: number) => void = () => undefined) {
  const pages: Array<{ ids: number; turn: number }> = [];
  let turns = 0;
  let ticking = true;
  const tick = () => {
    turns += 1;
    if (ticking) setImmediate(tick);
  };
  setImmediate(tick);
  const read = eraser.sessionsOfProject.bind(eraser);
  eraser.sessionsOfProject = (projectKey, limit) => {
    before(pages.length);
    const ids = read(projectKey, limit);
    pages.push({ ids: ids.length, turn: turns });
    return ids;
  };
  return { pages, stop: () => (ticking = false) };
}

const addSession = (db: Db, id: string, projectKey: string | null, parent: string | null = null) => {
  db.prepare("INSERT INTO sessions (session_id, provider, source, project_key, parent_session_id, first_ts, last_ts, updated_at) VALUES (?, 'claude', 'code', ?, ?, 1, 2, 1)").run(id, projectKey, parent);
  db.prepare("INSERT INTO parts (part_id, session_id, provider, role, kind, ts, text) VALUES (?, ?, 'claude', 'user', 'text', 1700000000000, 'late orchards')").run(`cc:${id}:q`, id);
};

describe('forgetting a project a page of its sessions at a time', () => {
  it('reads at most a page of its session ids at once, with a turn of the event loop between pages, and forgets it whole', async () => {
    const c = open();
    const store = bigStore(c, 1_000);
    const eraser = new SessionEraser(c.gateway, new SearchIndex(c.gateway), undefined, PAGE);
    const { pages, stop } = recordPages(eraser);
    const progress: Array<EventPayload<'forget.progress'>> = [];
    const result = await forgettingWith(c, eraser, progress).project(store.big);
    stop();

    expect(result).toEqual({ kind: 'project', id: store.big, removedParts: 2 * store.bigSessions, removedSessions: store.bigSessions, notesRemoved: false });
    // Each page is the front of what the last left; the empty one ends it.
    expect(pages.map((p) => p.ids)).toEqual([PAGE, PAGE, PAGE, 1_000 - 3 * PAGE, 0]);
    for (let i = 1; i < pages.length; i += 1) expect(pages[i]!.turn).toBeGreaterThan(pages[i - 1]!.turn);
    expect(progress.at(-1)).toEqual({ kind: 'project', id: store.big, sessionsDone: store.bigSessions, sessionsTotal: store.bigSessions, removedParts: 2 * store.bigSessions, complete: true });
    await expectBigGone(c, store);
    await expectSmallWhole(c, store);
  });

  it('says the whole total from its first report on, done rising to it: subagents found outside the project are added once, those in it not twice', async () => {
    const c = open();
    const store = bigStore(c, 1_000);
    // A subagent whose row names the project but comes last in it: erased with its parent on the first page.
    addSession(c.gateway, 'big-000000:agent-c3', store.big);
    const total = store.bigSessions + 1;
    const eraser = new SessionEraser(c.gateway, new SearchIndex(c.gateway), undefined, PAGE);
    const { pages, stop } = recordPages(eraser);
    const progress: Array<{ sessionsDone: number; sessionsTotal: number; parts: number }> = [];
    const erased = await eraser.eraseProject(store.big, undefined, { onProgress: (p) => progress.push(p) });
    stop();

    expect(erased).toEqual({ parts: 2 * store.bigSessions + 1, sessions: total });
    expect(pages.map((p) => p.ids)).toEqual([PAGE, PAGE, PAGE, 1_000 - 3 * PAGE, 0]);
    expect(progress.length).toBeGreaterThan(pages.length);
    expect(new Set(progress.map((p) => p.sessionsTotal))).toEqual(new Set([total]));
    for (let i = 1; i < progress.length; i += 1) expect(progress[i]!.sessionsDone).toBeGreaterThanOrEqual(progress[i - 1]!.sessionsDone);
    expect(progress.at(-1)).toEqual({ sessionsDone: total, sessionsTotal: total, parts: erased.parts });
  });

  it('erases a session added to the project while it runs, found by a later page', async () => {
    const c = open();
    const store = bigStore(c, 1_000);
    let added = false;
    // Added as the first piece begins, after the first page was read.
    const gate: PieceGate = {
      start: () => undefined,
      enter: () => {
        if (!added) addSession(c.gateway, 'late-session', store.big);
        added = true;
        return true;
      },
      leave: () => undefined,
    };
    const eraser = new SessionEraser(c.gateway, new SearchIndex(c.gateway), gate, PAGE);
    const result = await forgettingWith(c, eraser).project(store.big);

    expect(result).toMatchObject({ removedSessions: store.bigSessions + 1, removedParts: 2 * store.bigSessions + 1 });
    expect(count(c.gateway, "SELECT COUNT(*) FROM sessions WHERE session_id = 'late-session'")).toBe(0);
    await expectBigGone(c, store);
    await expectSmallWhole(c, store);
  });

  it('unforgetting it on a later page stops it there: no page after is read', async () => {
    const c = open();
    const store = bigStore(c, 1_000);
    const eraser = new SessionEraser(c.gateway, new SearchIndex(c.gateway), undefined, PAGE);
    const forgetting = forgettingWith(c, eraser);
    // Lifted as the second page is about to be read.
    const { pages, stop } = recordPages(eraser, (n) => n === 1 && forgetting.lift('project', store.big));
    const outcome = await forgetting.project(store.big).then(
      () => 'finished',
      (error: unknown) => (error as { code?: string }).code,
    );
    stop();

    expect(outcome).toBe('cancelled');
    expect(pages.map((p) => p.ids)).toEqual([PAGE, PAGE]);
    expect(count(c.gateway, 'SELECT COUNT(*) FROM sessions WHERE project_key = ?', store.big)).toBe(1_000 - PAGE);
    expect((await c.call('Forget.List', {})).tombstones).toEqual([]);
    expectIndexExact(c.gateway);
  });

  it('unforgetting it while it erases says its notes went with the forget it cut short; after a forget that finished, it says nothing of them', async () => {
    const c = open();
    const store = bigStore(c, 1_000);
    const eraser = new SessionEraser(c.gateway, new SearchIndex(c.gateway), undefined, PAGE);
    const forgetting = forgettingWith(c, eraser, [], async () => true);
    let answer: ReturnType<Forgetting['unforget']> | undefined;
    const { stop } = recordPages(eraser, (n) => {
      if (n === 1) answer = forgetting.unforget('project', store.big);
    });
    const outcome = await forgetting.project(store.big).then(
      () => 'finished',
      (error: unknown) => (error as { code?: string }).code,
    );
    stop();

    expect(outcome).toBe('cancelled');
    expect(await answer).toEqual({ lifted: true, notesRemoved: true });
    await forgetting.project(store.big);
    expect(await forgetting.unforget('project', store.big)).toEqual({ lifted: true });
  });

  it('unforgetting it while its notes are being removed stops it before any row goes, and says the notes went', async () => {
    const c = open();
    const store = bigStore(c, 1_000);
    const eraser = new SessionEraser(c.gateway, new SearchIndex(c.gateway), undefined, PAGE);
    let answer: ReturnType<Forgetting['unforget']> | undefined;
    // Asked while the removal waits (the sweeper's, on a sweep of the project still running).
    const forgetting: Forgetting = forgettingWith(c, eraser, [], async () => {
      await new Promise((resolve) => setImmediate(resolve));
      answer = forgetting.unforget('project', store.big);
      return true;
    });
    const outcome = await forgetting.project(store.big).then(
      () => 'finished',
      (error: unknown) => (error as { code?: string }).code,
    );

    expect(outcome).toBe('cancelled');
    expect(await answer).toEqual({ lifted: true, notesRemoved: true });
    expect(count(c.gateway, 'SELECT COUNT(*) FROM sessions WHERE project_key = ?', store.big)).toBe(1_000);
    expect((await c.call('Projects.List', {})).projects.map((p) => p.projectKey).sort()).toEqual([store.big, store.small].sort());
  });
});
