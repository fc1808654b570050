import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GatewayReader, Materializer, SearchIndex, SessionEraser, Sink, Spool, Tombstones } from '../../../core/gateway/index.js';
import { GATEWAY_MIGRATIONS } from '../../../core/gateway/migrations.js';
import { ProjectStore } from '../../../core/projects/index.js';
import { migrate, type Db } from '../../../core/store/index.js';
import type { PartRow, SessionRow, TitleClaim, TranscriptBatch } from '../../../core/transcripts/index.js';
import { tempHome, type TempHome } from '../../support/home.js';
import { partRow, sessionRow } from '../../support/rows.js';

function part(sessionId: string, id: string): PartRow {
  return partRow({ partId: `cc:${id}:0`, sessionId, text: id });
}

function session(sessionId: string): SessionRow {
  return sessionRow({ sessionId });
}

function batch(sessionId: string, ids: string[]): TranscriptBatch {
  return { parts: ids.map((id) => part(sessionId, id)), sessions: [session(sessionId)] };
}

let home: TempHome;
let db: Db;
let sql: string[];

beforeEach(() => {
  home = tempHome();
  sql = [];
  // better-sqlite3 reports every executed statement to `verbose`: the test sees exactly what ran.
  db = new Database(join(home.dir, 'gateway.db'), { verbose: (statement) => sql.push(String(statement)) });
  migrate(db, GATEWAY_MIGRATIONS, 'gateway');
});
afterEach(() => {
  db.close();
  home.cleanup();
});

const SESSION = String.raw`WHERE\s+session_id\s*=\s*(?:\?|'[^']*')`;
/** A probe of one session's candidate ids (the unary + keeps it off the session's range). */
const CANDIDATE_PROBE = new RegExp(String.raw`WHERE\s+\+session_id\s*=\s*(?:\?|'[^']*')\s+AND\s+part_id\s+IN\s*\(`, 'i');
/** The once-per-run question whether a session has any committed part: one row of its range at most. */
const SESSION_PROBE = new RegExp(String.raw`^SELECT 1 FROM parts ${SESSION} LIMIT 1$`, 'i');

