import { fork } from 'node:child_process';
import fs, { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { projectPaths } from '../../../core/sweeper/paths.js';
import { updateState, type SweeperState } from '../../../core/sweeper/state.js';
import { tempHome } from '../../integration/sweeper/helpers.js';
import { transpileCore } from '../../support/transpiled-core.js';

const cleanups: Array<() => void> = [];
afterEach(() => {
  vi.restoreAllMocks();
  cleanups.splice(0).forEach((c) => c());
});

/** A second Steward process (the CLI beside the tray owner): one forget, counted in the file. */
const FORGET = `
import { updateState } from './core/sweeper/state.js';
process.send('started');
await updateState(process.argv[2], (s) => ({ ...s, notesStaleMarks: s.notesStaleMarks + 1 }));
process.disconnect();
`;

function setup() {
  const home = tempHome();
  cleanups.push(home.cleanup);
  const file = projectPaths(home.dir, 'proj').state;
  mkdirSync(join(home.dir, 'projects', 'proj'), { recursive: true });
  writeFileSync(file, JSON.stringify({ version: 1 }));
  const core = transpileCore('sweep-state-processes');
  cleanups.push(core.cleanup);
  writeFileSync(join(core.dir, 'forget.mjs'), FORGET);
  return { home: home.dir, file, script: join(core.dir, 'forget.mjs') };
}

/** Runs the other process; settles with its exit code once it exits, and calls `started` once it is about to update. */
function otherProcess(script: string, file: string, home: string, started: () => void): Promise<number | null> {
  const child = fork(script, [file], { env: { ...process.env, STEWARD_HOME: home }, stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
  child.on('message', (m) => m === 'started' && started());
  return new Promise((done) => child.on('exit', (code) => done(code)));
}

describe('sweep-state.json written by two processes', () => {
  it("keeps both changes when another process updates the file while this one's update is landing", async () => {
    const { home, file, script } = setup();
    let other: Promise<number | null> | undefined;
    const { rename } = fs;
    // This process's write is on its way (its temp file written, not yet renamed) when the other process updates.
    vi.spyOn(fs, 'rename').mockImplementation((from, to, callback) => {
      if (other || !String(to).endsWith('sweep-state.json')) return void rename(from, to, callback);
      let go: () => void = () => undefined;
      const landed = new Promise<void>((resolve) => (go = resolve));
      other = otherProcess(script, file, home, () => setTimeout(go, 300));
      void other.then(go);
      void landed.then(() => rename(from, to, callback));
    });
    await updateState(file, (s) => ({ ...s, lastSweepAt: 1_234 }));
    expect(await other).toBe(0);
    // Before the lock, the other's write of the file as it read it (no lastSweepAt) or this one's (no mark) won.
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ lastSweepAt: 1_234, notesStaleMarks: 1 } satisfies Partial<SweeperState>);
  }, 30_000);
});
