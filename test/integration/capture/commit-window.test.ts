import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../../../core/config/index.js';
import { createMemoryLogger } from '../../../core/log/index.js';
import { Capture } from '../../../core/capture/index.js';
import { Checkpointer } from '../../../core/gateway/index.js';
import { type TranscriptBatch, type TranscriptFile, type TranscriptProvider } from '../../../core/transcripts/index.js';
import { ClaudeProvider } from '../../../core/transcripts/providers/claude/index.js';
import { appendJsonl, claudeLine, claudeSession, writeJsonl } from '../../support/transcripts.js';
import { partRow, sessionRow } from '../../support/rows.js';
import { byProvider, captureHarness, type CaptureHarness } from './harness.js';

let h: CaptureHarness;
let drivers: Capture[];
beforeEach(() => {
  h = captureHarness();
  drivers = [];
});
afterEach(async () => {
  for (const driver of drivers) await driver.stop();
  await h.close();
});

/** Capture on the harness's gateway with the given provider registry, reading in-thread. */
function driverWith(providers: TranscriptProvider[]): Capture {
  const driver = new Capture({ db: h.db, config: parseConfig({}), env: h.home.env, logger: createMemoryLogger(), projects: h.projects, record: () => {}, providers, readWorker: false });
  drivers.push(driver);
  return driver;
}

const claudeProvider = () => new ClaudeProvider({ roots: [h.claudeRoot], desktopRoots: [] });

describe('a run inside commit windows', () => {
  it("advances a file's fingerprint only once that file's rows are committed", async () => {
    for (const id of ['sess-1', 'sess-2', 'sess-3']) claudeSession(h.claudeRoot, id, 4);
    const committed = new Database(join(h.home.dir, 'gateway.db'), { readonly: true });
    const real = claudeProvider();
    const files: TranscriptFile[] = [];
    const seenBeforeEachRead: Array<{ committedParts: number; earlierFilesDone: boolean[] }> = [];
    // The real provider, watched at each file boundary of the run.
    const watched: TranscriptProvider = {
      id: 'claude',
      parserVersion: real.parserVersion,
      discover: () => real.discover(),
      read(file, options, stats) {
        seenBeforeEachRead.push({
          committedParts: committed.prepare('SELECT COUNT(*) FROM parts').pluck().get() as number,
          earlierFilesDone: files.map((f) => driver.fingerprints.isUnchanged(f)),
        });
        files.push(file);
        return real.read(file, options, stats);
      },
    };
    const driver = driverWith([watched]);
    try {
      expect(byProvider(await driver.tick(), 'claude')).toMatchObject({ read: 3, partsWritten: 12 });
      // Mid-run, files already read through were neither committed for other readers nor marked done.
      expect(seenBeforeEachRead).toEqual([
        { committedParts: 0, earlierFilesDone: [] },
        { committedParts: 0, earlierFilesDone: [false] },
        { committedParts: 0, earlierFilesDone: [false, false] },
      ]);
      expect(committed.prepare('SELECT COUNT(*) FROM parts').pluck().get()).toBe(12);
      expect(files.map((f) => driver.fingerprints.isUnchanged(f))).toEqual([true, true, true]);
    } finally {
      committed.close();
    }
  });

  it('waits between windows, every few commits, for the whole WAL to be copied, and writes every part', async () => {
    claudeSession(h.claudeRoot, 'sess-long', 4_400);
    const checkpointer = Checkpointer.of(h.db);
    let settled = 0;
    const settle = checkpointer.settle.bind(checkpointer);
    checkpointer.settle = async () => {
      // Only between windows: the run's transaction is closed when it waits.
      expect(h.db.inTransaction).toBe(false);
      settled += 1;
      return settle();
    };
    const driver = new Capture({ db: h.db, config: parseConfig({}), env: h.home.env, logger: createMemoryLogger(), projects: h.projects, record: () => {}, providers: [claudeProvider()], readWorker: false, commitLimits: { maxRows: 40 } });
    drivers.push(driver);
    const [stats] = await driver.tick();
    expect(stats).toMatchObject({ read: 1, partsWritten: 4_400 });
    // Batches of 250 parts, each over the 40-row limit: a commit after most of the 18 (one that finds a
    // checkpoint running waits for a later one), and a wait after every 8th commit.
    expect(settled).toBeGreaterThanOrEqual(1);
    expect(h.db.prepare('SELECT COUNT(*) FROM parts').pluck().get()).toBe(4_400);
  });

  it('gives the event loop turns even when every batch is already waiting', async () => {
    const file: TranscriptFile = { path: '/memory/sess-m.jsonl', dev: 1n, ino: 1n, size: 1, mtimeMs: Date.now(), ctimeMs: Date.now(), source: 'code' };
    let turnsDuringRead = -1;
    // Batches that need no I/O, as read-ahead batches queued by the worker do: awaiting each is a microtask.
    const queued: TranscriptProvider = {
      id: 'claude',
      parserVersion: 1,
      discover: () => Promise.resolve({ files: [file], failed: 0 }),
      async *read(): AsyncGenerator<TranscriptBatch> {
        let turns = 0;
        let reading = true;
        const count = () => {
          turns += 1;
          if (reading) setImmediate(count);
        };
        setImmediate(count);
        for (let b = 0; b < 80; b += 1) {
          yield {
            sessions: [sessionRow({ sessionId: 'sess-m' })],
            parts: Array.from({ length: 250 }, (_, i) => partRow({ partId: `cc:m-${b}-${i}:0`, sessionId: 'sess-m', ts: Date.now(), text: 'x'.repeat(200) })),
          };
        }
        reading = false;
        turnsDuringRead = turns;
      },
    };
    const stats = byProvider(await driverWith([queued]).tick(), 'claude');
    expect(stats.partsWritten).toBe(20_000);
    expect(turnsDuringRead).toBeGreaterThan(0);
  });

  it('a full disk fails the file it hit and loses nothing; with room again the next tick reads it', async () => {
    const a = claudeSession(h.claudeRoot, 'sess-a', 4);
    const driver = driverWith([claudeProvider()]);
    expect(byProvider(await driver.tick(), 'claude')).toMatchObject({ read: 1, partsWritten: 4 });

    // No page to spare: SQLite answers every new row with SQLITE_FULL.
    const pages = h.db.pragma('page_count', { simple: true }) as number;
    h.db.pragma(`max_page_count = ${pages}`);
    const big = (sessionId: string) => Array.from({ length: 40 }, (_, i) => claudeLine({ sessionId, text: `${sessionId} ${i} ${'y'.repeat(4_000)}` }));
    appendJsonl(a, big('sess-a'));
    writeJsonl(join(h.claudeRoot, 'projects', '-work-fixture-project', 'sess-b.jsonl'), big('sess-b'));
    const full = byProvider(await driver.tick(), 'claude');
    expect(full.failed).toBe(2);
    expect(full.read).toBe(0);
    expect(h.count('SELECT COUNT(*) FROM parts')).toBe(4);

    h.db.pragma('max_page_count = 4294967294');
    expect(byProvider(await driver.tick(), 'claude')).toMatchObject({ read: 2, failed: 0, partsWritten: 80 });
    expect(h.count('SELECT COUNT(*) FROM parts')).toBe(84);
  });
});
