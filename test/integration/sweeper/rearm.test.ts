import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { projectPaths, Sweeper } from '../../../core/sweeper/index.js';
import { loadFixture, ManualClock, MemorySource, NOON, settings, tempHome } from './helpers.js';

/** At start a scheduling owner re-arms every failed project: read in pieces, never all in one turn. */
const MINUTE = 60_000;
const PROJECTS = 1_000;
const cleanups: Array<() => void> = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

/** A thousand projects, each failed with the offline curator and backing off until 12:05. */
function failedProjects(): { home: string; source: MemorySource } {
  const { dir, cleanup } = tempHome();
  cleanups.push(cleanup);
  const fixture = loadFixture();
  const source = new MemorySource();
  for (let i = 0; i < PROJECTS; i += 1) {
    const project = { ...fixture.project, projectKey: `p${i}`, slug: `project-${String(i).padStart(4, '0')}` };
    source.add(project, fixture.sessions);
    const file = projectPaths(dir, project.slug).state;
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, JSON.stringify({ lastOutcome: 'failed', lastMode: 'offline', lastSweepAt: NOON, consecutiveFailures: 1, nextAttemptAt: NOON + 5 * MINUTE }));
  }
  return { home: dir, source };
}

function owner(home: string, source: MemorySource, clock: ManualClock): Sweeper {
  return new Sweeper({ home, source, clock, settings: settings(), env: {}, schedule: true });
}

const turns = async (n: number) => {
  for (let i = 0; i < n; i += 1) await new Promise<void>((resolve) => setImmediate(resolve));
};

describe('re-arming failed projects at start', () => {
  it('reads one piece while constructing and the rest after turns of the event loop', async () => {
    const { home, source } = failedProjects();
    const clock = new ManualClock(NOON);
    const sweeper = owner(home, source, clock);
    const first = sweeper.pendingKeys().length;
    expect(first).toBeGreaterThan(0);
    expect(first).toBeLessThanOrEqual(100);
    await sweeper.whenIdle();
    expect(sweeper.pendingKeys()).toHaveLength(PROJECTS);
    // Each once, when its backoff ends.
    expect(new Set([...clock.timers.values()].map((t) => t.at))).toEqual(new Set([NOON + 5 * MINUTE]));
    await sweeper.stop();
  });

  it('stop during the scan leaves no timer armed, and the scan reads no further', async () => {
    const { home, source } = failedProjects();
    const clock = new ManualClock(NOON);
    const sweeper = owner(home, source, clock);
    expect(sweeper.pendingKeys().length).toBeGreaterThan(0);
    await sweeper.stop();
    await turns(50);
    expect(sweeper.pendingKeys()).toEqual([]);
    expect(clock.timers.size).toBe(0);
  });

  it('a change of settings during the scan re-arms from the start with the new settings, once', async () => {
    const { home, source } = failedProjects();
    const clock = new ManualClock(NOON);
    const sweeper = owner(home, source, clock);
    // Another curator is not held by the offline curator's backoff: every project soon.
    sweeper.updateSettings({ ...sweeper.settings, curator: 'anthropic' }, { liftPauses: false });
    await sweeper.whenIdle();
    expect(sweeper.pendingKeys()).toHaveLength(PROJECTS);
    expect(new Set([...clock.timers.values()].map((t) => t.at))).toEqual(new Set([NOON + 30_000]));
    await sweeper.stop();
  });
});
