import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { GATEWAY_MIGRATIONS } from '../../../core/gateway/migrations.js';
import { SearchIndex } from '../../../core/gateway/search-index.js';
import { SearchReader, type SearchFilter } from '../../../core/gateway/search-read.js';
import { migrate } from '../../../core/store/index.js';
import { sessionsOf } from '../../support/history.js';

/**
 * A session filter takes in the conversation's subagents: Claude's `{parent}:agent-…` parts carry
 * their parent's index token, the others (Gemini's, Codex's spawned threads) only name it in
 * sessions.parent_session_id, so the search names them itself: by their tokens, or past the cap by
 * reading each match's session. A branch is a conversation of its own and stays out.
 */
const PARENT = 'parent-1';
const SUBAGENTS = ['gm-sub-a', 'gm-sub-b', 'gm-sub-c'];
const CLAUDE_SUBAGENT = `${PARENT}:agent-x1`;
const BRANCH = 'fork-1';
const STRANGER = 'other-1';
/** Every session of the conversation, the parent's subagents included. */
const FAMILY = [PARENT, CLAUDE_SUBAGENT, ...SUBAGENTS].sort();

/** Each session holds one orchard text of the person's and one of the harness's, a second apart. */
function indexed(): Database.Database {
  const db = new Database(':memory:');
  migrate(db, GATEWAY_MIGRATIONS, 'gateway');
  const session = db.prepare("INSERT INTO sessions (session_id, provider, parent_session_id, parent_kind, updated_at) VALUES (?, 'gemini', ?, ?, 0)");
  const part = db.prepare("INSERT INTO parts (part_id, session_id, provider, role, kind, ts, text, genuine_user_turn) VALUES (?, ?, 'gemini', 'user', 'text', ?, ?, ?)");
  const rows: Array<[string, string | null, string | null]> = [
    [PARENT, null, null],
    [CLAUDE_SUBAGENT, PARENT, 'subagent'],
    ...SUBAGENTS.map((id): [string, string, string] => [id, PARENT, 'subagent']),
    [BRANCH, PARENT, 'branch'],
    [STRANGER, null, null],
  ];
  db.transaction(() => {
    rows.forEach(([id, parent, kind], i) => {
      session.run(id, parent, kind);
      part.run(`gm:${id}:own`, id, Date.UTC(2026, 0, 1) + i * 2000, `orchard request from ${id}`, 1);
      part.run(`gm:${id}:echo`, id, Date.UTC(2026, 0, 1) + i * 2000 + 1000, `<command-name>/orchard</command-name> ${id}`, 0);
    });
    new SearchIndex(db).indexAfter(0);
  })();
  return db;
}


/** Every page of a newest-first search, following the last hit's key, or where the scan stopped. */
async function allPages(reader: SearchReader, filter: SearchFilter, limit: number): Promise<string[]> {
  const out: string[] = [];
  let before: number | null = null;
  for (;;) {
    const page = await reader.newest(filter, before, limit + 1);
    const shown = page.matches.slice(0, limit);
    out.push(...shown.map((m) => m.partId));
    before = page.matches.length > limit ? shown[shown.length - 1]!.key : page.resumeBelow;
    if (before === null) return out;
  }
}

describe('a session filter includes the subagents that only sessions.parent_session_id links', () => {
  it.each([
    { name: 'by their tokens', options: {} },
    { name: 'past the cap, by reading each match’s session', options: { subagentTokenCap: 2 } },
  ])('$name: the parent, its Claude and Gemini subagents, never its branch or a stranger', async ({ options }) => {
    const db = indexed();
    const reader = new SearchReader(db, options);
    const filter = { expression: 'orchard', sessionId: PARENT };
    const newest = await reader.newest(filter, null, 50);
    expect(sessionsOf(newest.matches)).toEqual(FAMILY);
    expect(newest.matches).toHaveLength(2 * FAMILY.length);
    expect(newest.resumeBelow).toBeNull();
    const candidates = await reader.candidates(filter, reader.upperKey(), 500);
    expect(sessionsOf(candidates.heads)).toEqual(FAMILY);
    expect(candidates.capped).toBe(false);
    // Pages of three, with the person's own words only: each of the family's once, newest first.
    const own = [...FAMILY].map((id) => `gm:${id}:own`);
    const paged = await allPages(reader, { ...filter, genuineUserTurn: true }, 3);
    expect([...paged].sort()).toEqual(own.sort());
    expect(paged).toHaveLength(own.length);
    // A subagent's filter is the subagent alone; a branch's, the branch.
    expect(sessionsOf((await reader.newest({ expression: 'orchard', sessionId: SUBAGENTS[0] }, null, 50)).matches)).toEqual([SUBAGENTS[0]]);
    expect(sessionsOf((await reader.newest({ expression: 'orchard', sessionId: BRANCH }, null, 50)).matches)).toEqual([BRANCH]);
    db.close();
  });

  it('past the cap, a page that reached its scan budget goes on below what it looked at, and every page together holds each match once', async () => {
    const db = indexed();
    // Two matches a page: the scan stops before the page is full.
    const reader = new SearchReader(db, { subagentTokenCap: 1, genuineScanBudget: 2 });
    const filter = { expression: 'orchard', sessionId: PARENT };
    const first = await reader.newest(filter, null, 11);
    expect(first.resumeBelow).not.toBeNull();
    const all = await allPages(reader, filter, 10);
    expect(all.length).toBe(2 * FAMILY.length);
    expect(new Set(all).size).toBe(all.length);
    const candidates = await reader.candidates(filter, reader.upperKey(), 500);
    expect(candidates.capped).toBe(true);
    db.close();
  });
});
