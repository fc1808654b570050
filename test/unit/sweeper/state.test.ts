import fs, { existsSync, mkdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { projectPaths } from '../../../core/sweeper/index.js';
import { readState, StateLockTimeout, stateWritten, updateState, withStateLock, type SweeperState } from '../../../core/sweeper/state.js';
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

  it('a change whose write failed is carried by the next write, as reads showed it, not lost when that one lands', async () => {
    const { paths } = setup();
    const { rename } = fs;
    let failed = 0;
    // The first write of the state fails (a full disk); the next one works.
    vi.spyOn(fs, 'rename').mockImplementation((from, to, callback) => {
      if (String(to).endsWith('sweep-state.json') && failed++ === 0) return void callback(Object.assign(new Error('no space left'), { code: 'ENOSPC' }));
      rename(from, to, callback);
    });
    const first = updateState(paths.state, (s) => ({ ...s, scratch: true }));
    const second = updateState(paths.state, (s) => ({ ...s, lastSweepAt: 1_234 }));
    await expect(first).rejects.toThrow('no space left');
    await expect(second).resolves.toMatchObject({ scratch: true, lastSweepAt: 1_234 });
    await stateWritten(paths.state);
    // Before, the second write applied only its own change to the file: the scratch choice was gone.
    expect(JSON.parse(readFileSync(paths.state, 'utf8'))).toMatchObject({ scratch: true, lastSweepAt: 1_234 });
  });

  it('a change whose write failed with nothing after it is dropped: reads show the file again, and no later write brings it back', async () => {
    const { paths } = setup();
    const { rename } = fs;
    let failed = 0;
    vi.spyOn(fs, 'rename').mockImplementation((from, to, callback) => {
      if (String(to).endsWith('sweep-state.json') && failed++ === 0) return void callback(Object.assign(new Error('no space left'), { code: 'ENOSPC' }));
      rename(from, to, callback);
    });
    await expect(updateState(paths.state, (s) => ({ ...s, scratch: true }))).rejects.toThrow('no space left');
    expect(readState(paths.state).scratch).toBe(false);
    await updateState(paths.state, (s) => ({ ...s, lastSweepAt: 5 }));
    expect(JSON.parse(readFileSync(paths.state, 'utf8'))).toMatchObject({ scratch: false, lastSweepAt: 5 });
  });

  it('never holds where the curator endpoint is: a file written before says its last error without the address, and is cleaned', async () => {
    const { paths } = setup();
    const said: Record<string, string> = {
      'connect ECONNREFUSED 127.0.0.1:11434': 'connect ECONNREFUSED (an address)',
      'The model endpoint at localhost:11434 could not be reached': 'The model endpoint could not be reached',
      'The model provider at api.example.com rejected the credentials (HTTP 401)': 'The model provider rejected the credentials (HTTP 401)',
      'No Anthropic API key is available for [::1]:8080: set ANTHROPIC_API_KEY in the environment of the Steward process and restart it':
        'No Anthropic API key is available: set ANTHROPIC_API_KEY in the environment of the Steward process and restart it',
      'request to http://10.0.0.5:8000/v1/chat/completions failed': 'request to (an address) failed',
      'The sweep failed reading /home/ana/.steward/projects/x/CLAUDE.md': 'The sweep failed reading (a path)',
      'cannot open C:\\Users\\ana\\notes.md or ~/notes.md': 'cannot open (a path) or (a path)',
      'The model stopped at its output limit; nothing was written': 'The model stopped at its output limit; nothing was written',
      'The model provider refused for billing or spend limits (HTTP 402)': 'The model provider refused for billing or spend limits (HTTP 402)',
    };
    mkdirSync(dirname(paths.state), { recursive: true });
    for (const [message, words] of Object.entries(said)) {
      writeFileSync(paths.state, JSON.stringify({ version: 1, lastOutcome: 'failed', lastError: { code: 'connection', message } }));
      expect(readState(paths.state).lastError).toEqual({ code: 'connection', message: words });
      await stateWritten(paths.state);
      // Written again without the address; a message with none is left as it was.
      if (words !== message) expect(readFileSync(paths.state, 'utf8')).not.toContain(message);
      expect(JSON.parse(readFileSync(paths.state, 'utf8'))).toMatchObject({ lastOutcome: 'failed', lastError: { code: 'connection', message: words } });
    }
  });
});

describe("sweep-state.json's lock", () => {
  const timing = { timeoutMs: 300, staleMs: 5_000, pollMs: 10 };

  function lockedFile() {
    const home = tempHome();
    homes.push(home.cleanup);
    const file = projectPaths(home.dir, 'proj').state;
    mkdirSync(join(home.dir, 'projects', 'proj'), { recursive: true });
    // Another process holds it now (proper-lockfile's lock is an empty folder, kept fresh by its holder).
    mkdirSync(`${file}.lock`);
    return file;
  }

  it('waits for a lock another process holds off the event loop, then gives up with a typed error and runs nothing', async () => {
    const file = lockedFile();
    const work = vi.fn(() => Promise.resolve());
    const { result, longestMs } = await longestHold(() => withStateLock(file, work, timing).catch((error: unknown) => error));
    expect(result).toBeInstanceOf(StateLockTimeout);
    expect(result).toMatchObject({ code: 'state_lock_timeout' });
    expect(work).not.toHaveBeenCalled();
    expect(longestMs).toBeLessThan(50);
    // The other holder's lock is left to it.
    expect(statSync(`${file}.lock`).isDirectory()).toBe(true);
  });

  it('takes over a lock left by a process that died holding it', async () => {
    const file = lockedFile();
    const old = new Date(Date.now() - 60_000);
    utimesSync(`${file}.lock`, old, old);
    await expect(withStateLock(file, () => Promise.resolve('ran'), timing)).resolves.toBe('ran');
    expect(existsSync(`${file}.lock`)).toBe(false);
  });

  it('is released when the work fails, and the failure is what the caller sees', async () => {
    const file = lockedFile();
    fs.rmdirSync(`${file}.lock`);
    await expect(withStateLock(file, () => Promise.reject(new Error('disk full')), timing)).rejects.toThrow('disk full');
    expect(existsSync(`${file}.lock`)).toBe(false);
    await expect(updateState(file, (s) => ({ ...s, scratch: true }))).resolves.toMatchObject({ scratch: true });
  });
});
