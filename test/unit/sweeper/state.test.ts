import fs, { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { projectPaths } from '../../../core/sweeper/index.js';
import { readState, type SweeperState } from '../../../core/sweeper/state.js';
import { harness, tempHome } from '../../integration/sweeper/helpers.js';
import { longestHold, slowFsync } from '../../support/slow-disk.js';

const homes: Array<() => void> = [];
afterEach(() => {
  vi.restoreAllMocks();
  homes.splice(0).forEach((c) => c());
});

function setup() {
  const home = tempHome();
  homes.push(home.cleanup);
  const h = harness(home.dir);
  const key = h.fixture.project.projectKey;
  const paths = projectPaths(home.dir, h.fixture.project.slug);
  const onDisk = () => JSON.parse(readFileSync(paths.state, 'utf8')) as SweeperState;
  return { ...h, key, paths, onDisk };
}

interface Hold {
  /** The file whose atomic writes are held. */
  name: string;
  ms: number;
  /** Called as each such write is held, with its count. */
  during?: (n: number) => void;
}

/**
 * Holds the final rename of each atomic write of the named files (write-file-atomic renames its temp
 * file last): the moment a write is on its way but not on disk yet.
 */
function holdRenames(...holds: Hold[]): void {
  const { rename } = fs;
  const counts = new Map<Hold, number>();
  vi.spyOn(fs, 'rename').mockImplementation((from, to, callback) => {
    const hold = holds.find((h) => String(to).endsWith(h.name));
    if (!hold) return void rename(from, to, callback);
    const n = counts.get(hold) ?? 0;
    counts.set(hold, n + 1);
    hold.during?.(n);
    setTimeout(() => rename(from, to, callback), hold.ms);
  });
}

describe('sweep-state.json', () => {
  it("waits for a slow disk off the event loop: a sweep's or a scratch choice's fsync never holds the owner's loop", async () => {
    const { sweeper, key, onDisk } = setup();
    // A disk other processes keep busy: each fsync takes 300 ms (0.23-0.58 s were measured on one).
    const SLOW_MS = 300;
    slowFsync(SLOW_MS);
    const { longestMs } = await longestHold(async () => {
      await expect(sweeper.run(key)).resolves.toMatchObject({ outcome: 'ok' });
      expect(await sweeper.setScratch(key, true)).toBe(true);
    });
    expect(onDisk()).toMatchObject({ lastOutcome: 'ok', scratch: true });
    // `writeFileAtomic.sync` held the loop for the whole fsync, once a sweep and once a scratch choice.
    expect(longestMs).toBeLessThan(SLOW_MS);
  });

  it("keeps a scratch choice made while a sweep's state write is still landing, and the sweep's record too", async () => {
    const { sweeper, key, paths, onDisk } = setup();
    let choice: Promise<boolean | null> | undefined;
    holdRenames({
      name: 'sweep-state.json',
      ms: 100,
      // The sweep's own write is on its way: the user marks the project scratch in the panel.
      during: (n) => void (n === 0 && (choice = sweeper.setScratch(key, true))),
    });
    const result = await sweeper.run(key);
    expect(choice).toBeDefined();
    // Read back at once (Projects.Get), before anything landed: both changes already show.
    expect(readState(paths.state)).toMatchObject({ scratch: true, lastOutcome: 'ok' });
    expect(await choice).toBe(true);
    await sweeper.whenIdle();
    // A write of the state as it was on disk before the sweep's landed would have lost the sweep's record.
    expect(onDisk()).toMatchObject({ scratch: true, lastOutcome: 'ok', watermark: expect.any(Number) as number });
    expect(result).toMatchObject({ outcome: 'ok' });
    await expect(sweeper.run(key, { force: true })).resolves.toMatchObject({ outcome: 'skipped', reason: 'scratch' });
  });

  it("a sweep finishing while a scratch choice is still landing never writes the older copy over it", async () => {
    const { sweeper, key, paths, onDisk } = setup();
    let choice: Promise<boolean | null> | undefined;
    // The user marks the project scratch while the sweep writes its notes; that choice's write is slow to land.
    holdRenames({ name: 'OVERVIEW.md', ms: 0, during: () => void (choice ??= sweeper.setScratch(key, true)) }, { name: 'sweep-state.json', ms: 150 });
    await sweeper.run(key);
    expect(choice).toBeDefined();
    expect(await choice).toBe(true);
    await sweeper.whenIdle();
    // The sweep's state was read from disk while the choice was still on its way: scratch was false there.
    expect(onDisk()).toMatchObject({ scratch: true, lastOutcome: 'ok' });
    expect(readState(paths.state).scratch).toBe(true);
  });
});