/** The full-text index's upkeep of the rows a batch wrote: bounded by rowid (the newest, those above it, those listed). */
const ROWID_BOUND = /MAX\(rowid\)|\browid\s*>\s*\S|\browid\s+IN\s*\(SELECT value FROM json_each/i;

/** The stored words and cut facts (meta) of parts whose ids a batch brought again (a copy in another file?): one seek of the part_id key each. */
const COLLIDED_READ = /^SELECT part_id, text, meta FROM parts WHERE part_id IN \(/i;

/** A read of committed parts that is neither of the restricted probes nor the index upkeep of new rows. */
function unrestrictedPartReads(statements: string[]): string[] {
  return statements.filter((s) => /\bFROM\s+parts\b/i.test(s) && !CANDIDATE_PROBE.test(s) && !SESSION_PROBE.test(s) && !ROWID_BOUND.test(s) && !COLLIDED_READ.test(s));
}

/** A part row as an older version left it in the spool (rows are written through the commit window now). */
function leftover(sessionId: string, id: string): void {
  db.prepare("INSERT INTO spool (kind, id, session_id, provider, role, part_kind, ts, text, meta) VALUES ('part', ?, ?, 'claude', 'user', 'text', 1, ?, NULL)").run(`cc:${id}:0`, sessionId, id);
}

function parts(): { spool: Spool; sink: Sink; materializer: Materializer } {
  const spool = new Spool(db);
  const sink = new Sink(db, new ProjectStore(db, new GatewayReader(db)));
  return { spool, sink, materializer: new Materializer(db, spool, sink) };
}

describe('Materializer', () => {
  it('keeps two run tokens isolated and probes only candidate ids, never the committed set', () => {
    const { spool, sink, materializer } = parts();
    // Committed history the probes must not read wholesale.
    const seed = new Materializer(db, spool, sink);
    seed.materialize({}, batch('old', Array.from({ length: 50 }, (_, i) => `old-${i}`)));
    expect(db.prepare('SELECT COUNT(*) FROM parts').pluck().get()).toBe(50);
    // A cold import of new parts asks nothing of them: only an id stored already is compared (below).
    expect(sql.filter((s) => COLLIDED_READ.test(s))).toEqual([]);
    sql.length = 0;

    const runA = {};
    const runB = {};
    expect(materializer.materialize(runA, batch('s1', ['a1', 'a2'])).partsAppended).toBe(2);
    expect(materializer.materialize(runB, batch('s2', ['b1', 'old-3'])).partsAppended).toBe(2);
    // Run A's in-run state survived run B: its own ids are not emitted twice.
    expect(materializer.materialize(runA, batch('s1', ['a1', 'a2', 'a3'])).partsAppended).toBe(1);
    // A committed id in its real session is answered by the candidate probe.
    expect(materializer.materialize(runB, batch('old', ['old-1', 'old-2', 'new-1'])).partsAppended).toBe(1);
    expect(materializer.hasRun(runA) && materializer.hasRun(runB)).toBe(true);

    const partReads = sql.filter((s) => /\bFROM\s+parts\b/i.test(s));
    expect(unrestrictedPartReads(sql), unrestrictedPartReads(sql).join("\n")).toEqual([]);
    // Each session is asked about once per run; only 'old', which has committed parts, is probed by id.
    expect(partReads.filter((s) => SESSION_PROBE.test(s)).map((s) => /session_id = '([^']*)'/.exec(s)?.[1])).toEqual(['s1', 's2', 'old']);
    const candidateProbes = partReads.filter((s) => CANDIDATE_PROBE.test(s));
    expect(candidateProbes).toHaveLength(1);
    // A probe names only its own batch's candidates.
    expect(candidateProbes[0]).toContain("session_id = 'old'");
    expect(candidateProbes[0]).toContain('cc:new-1:0');
    expect(candidateProbes[0]).not.toContain('cc:a1:0');
    // One seek of the part_id key per candidate, never a walk of the session's range of parts.
    const plan = db.prepare(`EXPLAIN QUERY PLAN ${candidateProbes[0]}`).all() as { detail: string }[];
    expect(plan.map((row) => row.detail)).toEqual([expect.stringMatching(/^SEARCH parts USING INDEX sqlite_autoindex_parts_1 \(part_id=\?\)$/)]);
    // Only ids stored already are compared with what was stored, each by its key: old-3 (stored under
    // another session), old-1 and old-2; never a new part, nor a run's own re-emission.
    const compared = partReads.filter((s) => COLLIDED_READ.test(s));
    expect([...new Set(compared.flatMap((s) => [...s.matchAll(/'([^']*)'/g)].map((m) => m[1])))].sort()).toEqual(['cc:old-1:0', 'cc:old-2:0', 'cc:old-3:0']);
    expect((db.prepare(`EXPLAIN QUERY PLAN ${compared[0]}`).all() as { detail: string }[]).map((row) => row.detail)).toEqual([expect.stringMatching(/^SEARCH parts USING INDEX sqlite_autoindex_parts_1 \(part_id=\?\)$/)]);
    // The spool is snapshotted once per run token, not once per batch.
    expect(sql.filter((s) => /SELECT id FROM spool/i.test(s))).toHaveLength(2);
  });

  it('a session new to the cache is answered by the run itself; committed ids in a known session are still found', () => {
    const { materializer } = parts();
    const run = {};
    // Written and committed within the run, as a commit window does: later batches must not re-append.
    expect(materializer.materialize(run, batch('fresh', ['f1', 'f2'])).partsAppended).toBe(2);
    expect(materializer.materialize(run, batch('fresh', ['f1', 'f2', 'f3'])).partsAppended).toBe(1);
    // A new run meets the same session with committed parts: its candidates are probed and found.
    sql.length = 0;
    expect(materializer.materialize({}, batch('fresh', ['f1', 'f2', 'f3', 'f4'])).partsAppended).toBe(1);
    expect(sql.filter((s) => CANDIDATE_PROBE.test(s))).toHaveLength(1);
    expect(db.prepare("SELECT COUNT(*) FROM parts WHERE session_id = 'fresh'").pluck().get()).toBe(4);
  });

  it('remembers a bounded number of ids per run: a forgotten session is probed instead, and nothing is appended twice', () => {
    const { spool, sink } = parts();
    const materializer = new Materializer(db, spool, sink, undefined, 4);
    const run = {};
    expect(materializer.materialize(run, batch('a', ['a1', 'a2', 'a3'])).partsAppended).toBe(3);
    // Session b takes the run past 4 ids: a, met longest ago, is forgotten.
    expect(materializer.materialize(run, batch('b', ['b1', 'b2'])).partsAppended).toBe(2);
    sql.length = 0;
    // a again, with one new line: its candidates are probed (the probe sees this run's rows).
    expect(materializer.materialize(run, batch('a', ['a1', 'a2', 'a3', 'a4'])).partsAppended).toBe(1);
    expect(sql.filter((s) => CANDIDATE_PROBE.test(s))).toHaveLength(1);
    // b is still remembered: answered by the run, not probed.
    sql.length = 0;
    expect(materializer.materialize(run, batch('b', ['b1', 'b2', 'b3'])).partsAppended).toBe(1);
    expect(sql.filter((s) => CANDIDATE_PROBE.test(s))).toHaveLength(0);
    expect(db.prepare('SELECT COUNT(*) FROM parts').pluck().get()).toBe(7);
  });

  it('an id still in the spool (left by an older version) is seen through the spool snapshot, not a committed read', () => {
    const { sink, materializer } = parts();
    leftover('s', 'x1');
    sql.length = 0;
    expect(materializer.materialize({}, batch('s', ['x1', 'x2'])).partsAppended).toBe(1);
    expect(db.prepare("SELECT COUNT(*) FROM spool WHERE kind = 'part'").pluck().get()).toBe(1);
    expect(sql.some((s) => /\bFROM\s+parts\b/i.test(s) && s.includes('cc:x1:0'))).toBe(false);
    // The sink moves it; nothing is doubled.
    expect(sink.flushStep().partsWritten).toBe(1);
    expect(db.prepare("SELECT COUNT(*) FROM parts WHERE session_id = 's'").pluck().get()).toBe(2);
  });

  it('writes a run straight into the committed tables: no part passes through the spool', () => {
    const { materializer } = parts();
    sql.length = 0;
    expect(materializer.materialize({}, batch('direct', ['d1', 'd2']))).toMatchObject({ partsAppended: 2, partsWritten: 2 });
    expect(sql.filter((s) => /\bspool\b/i.test(s) && !/SELECT id FROM spool/i.test(s))).toEqual([]);
    expect(db.prepare("SELECT COUNT(*) FROM parts WHERE session_id = 'direct'").pluck().get()).toBe(2);
  });

  it('a refreshing read rewrites what a newer parser says about parts the session holds; other sessions keep theirs', () => {
    const { materializer } = parts();
    materializer.materialize({}, { parts: [partRow({ partId: 'cc:r1:0', sessionId: 'r', kind: 'unknown', text: '{}' })], sessions: [session('r')] });
    materializer.materialize({}, { parts: [partRow({ partId: 'cc:o1:0', sessionId: 'other', text: 'first copy' })], sessions: [session('other')] });
    const again = materializer.materialize(
      {},
      {
        parts: [partRow({ partId: 'cc:r1:0', sessionId: 'r', kind: 'text', text: 'plain words', flags: 8 }), partRow({ partId: 'cc:o1:0', sessionId: 'r', text: 'a copy in r' })],
        sessions: [session('r')],
      },
      { refresh: true },
    );
    expect(again).toMatchObject({ partsWritten: 0 });
    expect(db.prepare('SELECT part_id, session_id, kind, text, genuine_user_turn AS g FROM parts ORDER BY part_id').all()).toEqual([
      { part_id: 'cc:o1:0', session_id: 'other', kind: 'text', text: 'first copy', g: 0 },
      { part_id: 'cc:r1:0', session_id: 'r', kind: 'text', text: 'plain words', g: 1 },
    ]);
  });

  it('writes a session again only when it adds something (late agentType)', () => {
    const { materializer } = parts();
    materializer.materialize({}, batch('sub', ['p1']));
    expect(materializer.materialize({}, { parts: [], sessions: [session('sub')] }).sessionsAppended).toBe(0);
    const typed = { ...session('sub'), agentType: 'Explore', agentTypeSource: 'sidecar' as const, parentSessionId: 'parent', parentKind: 'subagent' as const };
    expect(materializer.materialize({}, { parts: [], sessions: [typed] }).sessionsAppended).toBe(1);
    expect(db.prepare("SELECT agent_type FROM sessions WHERE session_id = 'sub'").pluck().get()).toBe('Explore');
  });
});

describe('Materializer: summary titles waiting for their leaf', () => {
  const claim = (leaf: string, fallbackSessionId: string, title: string): TitleClaim => ({ leafPartPrefix: `cc:${leaf}:`, fallbackSessionId, title, source: 'summary' });
  const titleOf = (id: string) => db.prepare('SELECT title, title_source AS source FROM sessions WHERE session_id = ?').get(id);
  const claimReads = () => sql.filter((s) => /\btitle_claims\b/.test(s));

  it('knows the waiting leaves from one read per process: batches without them run no claim query', () => {
    const { spool, sink, materializer } = parts();
    materializer.materialize({}, { ...batch('f', ['f1']), titleClaims: [claim('leaf', 'f', 'A title')] });
    sql.length = 0;
    const run = {};
    for (let i = 0; i < 4; i += 1) materializer.materialize(run, batch('other', [`o${i}`, `o${i}b`]));
    expect(claimReads()).toEqual([]);
    // A new process (a restart) reads them once, then never for a batch without the leaf.
    const restarted = new Materializer(db, spool, sink);
    for (let i = 0; i < 4; i += 1) restarted.materialize({}, batch('more', [`m${i}`]));
    expect(claimReads()).toEqual(['SELECT DISTINCT leaf_prefix FROM title_claims']);
    // The leaf arrives: the claim moves, and is settled.
    restarted.materialize({}, batch('holder', ['leaf']));
    expect(titleOf('holder')).toEqual({ title: 'A title', source: 'summary' });
    expect(titleOf('f')).toEqual({ title: null, source: null });
    expect(db.prepare('SELECT COUNT(*) FROM title_claims').pluck().get()).toBe(0);
  });

  it("withdrawing a stand-in gives its session the newest claim still waiting on it, then the title the session's own lines gave", () => {
    const { materializer } = parts();
    const own = { ...session('f'), title: 'Sidecar words', titleSource: 'sidecar' as const };
    materializer.materialize({}, { parts: [part('f', 'f1')], sessions: [own], titleClaims: [claim('l1', 'f', 'First'), claim('l2', 'f', 'Second')] });
    expect(titleOf('f')).toEqual({ title: 'Second', source: 'summary' });
    materializer.materialize({}, batch('s2', ['l2']));
    expect(titleOf('s2')).toEqual({ title: 'Second', source: 'summary' });
    expect(titleOf('f')).toEqual({ title: 'First', source: 'summary' });
    materializer.materialize({}, batch('s1', ['l1']));
    expect(titleOf('s1')).toEqual({ title: 'First', source: 'summary' });
    expect(titleOf('f')).toEqual({ title: 'Sidecar words', source: 'sidecar' });
  });

  it('a claim from a forgotten session is not kept waiting, and forgetting a session removes those it left', async () => {
    const { materializer } = parts();
    materializer.materialize({}, { ...batch('kept', ['k1']), titleClaims: [claim('away', 'kept', 'Kept words')] });
    materializer.materialize({}, { ...batch('gone', ['g1']), titleClaims: [claim('away', 'gone', 'Gone words')] });
    await new SessionEraser(db, new SearchIndex(db)).erase(['gone']);
    new Tombstones(db).add('session', 'gone', null);
    expect(db.prepare('SELECT fallback_session_id FROM title_claims').pluck().all()).toEqual(['kept']);
    // Its file read again (a backfill) leaves nothing waiting either.
    materializer.materialize({}, { ...batch('gone', ['g1']), titleClaims: [claim('away', 'gone', 'Gone words')] });
    expect(db.prepare('SELECT fallback_session_id FROM title_claims').pluck().all()).toEqual(['kept']);
  });
});

describe('Sink', () => {
  it('counts the messages among the parts that land, not among those it ignores, whichever way they come', () => {
    const { sink, materializer } = parts();
    const blocks = (sessionId: string, ids: string[]) => ids.map((id) => partRow({ partId: `cc:${id}`, sessionId, text: id }));
    materializer.materialize({}, { parts: blocks('m', ['u1:0', 'a1:0', 'a1:1', 'a1:2']), sessions: [session('m')] });
    // A copy of a:0 under another session is not written, so it is not a message written either.
    const next = materializer.materialize({}, { parts: blocks('copy', ['a1:0', 'a2:0', 'a2:1']), sessions: [session('copy')] });
    expect(next).toMatchObject({ partsWritten: 2, messagesWritten: 1 });
    // Rows an older version left in the spool: counted as they move, the one already stored is not.
    leftover('m', 'u1');
    leftover('m', 'u9');
    db.prepare("INSERT INTO spool (kind, id, session_id, provider, role, part_kind, ts, text, meta) VALUES ('part', 'cc:u9:1', 'm', 'claude', 'user', 'text', 1, 'x', NULL)").run();
    expect(sink.flushStep()).toMatchObject({ partsWritten: 2, messagesWritten: 1 });
  });

  it('stops reading the spool once a step of its own found it empty, but not after an empty step inside a window', () => {
    const { sink } = parts();
    leftover('w', 'w1');
    // Inside a window that rolls back, the step that empties the spool and the empty step after it.
    db.exec('BEGIN');
    expect(sink.flushStep().partsWritten).toBe(1);
    expect(sink.flushStep().rows).toBe(0);
    db.exec('ROLLBACK');
    // The row is back, and the sink still looks.
    expect(sink.flushStep().partsWritten).toBe(1);
    sql.length = 0;
    expect(sink.flushStep().rows).toBe(0);
    expect(sql.some((s) => /\bspool\b/.test(s))).toBe(true);
    // Found empty in a transaction of its own: later steps read nothing at all.
    sql.length = 0;
    expect(sink.flushStep().rows).toBe(0);
    expect(sql).toEqual([]);
  });

  it('skips a damaged spooled session row instead of wedging every later flush', () => {
    const { sink } = parts();
    db.prepare("INSERT INTO spool (kind, id, session_id, provider, meta) VALUES ('session', 'ok', 'ok', 'claude', ?)").run(JSON.stringify(session('ok')));
    leftover('ok', 'p1');
    leftover('ok', 'p2');
    db.prepare("INSERT INTO spool (kind, id, session_id, provider, meta) VALUES ('session', 'bad', 'bad', 'claude', '{not json')").run();
    expect(() => sink.flushStep()).not.toThrow();
    expect(db.prepare('SELECT COUNT(*) FROM parts').pluck().get()).toBe(2);
    expect(db.prepare("SELECT session_id FROM sessions ORDER BY session_id").pluck().all()).toEqual(['ok']);
    expect(db.prepare('SELECT COUNT(*) FROM spool').pluck().get()).toBe(0);
  });
});
