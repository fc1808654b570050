import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { projectPaths, Sweeper } from '../../../core/sweeper/index.js';
import { readState } from '../../../core/sweeper/state.js';
import { harness, settings, tempHome } from './helpers.js';

/**
 * A forget that lands while a rebuild of the project reads its conversations: the rebuild may have
 * read the forgotten one, so it must not clear the stale mark, even when the forget moves neither the
 * mark's time nor its day (the conversation began after the day the notes are already withheld from).
 */

const DAY = 86_400_000;
const homes: Array<() => void> = [];
afterEach(() => homes.splice(0).forEach((cleanup) => cleanup()));

/** `cli`: the forget is made by another process's sweeper (the CLI), which arms nothing in this one. */
function forgetDuringRebuild(options: { schedule?: boolean; cli?: boolean } = {}) {
  const home = tempHome();
  homes.push(home.cleanup);
  const h = harness(home.dir, { schedule: options.schedule ?? false });
  const forgetter = options.cli ? new Sweeper({ home: home.dir, source: h.source, clock: h.clock, settings: settings(), env: {} }) : h.sweeper;
  const key = h.fixture.project.projectKey;
  const paths = projectPaths(home.dir, h.fixture.project.slug);
  const entry = h.source.entries.get(key)!;
  const newest = entry.sessions.find((s) => s.sessionId === 's-newest')!;
  const read = h.source.recentSessions.bind(h.source);
  let forgetting = false;
  // While the rebuild reads, the newest conversation is forgotten: read already, gone from the store after.
  h.source.recentSessions = (projectKey, limits) => {
    const sessions = read(projectKey, limits);
    if (forgetting) {
      forgetting = false;
      entry.sessions.splice(entry.sessions.indexOf(newest), 1);
      void forgetter.notesStale(key, newest.messages[0]!.ts);
    }
    return sessions;
  };
  const notes = () => `${readFileSync(paths.overview, 'utf8')}\n${readFileSync(paths.changelog, 'utf8')}`;
  return {
    ...h,
    key,
    notes,
    state: () => readState(paths.state),
    start: async () => {
      await h.sweeper.run(key);
      expect(notes()).toContain('frost');
      await h.clock.advance(60_000);
      await h.sweeper.notesStale(key, h.source.latestActivity(key)! - 10 * DAY);
      forgetting = true;
    },
  };
}

describe('a forget while the notes are rebuilt', () => {
  it('keeps them withheld, and the next sweep rebuilds them without the forgotten conversation', async () => {
    const h = forgetDuringRebuild();
    await h.start();
    await h.sweeper.run(h.key);
    await h.sweeper.whenIdle();
    expect(h.state().notesStaleSince).not.toBeNull();

    await h.sweeper.run(h.key);
    expect(h.state().notesStaleSince).toBeNull();
    expect(h.notes()).not.toContain('frost');
  });

  it('a scheduling owner rebuilds them again soon', async () => {
    const h = forgetDuringRebuild({ schedule: true });
    await h.start();
    await h.clock.advance(30_000, () => h.sweeper.whenIdle());
    expect(h.state().notesStaleSince).not.toBeNull();
    expect(h.sweeper.pendingKeys()).toEqual([h.key]);

    await h.clock.advance(30_000, () => h.sweeper.whenIdle());
    expect(h.state().notesStaleSince).toBeNull();
    expect(h.notes()).not.toContain('frost');
  });

  it('made by another process, a scheduling owner still rebuilds them again soon', async () => {
    const h = forgetDuringRebuild({ schedule: true, cli: true });
    await h.start();
    // Run by hand: the sweep armed by the first forget is dropped, and the CLI's forget arms none here.
    await h.sweeper.run(h.key);
    expect(h.state().notesStaleSince).not.toBeNull();
    expect(h.sweeper.pendingKeys()).toEqual([h.key]);

    await h.clock.advance(30_000, () => h.sweeper.whenIdle());
    expect(h.state().notesStaleSince).toBeNull();
    expect(h.notes()).not.toContain('frost');
  });
});

describe('a rebuild that fails', () => {
  it('leaves the notes withheld', async () => {
    const home = tempHome();
    homes.push(home.cleanup);
    const h = harness(home.dir);
    const key = h.fixture.project.projectKey;
    await h.sweeper.run(key);
    await h.sweeper.notesStale(key);
    h.source.recentSessions = () => {
      throw Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });
    };
    await expect(h.sweeper.run(key)).rejects.toMatchObject({ code: 'sweep_failed' });
    expect(readState(projectPaths(home.dir, h.fixture.project.slug).state).notesStaleSince).not.toBeNull();
  });
});
