import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FileCheckpoints } from '../../../core/gateway/index.js';
import { CHECKPOINT_PAGE_ROWS } from '../../../core/gateway/file-checkpoints.js';
import { captureHarness, type CaptureHarness } from './harness.js';

// The house rule: long work never holds the owner's event loop for long. Wall-clock limits flake on a
// busy 2-core box, so these check the shape that keeps the holds short: bounded work between turns.

let h: CaptureHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

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
    expect(identities.get('/t/000001.jsonl')).toEqual({ dev: 1n, ino: 2n, size: 1, mtimeMs: 1_001, parserVersion: 7, windowStartMs: 5 });
    expect(identities.get(`/t/${String(rows - 1).padStart(6, '0')}.jsonl`)).toMatchObject({ ino: BigInt(rows), windowStartMs: 5 });

    watch = loopWatch();
    const leftOut = await checkpoints.olderLeftOut('claude');
    expect(watch.stop().turns).toBeGreaterThanOrEqual(1);
    expect(leftOut.size).toBe(Array.from({ length: rows }, (_, i) => i).filter((i) => i % 3 !== 1).length);
    expect(leftOut.get('/t/000000.jsonl')).toEqual({ lines: null, windowStartMs: null });
    expect(leftOut.get('/t/000001.jsonl')).toBeUndefined();
    expect(leftOut.get('/t/000005.jsonl')).toEqual({ lines: 2, windowStartMs: 5 });
  });
});
