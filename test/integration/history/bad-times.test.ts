import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Core } from '../../../core/index.js';
import { openGateway } from '../../../core/gateway/index.js';
import { FIRST_LINE_MS, LAST_LINE_MS } from '../../../core/transcripts/index.js';
import { coreHome } from '../../support/core.js';
import { claudeLine, writeJsonl } from '../../support/transcripts.js';

/**
 * One line whose time no Date holds (`1e300`, `9e15`) or that is no time at all (`{}`, "abc") never
 * breaks a read for the whole store: lists, a conversation, projects, search and forget all answer.
 * Captured today, such a line has no time (parseTs) and is placed among its neighbours; a store an older
 * build wrote holds the bad times still, and its reads defend (history-read, search-read).
 */
const SID = '5be1d0c2-7a3e-4f19-9c6d-2e8f0a1b3c4d';
const OTHER = '5be1d0c2-0000-4000-8000-0000000000aa';
const CWD = '/work/quarry';
const T0 = Date.UTC(2026, 10, 20, 9, 0);
const at = (minutes: number) => new Date(T0 + minutes * 60_000);
const uuid = (n: number) => `5be1d0c2-0000-4000-8000-${String(n).padStart(12, '0')}`;

const owned = coreHome('steward-bad-times-');

function capture(): string {
  const root = join(owned.home.dir, 'roots', 'claude');
  const line = (n: number, ts: unknown, text: string) => ({ ...claudeLine({ sessionId: SID, cwd: CWD, uuid: uuid(n), text, ...(n % 2 === 0 ? { type: 'assistant' as const } : {}) }), timestamp: ts });
  writeJsonl(join(root, 'projects', '-work-quarry', `${SID}.jsonl`), [
    line(1, at(0).toISOString(), 'Cut the quarry stones along the seam'),
    line(2, 1e300, 'Cutting the quarry stones, far future'),
    line(3, {}, 'quarry note whose time is an object'),
    line(4, 9e15, 'quarry stone past the last date'),
    line(5, -9e15, 'quarry stone before the first date'),
    line(6, 'abc', 'quarry stone with a word for a time'),
    line(7, at(5).toISOString(), 'Stack the quarry stones'),
  ]);
  writeJsonl(join(root, 'projects', '-work-quarry', `${OTHER}.jsonl`), [claudeLine({ sessionId: OTHER, cwd: CWD, ts: at(2), uuid: uuid(101), text: 'Another quarry, timed well' })]);
  return root;
}

const valid = (ms: number | null) => ms === null || (Number.isSafeInteger(ms) && ms >= FIRST_LINE_MS && ms <= LAST_LINE_MS);

/** Every read a person or an agent makes of the store answers, with no time outside what a line can hold. */
async function readsAll(core: Core, forgetting: string): Promise<void> {
  const { sessions } = await core.call('Sessions.List', {});
  expect(sessions.map((s) => s.sessionId).sort()).toEqual([SID, OTHER].sort());
  for (const s of sessions) expect([s.startedAt, s.lastAt].every(valid), JSON.stringify(s)).toBe(true);
  const { projects } = await core.call('Projects.List', {});
  expect(projects).toHaveLength(1);
  const page = await core.call('Sessions.Get', { sessionId: SID });
  expect(page.messages.length).toBeGreaterThanOrEqual(7);
  expect(page.session.durationMs === null || page.session.durationMs <= 5 * 60_000).toBe(true);
  for (const m of page.messages) expect(valid(m.ts), JSON.stringify(m.ts)).toBe(true);
  expect((await core.call('Sessions.Get', { sessionId: SID, at: 'end', limit: 2 })).messages).toHaveLength(2);
  const found = await core.call('Search.Query', { query: 'quarry', limit: 50 });
  expect(found.hits.length).toBeGreaterThanOrEqual(7);
  for (const h of found.hits) expect(valid(h.ts), JSON.stringify(h.ts)).toBe(true);
  for (const s of found.sessions) expect(valid(s.lastAt)).toBe(true);
  const newest = await core.call('Search.Query', { query: '', sessionId: SID, limit: 50 });
  expect(newest.hits.length).toBeGreaterThanOrEqual(7);
  await core.call('Forget.Session', { sessionId: forgetting });
  expect((await core.call('Sessions.List', {})).sessions.map((s) => s.sessionId)).not.toContain(forgetting);
  expect((await core.call('Search.Query', { query: 'quarry', limit: 50 })).hits.filter((h) => h.sessionId === forgetting)).toEqual([]);
}

/** The transcripts written and imported whole by a Steward that then stops: the store as capture leaves it. */
async function imported(): Promise<string> {
  const root = capture();
  await owned.open({ env: { STEWARD_CLAUDE_ROOTS: root } }).call('Backfill.Run', { all: true });
  await owned.close();
  return root;
}

describe('a line whose time is no time', () => {
  it('is captured with no time, placed among its neighbours, and every read answers', async () => {
    const root = await imported();
    const db = openGateway(owned.home.dir);
    try {
      const parts = db.prepare('SELECT part_id AS partId, ts, ts_inferred AS inferred FROM parts WHERE session_id = ? ORDER BY rowid').all(SID) as Array<{ ts: number; inferred: number }>;
      expect(parts).toHaveLength(7);
      // Lines 2 to 6 take line 1's time as their place, and show none.
      expect(parts.map((p) => [p.ts, p.inferred])).toEqual([[T0, 0], ...Array.from({ length: 5 }, () => [T0, 1]), [T0 + 5 * 60_000, 0]]);
      expect(db.prepare('SELECT first_ts, last_ts FROM sessions WHERE session_id = ?').raw().get(SID)).toEqual([T0, T0 + 5 * 60_000]);
    } finally {
      db.close();
    }
    const again = owned.open({ env: { STEWARD_CLAUDE_ROOTS: root } });
    await readsAll(again, SID);
  });

  it('stored by an older build (times no Date holds, a REAL in ts) breaks no read, and forget erases it', async () => {
    const root = await imported();
    // What an older parseTs stored: the times as the lines said them, after this build's steps ran.
    const db = openGateway(owned.home.dir);
    try {
      const set = db.prepare('UPDATE parts SET ts = ?, ts_inferred = ? WHERE part_id = (SELECT part_id FROM parts WHERE session_id = ? ORDER BY rowid LIMIT 1 OFFSET ?)');
      set.run(1e300, 0, SID, 1);
      set.run(1e300, 1, SID, 2);
      set.run(9e15, 0, SID, 3);
      set.run(-9e15, 0, SID, 4);
      expect(db.prepare("SELECT COUNT(*) FROM parts WHERE typeof(ts) = 'real'").pluck().get()).toBe(2);
      db.prepare('UPDATE sessions SET first_ts = ?, last_ts = ? WHERE session_id = ?').run(-9e15, 1e300, SID);
    } finally {
      db.close();
    }
    const again = owned.open({ env: { STEWARD_CLAUDE_ROOTS: root } });
    const listed = (await again.call('Sessions.List', {})).sessions.find((s) => s.sessionId === SID)!;
    expect([listed.startedAt, listed.lastAt]).toEqual([null, null]);
    await readsAll(again, SID);
  });
});
