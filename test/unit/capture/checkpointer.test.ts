import { statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Checkpointer, openGateway } from '../../../core/gateway/index.js';
import type { Db } from '../../../core/store/index.js';
import { tempHome, type TempHome } from '../../support/home.js';

let home: TempHome;
let db: Db;
beforeEach(() => {
  home = tempHome();
  db = openGateway(home.dir);
});
afterEach(() => {
  db.close();
  home.cleanup();
});

async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`${what} did not happen`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A started checkpoint thread that took over, and batches of about a megabyte of rows to write. */
async function takenOver(intervalMs: number): Promise<{ checkpointer: Checkpointer; batch: () => void; wal: () => number }> {
  const checkpointer = new Checkpointer(db, intervalMs);
  checkpointer.start();
  await until(() => db.pragma('wal_autocheckpoint', { simple: true }) === 0, 'the worker taking over checkpoints');
  const insert = db.prepare("INSERT INTO telemetry (at, kind, data) VALUES (?, 'x', ?)");
  const batch = () =>
    db.transaction(() => {
      for (let i = 0; i < 2_000; i += 1) insert.run(i, 'y'.repeat(500));
    })();
  return { checkpointer, batch, wal: () => statSync(join(home.dir, 'gateway.db-wal')).size };
}

describe('Checkpointer', () => {
  it('is one per connection: capture and the index walk start, gate and stop the same thread', async () => {
    const other = openGateway(home.dir);
    try {
      const shared = Checkpointer.of(db);
      expect(Checkpointer.of(db)).toBe(shared);
      expect(Checkpointer.of(other)).not.toBe(shared);
      shared.start();
      expect(Checkpointer.of(db).running).toBe(true);
      // The gate is the one thread's: a commit through one holder keeps the other's checkpoint off.
      expect(Checkpointer.of(db).enter()).toBe(true);
      expect(shared.enter()).toBe(false);
      shared.leave();
      await Checkpointer.of(db).stop();
      expect(shared.running).toBe(false);
    } finally {
      other.close();
    }
  });

  it('takes WAL checkpoints off the connection while it runs, and gives them back when stopped', async () => {
    const { checkpointer, batch, wal } = await takenOver(20);
    batch();
    const afterFirst = wal();
    // With automatic checkpoints off, only the worker's checkpoint lets the next write restart the WAL
    // from its beginning; without it the file would grow by the second batch's size again.
    await new Promise((resolve) => setTimeout(resolve, 400));
    batch();
    expect(wal()).toBeLessThan(afterFirst * 1.2);
    await checkpointer.stop();
    expect(checkpointer.running).toBe(false);
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
  });

  it('keeps commits from truncating the WAL while it runs, and empties the file itself once the writers are quiet', async () => {
    const limit = db.pragma('journal_size_limit', { simple: true });
    expect(limit).toBeGreaterThan(0);
    const checkpointer = new Checkpointer(db, 20);
    checkpointer.start();
    await until(() => db.pragma('journal_size_limit', { simple: true }) === -1, 'the worker taking over the WAL size');
    const insert = db.prepare("INSERT INTO telemetry (at, kind, data) VALUES (?, 'x', ?)");
    const wal = () => statSync(join(home.dir, 'gateway.db-wal')).size;
    // Commits through the gate every few milliseconds: the worker only checkpoints passively meanwhile.
    const sizes: number[] = [];
    for (let round = 0; round < 10; round += 1) {
      expect(checkpointer.enter(true)).toBe(true);
      db.transaction(() => {
        for (let i = 0; i < 200; i += 1) insert.run(i, 'y'.repeat(500));
      })();
      checkpointer.leave();
      sizes.push(wal());
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect(Math.min(...sizes)).toBeGreaterThan(0);
    // Quiet: the worker empties the file.
    await until(() => wal() === 0, 'the worker truncating the WAL');
    await checkpointer.stop();
    expect(db.pragma('journal_size_limit', { simple: true })).toBe(limit);
  });

  it('settles on request: copies the whole WAL, so the next commit starts the file over instead of growing it', async () => {
    expect(await new Checkpointer(db).settle()).toBe(false);
    // An interval longer than the test: only the requested checkpoint runs.
    const { checkpointer, batch, wal } = await takenOver(600_000);
    const database = () => statSync(join(home.dir, 'gateway.db')).size;
    // What the migrations left in the WAL: the batches' growth is measured past it.
    const start = wal();
    batch();
    const one = wal() - start;
    // Nothing copied: the second batch lands after the first.
    batch();
    expect(wal() - start).toBeGreaterThan(one * 1.5);
    const grown = wal();
    const before = database();
    expect(await checkpointer.settle()).toBe(true);
    expect(database()).toBeGreaterThan(before);
    // Copied whole: the third batch overwrites the file from its start.
    batch();
    expect(wal()).toBe(grown);
    batch();
    expect(wal()).toBe(grown);
    await checkpointer.stop();
    expect(await checkpointer.settle()).toBe(false);
  });

  it('never checkpoints while a commit holds the disk, and catches up once it lets go', async () => {
    const checkpointer = new Checkpointer(db, 20);
    checkpointer.start();
    await until(() => db.pragma('wal_autocheckpoint', { simple: true }) === 0, 'the worker taking over checkpoints');
    const insert = db.prepare("INSERT INTO telemetry (at, kind, data) VALUES (?, 'x', ?)");
    const file = () => statSync(join(home.dir, 'gateway.db')).size;
    // The worker checkpoints every 20 ms: the commit takes the disk between two of its checkpoints.
    await until(() => checkpointer.enter(), 'the disk free for a commit');
    const before = file();
    db.transaction(() => {
      for (let i = 0; i < 2_000; i += 1) insert.run(i, 'y'.repeat(500));
    })();
    // Ten of the worker's intervals: each found the disk taken, so no page reached the database file.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(file()).toBe(before);
    checkpointer.leave();
    await until(() => file() > before, 'the checkpoint after the commit let go');
    // Once stopped, nothing holds the disk.
    await checkpointer.stop();
    expect(checkpointer.enter()).toBe(true);
    checkpointer.leave();
  });

  it('asks for a moment with no transaction open while an owner empties the WAL, until it is emptied', async () => {
    for (const worker of [false, true]) {
      const checkpointer = worker ? (await takenOver(600_000)).checkpointer : new Checkpointer(db);
      expect(checkpointer.wantsQuiet()).toBe(false);
      // A transaction held across turns (the index walk's) keeps the file from being emptied.
      db.exec('BEGIN IMMEDIATE');
      db.prepare("INSERT INTO telemetry (at, kind, data) VALUES (1, 'x', 'y')").run();
      expect(await checkpointer.truncate()).toBe(false);
      expect(checkpointer.wantsQuiet()).toBe(true);
      db.exec('COMMIT');
      expect(await checkpointer.truncate()).toBe(true);
      expect(checkpointer.wantsQuiet()).toBe(false);
      await checkpointer.stop();
    }
  });
});
