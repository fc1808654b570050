import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { inPieces, PieceSize } from '../../../core/gateway/index.js';
import { PieceWindow } from '../../../core/gateway/pace.js';

const LIMITS = { targetMs: 15, growth: 1.15, minRows: 50, maxRows: 5_000, startRows: 200 };

/** The rows of each next piece, after pieces that took these many ms in turn. */
function sizesAfter(took: number[], limits = LIMITS): number[] {
  const size = new PieceSize(limits);
  return [size.rows, ...took.map((ms) => (size.took(ms), size.rows))];
}

describe('PieceSize', () => {
  it('grows by at most its growth over the last piece, however fast the piece was', () => {
    expect(sizesAfter([1, 0])).toEqual([200, 230, 265]);
  });

  it('shrinks at once to what fits the target, never below its floor', () => {
    expect(sizesAfter([60, 150])).toEqual([200, 50, 50]);
  });

  it('keeps its size when a piece took the target, and halves it when a piece took twice as long', () => {
    expect(sizesAfter([15, 30])).toEqual([200, 200, 100]);
  });

  it('never starts or grows above its cap', () => {
    expect(sizesAfter([1, 1], { ...LIMITS, maxRows: 8, minRows: 8 })).toEqual([8, 8, 8]);
  });
});

describe('inPieces', () => {
  it('runs its tidy step after each piece in a turn of its own, never in the piece’s turn', async () => {
    const events: string[] = [];
    let left = 3;
    const done = await inPieces({ limits: { maxRows: 10 }, tidy: () => events.push('tidy') }, () => {
      events.push('piece');
      // Runs at the next turn of the event loop: before the tidy step only if the two are apart.
      setImmediate(() => events.push('turn'));
      left -= 1;
      return left > 0;
    });
    expect(done).toBe(true);
    expect(events.slice(0, 9)).toEqual(['piece', 'turn', 'tidy', 'piece', 'turn', 'tidy', 'piece', 'turn', 'tidy']);
  });

  it('with a window, lets pieces share transactions and commits each at the start of a turn of its own', async () => {
    const db = new Database(':memory:');
    db.exec('CREATE TABLE rows (n INTEGER)');
    const events: string[] = [];
    const exec = db.exec.bind(db);
    db.exec = ((sql: string) => (sql === 'COMMIT' && events.push('commit'), exec(sql))) as typeof db.exec;
    const insert = db.prepare('INSERT INTO rows VALUES (?)');
    let left = 30;
    const done = await inPieces({ limits: { maxRows: 10 }, window: new PieceWindow(db) }, () => {
      events.push('piece');
      setImmediate(() => events.push('turn'));
      insert.run(left);
      // Each piece holds the loop 20 ms: 30 of them outlast a window's first length several times.
      for (const until = performance.now() + 20; performance.now() < until; );
      left -= 1;
      return left > 0;
    });
    expect(done).toBe(true);
    expect(db.inTransaction).toBe(false);
    expect(db.prepare('SELECT COUNT(*) FROM rows').pluck().get()).toBe(30);
    const commits = events.filter((e) => e === 'commit').length;
    expect(commits).toBeGreaterThan(1);
    expect(commits).toBeLessThan(10);
    // Never in a piece's turn: a turn of the event loop always comes between a piece and a commit.
    events.forEach((event, i) => event === 'commit' && expect(events[i - 1]).toBe('turn'));
    db.close();
  });
});
