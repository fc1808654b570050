import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileCheckpoints, openGateway } from '../../../core/gateway/index.js';
import type { Db } from '../../../core/store/index.js';
import { tempHome, type TempHome } from '../../support/home.js';

/**
 * Every start asks which exclusions the file checkpoints passed over (releaseLifted) before its first
 * tick. Read from every checkpoint, that held the owner's event loop about 20 ms at 20,000 files and grew
 * with them; now it reads a partial index of the few checkpoints that name one. Read from the plan, not timed.
 */

let home: TempHome;
let db: Db;

beforeAll(() => {
  home = tempHome('steward-release-lifted-');
  db = openGateway(home.dir);
  const insert = db.prepare(
    "INSERT INTO file_checkpoints (provider, path, dev, ino, size, mtime_ms, byte_offset, head_hash, tail_hash, parser_version, exclusion, updated_at) VALUES ('claude', ?, '1', ?, 10, 1, 10, 'h', 't', 1, ?, 1)",
  );
  db.transaction(() => {
    for (let i = 0; i < 200; i += 1) insert.run(`/t/${i}.jsonl`, String(i), i < 3 ? JSON.stringify(['/work/secret/**']) : null);
  })();
});

afterAll(() => {
  db?.close();
  home?.cleanup();
});

/** The SQL of every statement `work` runs on the connection. */
function statementsOf(work: () => void): string[] {
  const seen: string[] = [];
  const prepare = db.prepare.bind(db);
  db.prepare = ((sql: string) => (seen.push(sql), prepare(sql))) as Db['prepare'];
  try {
    work();
  } finally {
    db.prepare = prepare as Db['prepare'];
  }
  return seen;
}

describe('releasing checkpoints whose exclusion was lifted', () => {
  it('reads the exclusions from their own index, not from every checkpoint', () => {
    let released = 0;
    const checkpoints = new FileCheckpoints(db, []);
    const sqls = statementsOf(() => (released = checkpoints.releaseLifted()));
    // The three checkpoints that passed over a folder no longer excluded are dropped; the others stay.
    expect(released).toBe(3);
    expect(db.prepare('SELECT COUNT(*) FROM file_checkpoints').pluck().get()).toBe(197);
    const reads = sqls.filter((sql) => /^\s*SELECT/i.test(sql) && /file_checkpoints/.test(sql));
    expect(reads.length).toBeGreaterThan(0);
    for (const sql of reads) {
      const plan = (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as Array<{ detail: string }>).map((r) => r.detail).join(' | ');
      expect(plan).toMatch(/USING (COVERING )?INDEX file_checkpoints_exclusion/);
    }
  });
});
