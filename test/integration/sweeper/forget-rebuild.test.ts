import { afterEach, describe, expect, it } from 'vitest';
import { projectPaths } from '../../../core/sweeper/index.js';
import { readState } from '../../../core/sweeper/state.js';
import { harness, tempHome } from './helpers.js';

/** A forget marks the notes stale; a scheduling owner rebuilds them soon, not at the next interval. */

const homes: Array<() => void> = [];
afterEach(() => homes.splice(0).forEach((cleanup) => cleanup()));

function scheduled() {
  const home = tempHome();
  homes.push(home.cleanup);
  const h = harness(home.dir, { schedule: true });
  return { ...h, key: h.fixture.project.projectKey, state: () => readState(projectPaths(home.dir, h.fixture.project.slug).state) };
}

describe('notes made stale by a forget', () => {
  it('are rebuilt about 30 seconds later, inside the interval and with nothing new', async () => {
    const h = scheduled();
    await h.sweeper.run(h.key);
    const swept = h.state().lastSweepAt;
    await h.clock.advance(60_000);

    await h.sweeper.notesStale(h.key);
    expect(h.state().notesStaleSince).toBe(h.clock.now());
    expect(h.sweeper.pendingKeys()).toEqual([h.key]);
    await h.clock.advance(30_000, () => h.sweeper.whenIdle());
    expect(h.state()).toMatchObject({ notesStaleSince: null, lastOutcome: 'ok' });
    expect(h.state().lastSweepAt).toBeGreaterThan(swept!);
  });

  it('a project never swept has no notes to mark, and no sweep is armed for it', async () => {
    const h = scheduled();
    await h.sweeper.notesStale(h.key);
    expect(h.state().notesStaleSince).toBeNull();
    expect(h.sweeper.pendingKeys()).toEqual([]);
  });
});
