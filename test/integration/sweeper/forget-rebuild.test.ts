import { existsSync, readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { formatSweeperRun } from '../../../core/cli/commands/sweeper.js';
import { projectPaths, Sweeper } from '../../../core/sweeper/index.js';
import { readState } from '../../../core/sweeper/state.js';
import { harness, settings, tempHome } from './helpers.js';

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

/** A forget made while no owner ran (the CLI alone): the owner, once it starts, rebuilds as a live forget would. */
describe('notes withheld before the owner started', () => {
  async function forgottenOffline(overrides: { enabled?: boolean } = {}) {
    const home = tempHome();
    homes.push(home.cleanup);
    const cli = harness(home.dir);
    const key = cli.fixture.project.projectKey;
    await cli.sweeper.run(key);
    await cli.clock.advance(60_000);
    await cli.sweeper.notesStale(key);
    await cli.sweeper.whenIdle();
    const owner = new Sweeper({ home: home.dir, source: cli.source, clock: cli.clock, settings: settings(overrides), env: {}, schedule: true });
    await owner.whenIdle();
    const state = () => readState(projectPaths(home.dir, cli.fixture.project.slug).state);
    return { owner, key, clock: cli.clock, state, paths: projectPaths(home.dir, cli.fixture.project.slug) };
  }

  it('are rebuilt about 30 seconds after the owner starts', async () => {
    const o = forgottenOffline();
    const { owner, key, clock, state } = await o;
    expect(state().notesStaleSince).not.toBeNull();
    expect(owner.pendingKeys()).toEqual([key]);
    await clock.advance(29_000, () => owner.whenIdle());
    expect(state().notesStaleSince).not.toBeNull();
    await clock.advance(1_000, () => owner.whenIdle());
    expect(state()).toMatchObject({ notesStaleSince: null, lastOutcome: 'ok' });
    await owner.stop();
  });

  it('with the sweeper off, are removed rather than withheld for good', async () => {
    const { owner, key, clock, state, paths } = await forgottenOffline({ enabled: false });
    expect(owner.pendingKeys()).toEqual([key]);
    await clock.advance(30_000, () => owner.whenIdle());
    expect(state().notesStaleSince).toBeNull();
    expect(existsSync(paths.overview)).toBe(false);
    await owner.stop();
  });
});

/** Every conversation forgotten: the rebuild has none to write from, and says what it left of the changelog. */
describe('a rebuild with no conversation left', () => {
  const DAY = 86_400_000;

  function forgottenAll(firstActiveAt: (latest: number) => number | null) {
    const home = tempHome();
    homes.push(home.cleanup);
    const h = harness(home.dir);
    const key = h.fixture.project.projectKey;
    return {
      paths: projectPaths(home.dir, h.fixture.project.slug),
      run: async () => {
        await h.sweeper.run(key);
        await h.sweeper.notesStale(key, firstActiveAt(h.source.latestActivity(key)!));
        h.source.entries.get(key)!.sessions.splice(0);
        return h.sweeper.run(key);
      },
    };
  }

  it('keeping the changelog days before the forgotten conversations, says nothing new rather than an empty changelog', async () => {
    // The forgotten conversations began after every day the changelog holds.
    const { paths, run } = forgottenAll((latest) => latest + 2 * DAY);
    const result = await run();
    expect(readFileSync(paths.changelog, 'utf8')).toMatch(/^## \S+$/m);
    expect(result).toMatchObject({ outcome: 'ok', reason: 'nothing-new', overview: 'empty' });
    expect(formatSweeperRun(result)).toContain('no changelog entry (nothing new since the last sweep)');
  });

  it('with the whole changelog gone, says it is empty', async () => {
    const { paths, run } = forgottenAll(() => null);
    const result = await run();
    expect(existsSync(paths.changelog)).toBe(false);
    expect(result).toMatchObject({ outcome: 'ok', reason: 'no-activity', overview: 'empty', changelog: 'empty' });
  });
});
