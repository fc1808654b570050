import { mkdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Statement } from 'better-sqlite3';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FileCheckpoints, type FileCheckpoint } from '../../../core/gateway/index.js';
import { CHECKPOINT_PAGE_ROWS } from '../../../core/gateway/file-checkpoints.js';
import { claudeLine, writeJsonl } from '../../support/transcripts.js';
import { byProvider, captureHarness, type CaptureHarness } from './harness.js';

// The house rule: long work never holds the owner's event loop for long. Wall-clock limits flake on a
// busy 2-core box, so these check the shape that keeps the holds short: bounded work between turns.

let h: CaptureHarness | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await h?.close();
  h = undefined;
});

const DAY = 86_400_000;

/** A checkpoint of a file that need not exist: only its row matters. */
function checkpointOf(path: string, i: number, more: Partial<FileCheckpoint> = {}): FileCheckpoint {
  return { path, dev: 1n, ino: BigInt(i + 1), size: i, mtimeMs: 1_000 + i, offset: i, headHash: 'h', tailHash: 't', parserVersion: 7, windowStartMs: null, state: null, olderLeftOut: null, ...more };
}

/** `rows` checkpoints of Claude files no walk finds (`/gone/…`), in one transaction. */
function vanished(c: CaptureHarness, rows: number): void {
  const checkpoints = new FileCheckpoints(c.db);
  c.db.transaction(() => {
    for (let i = 0; i < rows; i += 1) checkpoints.put('claude', checkpointOf(`/gone/${String(i).padStart(6, '0')}.jsonl`, i));
  })();
}

/** Counts the rows every statement reading file_checkpoints hands back, until restored. */
function rowsReadFromCheckpoints(): () => number {
  let rows = 0;
  const probe = h!.db.prepare('SELECT 1');
  const proto = Object.getPrototypeOf(probe) as Statement;
  const all = proto.all;
  vi.spyOn(proto, 'all').mockImplementation(function (this: Statement, ...params: unknown[]) {
    const out = all.apply(this, params) as unknown[];
    if (/FROM file_checkpoints/.test(this.source)) rows += out.length;
    return out;
  });
  return () => rows;
}

const countClaude = (c: CaptureHarness) => c.count("SELECT COUNT(*) FROM file_checkpoints WHERE provider = 'claude'");

/** Counts turns of the event loop (setImmediate callbacks) and samples what is in flight, until stopped. */
function loopWatch() {
  let turns = 0;
  let maxFsInFlight = 0;
  let stopped = false;
  const turn = () => {
    if (stopped) return;
    turns += 1;
    maxFsInFlight = Math.max(maxFsInFlight, process.getActiveResourcesInfo().filter((r) => r === 'FSReqPromise').length);
    setImmediate(turn);
  };
  setImmediate(turn);
  return {
    stop() {
      stopped = true;
      return { turns, maxFsInFlight };
    },
  };
}

