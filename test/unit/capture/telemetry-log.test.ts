import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openGateway, TelemetryLog, type DiskGate } from '../../../core/gateway/index.js';
import { createMemoryLogger } from '../../../core/log/index.js';
import type { Db } from '../../../core/store/index.js';
import { tempHome, type TempHome } from '../../support/home.js';

/** A disk gate the test holds and frees, counting who asked for it. */
class HeldGate implements DiskGate {
  held = true;
  entered = 0;
  enter(force = false): boolean {
    if (this.held && !force) return false;
    this.entered += 1;
    return true;
  }
  leave(): void {}
}

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

const kinds = (log: TelemetryLog) => log.recent(10).map((e) => e.kind).reverse();
const settle = () => new Promise((resolve) => setTimeout(resolve, 80));

describe('TelemetryLog', () => {
  it('holds rows back while a checkpoint holds the disk, lists them meanwhile, then writes them in order with the ids it listed', async () => {
    const gate = new HeldGate();
    const log = new TelemetryLog(db, { gate });
    log.record('first', { n: 1 });
    log.record('second', { n: 2 });
    // Held, yet listed: a reader told of a row (the sweep.tick event) finds it.
    expect(kinds(log)).toEqual(['first', 'second']);
    await settle();
    const stored = () => (db.prepare('SELECT COUNT(*) FROM telemetry').pluck().get() as number);
    expect(stored()).toBe(0);
    const listed = log.recent(10);
    gate.held = false;
    // A row recorded while others wait goes behind them, not ahead.
    log.record('third', { n: 3 });
    expect(kinds(log)).toEqual(['first', 'second', 'third']);
    expect(log.recent(10, 'second').map((e) => e.kind)).toEqual(['second']);
    expect(log.recent(2).map((e) => e.kind)).toEqual(['third', 'second']);
    const whileHeld = log.recent(10);
    await settle();
    expect(stored()).toBe(3);
    expect(kinds(log)).toEqual(['first', 'second', 'third']);
    // Written with the very ids they were listed with.
    expect(log.recent(10)).toEqual(whileHeld);
    expect(log.recent(10).slice(1)).toEqual(listed);
    expect(log.recent(1)[0]!.data).toEqual({ n: 3 });
    log.record('fourth', {});
    expect(kinds(log)).toEqual(['first', 'second', 'third', 'fourth']);
  });

  it('lists a held row with the id it will be written with, after rows trimmed away', async () => {
    const log = new TelemetryLog(db, { gate: { enter: () => true, leave: () => undefined } });
    for (let i = 0; i < 3; i += 1) log.record('old', { i });
    db.exec('DELETE FROM telemetry');
    const gate = new HeldGate();
    const held = new TelemetryLog(db, { gate });
    held.record('new', {});
    const listed = held.recent(1)[0]!;
    gate.held = false;
    await settle();
    expect(held.recent(1)[0]).toEqual(listed);
    expect(listed.id).toBe(4);
  });

  it('writes at once inside an open transaction, which it joins, without asking for the disk', () => {
    const gate = new HeldGate();
    const log = new TelemetryLog(db, { gate });
    db.exec('BEGIN');
    log.record('joined', {});
    db.exec('ROLLBACK');
    expect(kinds(log)).toEqual([]);
    db.exec('BEGIN');
    log.record('joined', {});
    db.exec('COMMIT');
    expect(kinds(log)).toEqual(['joined']);
    expect(gate.entered).toBe(0);
  });

  it('writes what it holds when closed, even while the disk is held', () => {
    const gate = new HeldGate();
    const log = new TelemetryLog(db, { gate });
    log.record('late', {});
    log.close();
    expect(kinds(log)).toEqual(['late']);
  });

  it('reports held rows it could not write by count and code, and throws a failure of a write made at once', async () => {
    const gate = new HeldGate();
    const logger = createMemoryLogger();
    const log = new TelemetryLog(db, { gate, logger });
    log.record('held', { secret: 'never logged' });
    db.pragma('query_only = ON');
    gate.held = false;
    await settle();
    expect(logger.lines.join('\n')).toMatch(/telemetry rows not written .*rows=1.*code="SQLITE_READONLY"/);
    expect(logger.lines.join('\n')).not.toContain('never logged');
    expect(() => log.record('now', {})).toThrow(/readonly/);
  });
});
