import { describe, expect, it } from 'vitest';
import type { Core } from '../../../core/index.js';
import { SearchIndex, SessionEraser, type PieceGate } from '../../../core/gateway/index.js';
import type { Db } from '../../../core/store/index.js';
import { coreHome } from '../../support/core.js';
import { expectIndexExact } from '../../support/search-index.js';

const temp = coreHome('steward-forget-first-');

const count = (db: Db, sql: string, ...args: unknown[]) => db.prepare(sql).pluck().get(...args) as number;

/** One conversation of `parts` parts beside another that must come through whole; both indexed. */
function store(c: Core, parts: number): void {
  const db = c.gateway;
  const session = db.prepare("INSERT INTO sessions (session_id, provider, source, first_ts, last_ts, updated_at) VALUES (?, 'claude', 'code', 1, 2, 1)");
  const part = db.prepare("INSERT INTO parts (part_id, session_id, provider, role, kind, ts, text) VALUES (?, ?, 'claude', 'user', 'text', ?, ?)");
  db.transaction(() => {
    session.run('long');
    for (let i = 0; i < parts; i += 1) part.run(`cc:${String(i).padStart(6, '0')}:0`, 'long', 1_700_000_000_000 + i * 1000, `orchards row ${i}`);
    session.run('kept');
    part.run('cc:kept:0', 'kept', 1_700_000_000_000, 'kitchens');
  })();
  new SearchIndex(db).indexAfter(0);
}

/** What each turn of the disk gate did: rows of the store deleted, and merges of the index run in it. */
interface Entry {
  deleted: number;
  merges: number;
}

describe('the first piece of a forget', () => {
  it('takes one row, and each merge of the index runs in a gate turn of its own, never beside a piece', async () => {
    const c = temp.open();
    store(c, 600);
    const db = c.gateway;
    const rows = () => count(db, 'SELECT (SELECT COUNT(*) FROM parts) + (SELECT COUNT(*) FROM sessions)');

    const entries: Entry[] = [];
    let open: { rows: number; merges: number } | undefined;
    const gate: PieceGate = {
      start: () => undefined,
      enter: () => {
        open = { rows: rows(), merges: 0 };
        return true;
      },
      leave: () => {
        entries.push({ deleted: open!.rows - rows(), merges: open!.merges });
        open = undefined;
      },
    };
    const index = new SearchIndex(db);
    const merge = index.mergePiece.bind(index);
    index.mergePiece = () => {
      // Outside the gate, a merge would write the disk under a checkpoint.
      expect(open).toBeDefined();
      open!.merges += 1;
      return merge();
    };

    const erased = await new SessionEraser(db, index, gate).erase(['long']);

    expect(erased).toEqual({ parts: 600, sessions: 1 });
    // Before it, only merges of what the index had left to merge (see #eraseOrdered), each in a turn of its own.
    const first = entries.findIndex((e) => e.deleted > 0);
    expect(entries.slice(0, first)).toEqual(entries.slice(0, first).map(() => ({ deleted: 0, merges: 1 })));
    // The first piece walks every B-tree a piece writes, cold: it takes one part, whatever the pieces after it take.
    expect(entries[first]).toEqual({ deleted: 1, merges: 0 });
    expect(Math.max(...entries.slice(first + 1).map((e) => e.deleted))).toBeGreaterThan(1);
    // Merging follows the pieces, each merge in a turn of the gate that deletes nothing.
    expect(entries.filter((e) => e.merges > 0 && e.deleted > 0)).toEqual([]);
    expect(entries.filter((e) => e.merges > 0).length).toBeGreaterThanOrEqual(entries.filter((e) => e.deleted > 0).length);
    // What is forgotten is the same: the conversation, its index rows and counts; the other stays whole.
    expect(count(db, "SELECT COUNT(*) FROM parts WHERE session_id = 'long'")).toBe(0);
    expect(count(db, "SELECT COUNT(*) FROM sessions WHERE session_id = 'long'")).toBe(0);
    expect((await c.call('Search.Query', { query: 'kitchens' })).hits.map((h) => h.partId)).toEqual(['cc:kept:0']);
    expect((await c.call('Search.Query', { query: 'orchards' })).hits).toEqual([]);
    expectIndexExact(db);
  });
});