describe('long capture work gives the event loop its turns', () => {
  it('a walk of many project folders keeps only a few stat batches in flight, and finds every file', async () => {
    h = captureHarness();
    const folders = 40;
    const perFolder = 70;
    for (let p = 0; p < folders; p += 1) {
      const dir = join(h.claudeRoot, 'projects', `-home-u-project-${p}`);
      mkdirSync(dir, { recursive: true });
      for (let f = 0; f < perFolder; f += 1) writeFileSync(join(dir, `s-${p}-${f}.jsonl`), '{}\n');
    }
    const claude = h.driver.providers.find((p) => p.id === 'claude')!;
    const watch = loopWatch();
    const { files, failed } = await claude.discover();
    const seen = watch.stop();
    expect(failed).toBe(0);
    expect(new Set(files.map((f) => f.path)).size).toBe(folders * perFolder);
    // Every folder's batch queued at once (2,560 stats here) left the owner taking their completions in
    // runs of thousands: 130–170 ms holds on 20,000 files. A few batches of 64 at a time keep each short.
    expect(seen.maxFsInFlight).toBeLessThanOrEqual(4 * 64);
  });

  it("a provider's checkpoints load in pages with a turn between them, every row once", async () => {
    h = captureHarness();
    const checkpoints = new FileCheckpoints(h.db);
    const rows = CHECKPOINT_PAGE_ROWS * 2 + 500;
    h.db.transaction(() => {
      for (let i = 0; i < rows; i += 1) {
        checkpoints.put('claude', {
          path: `/t/${String(i).padStart(6, '0')}.jsonl`,
          dev: 1n,
          ino: BigInt(i + 1),
          size: i,
          mtimeMs: 1_000 + i,
          offset: i,
          headHash: 'h',
          tailHash: 't',
          parserVersion: 7,
          windowStartMs: i % 2 === 0 ? null : 5,
          state: null,
          // Every third file's count is not known, every third left nothing out (not listed), the rest left some.
          olderLeftOut: i % 3 === 0 ? null : i % 3 === 1 ? 0 : 2,
        });
      }
      // Another provider's rows are never mixed in.
      checkpoints.put('codex', { path: '/t/000001.jsonl', dev: 9n, ino: 9n, size: 9, mtimeMs: 9, offset: 9, headHash: 'h', tailHash: 't', parserVersion: 1, windowStartMs: null, state: null, olderLeftOut: 4 });
    })();

    let watch = loopWatch();
    const identities = await checkpoints.identities('claude');
    expect(watch.stop().turns).toBeGreaterThanOrEqual(2);
    expect(identities.size).toBe(rows);
    expect(identities.get('/t/000001.jsonl')).toEqual({ dev: 1n, ino: 2n, size: 1, mtimeMs: 1_001, ctimeMs: null, parserVersion: 7, windowStartMs: 5 });
    expect(identities.get(`/t/${String(rows - 1).padStart(6, '0')}.jsonl`)).toMatchObject({ ino: BigInt(rows), windowStartMs: 5 });

    watch = loopWatch();
    const surveyed = await checkpoints.surveyed('claude');
    expect(watch.stop().turns).toBeGreaterThanOrEqual(2);
    expect(surveyed.size).toBe(rows);
    expect(surveyed.get('/t/000000.jsonl')).toEqual({ size: 0, mtimeMs: 1_000, windowStartMs: null, olderLeftOut: null });
    expect(surveyed.get('/t/000001.jsonl')).toEqual({ size: 1, mtimeMs: 1_001, windowStartMs: 5, olderLeftOut: 0 });
    expect(surveyed.get('/t/000005.jsonl')).toEqual({ size: 5, mtimeMs: 1_005, windowStartMs: 5, olderLeftOut: 2 });
  });

  it("the survey reads a provider's checkpoints once, in pages, for both the files read whole and the older messages", async () => {
    h = captureHarness({ providers: { claude: { backfill: { window_days: 30 } } } });
    const dir = join(h.claudeRoot, 'projects', '-work-fixture-project');
    const whole = join(dir, 'old.jsonl');
    const recent = join(dir, 'recent.jsonl');
    writeJsonl(whole, [claudeLine({ sessionId: 'old', ts: new Date(Date.now() - 100 * DAY) })]);
    const longAgo = new Date(Math.floor((Date.now() - 100 * DAY) / 1_000) * 1_000);
    utimesSync(whole, longAgo, longAgo);
    writeJsonl(recent, [claudeLine({ sessionId: 'recent' })]);
    const filler = CHECKPOINT_PAGE_ROWS * 2 + 500;
    vanished(h, filler);
    const checkpoints = new FileCheckpoints(h.db);
    // The old file was imported whole (no window) and is unchanged; the recent one's read left 3 older lines out.
    checkpoints.put('claude', checkpointOf(whole, 1, { size: statSync(whole).size, mtimeMs: statSync(whole).mtimeMs, windowStartMs: null, olderLeftOut: 0 }));
    checkpoints.put('claude', checkpointOf(recent, 2, { size: 1, mtimeMs: 1, windowStartMs: Date.now() - 40 * DAY, olderLeftOut: 3 }));

    const rowsRead = rowsReadFromCheckpoints();
    const watch = loopWatch();
    const claude = (await h.driver.survey()).providers.find((p) => p.provider === 'claude')!;
    expect(watch.stop().turns).toBeGreaterThanOrEqual(2);
    expect(claude).toMatchObject({ files: 2, older: { files: 1, imported: { files: 1 } }, olderMessages: 3, olderUncounted: 0 });
    // Every row once: a load for the files read whole and another for the counts read most rows twice.
    expect(rowsRead()).toBe(filler + 2);
  });

  it('the checkpoints of 20,000 vanished files go in pieces with turns between them, every one of them', async () => {
    h = captureHarness();
    writeJsonl(join(h.claudeRoot, 'projects', '-work-fixture-project', 'kept.jsonl'), [claudeLine({ sessionId: 'kept' })]);
    const rows = 20_000;
    vanished(h, rows);
    // The rows left at each turn of the event loop while the tick runs: removed in one step, 20,000 held it 75–380 ms.
    const left: number[] = [];
    let stopped = false;
    const sample = () => {
      if (stopped) return;
      left.push(countClaude(h!));
      setImmediate(sample);
    };
    setImmediate(sample);
    const tick = byProvider(await h.driver.tick(), 'claude');
    stopped = true;
    expect(tick).toMatchObject({ discovered: 1, read: 1 });
    expect(countClaude(h)).toBe(1);
    const drops = left.slice(1).map((n, i) => left[i]! - n);
    expect(Math.max(...drops)).toBeLessThanOrEqual(CHECKPOINT_PAGE_ROWS);
    expect(left.filter((n) => n > 1 && n < rows).length).toBeGreaterThanOrEqual(rows / CHECKPOINT_PAGE_ROWS - 1);
  });

  it('checkpoints a removal left behind (a crash between its pieces) go at the first tick after the restart', async () => {
    h = captureHarness();
    writeJsonl(join(h.claudeRoot, 'projects', '-work-fixture-project', 'kept.jsonl'), [claudeLine({ sessionId: 'kept' })]);
    await h.driver.tick();
    // Each piece commits alone: a crash after some leaves the rest of the vanished files' rows, and nothing else changed.
    vanished(h, CHECKPOINT_PAGE_ROWS + 10);
    await h.restart();
    expect(byProvider(await h.driver.tick(), 'claude')).toMatchObject({ discovered: 1, read: 0, unchanged: 1 });
    expect(countClaude(h)).toBe(1);
  });
});
