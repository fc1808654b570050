import { existsSync, readFileSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { projectPaths } from '../../../core/sweeper/index.js';
import { writesLanded } from '../../../core/sweeper/file-queue.js';
import { readState, updateState } from '../../../core/sweeper/state.js';
import { Sweeper, SweeperFailure } from '../../../core/sweeper/sweeper.js';
import type { DigestMessage, SweeperProject } from '../../../core/sweeper/types.js';
import { anthropicError, anthropicMessage, FakeModelServer } from './fake-models.js';
import { harness, ManualClock, MemorySource, settings, tempHome, type Harness } from './helpers.js';

const REPLY = '<<<OVERVIEW>>>\n# garden-planner\n\nState.\n<<<CHANGELOG>>>\nAdded the frost-date lookup\n<<<CLAUDE>>>\nNOCHANGE\n';
const ok = () => anthropicMessage(REPLY, 'stop_sequence');
const down = () => anthropicError(500, 'api_error', 'Internal error');

let fake: FakeModelServer;
const homes: Array<() => void> = [];
beforeAll(async () => {
  fake = await new FakeModelServer().start();
});
afterAll(() => fake.stop());
afterEach(() => {
  fake.requests.length = 0;
  homes.splice(0).forEach((c) => c());
});

function anthropic(extra: Parameters<typeof harness>[1] = {}): Harness & { home: string } {
  const home = tempHome();
  homes.push(home.cleanup);
  return { home: home.dir, ...harness(home.dir, { curator: 'anthropic', anthropicBaseUrl: fake.url, ...extra }) };
}

async function failure(promise: Promise<unknown>): Promise<SweeperFailure> {
  const error = await promise.then(() => null, (e: unknown) => e);
  expect(error).toBeInstanceOf(SweeperFailure);
  return error as SweeperFailure;
}

describe('the daily budget of model calls', () => {
  it('pauses remote curation with a visible reason once spent, until the next day or a raise', async () => {
    fake.script(ok());
    const h = anthropic({ dailyModelCalls: 2 });
    const key = h.fixture.project.projectKey;
    await h.sweeper.run(key, { force: true });
    await h.sweeper.run(key, { force: true });
    expect(h.sweeper.budget()).toEqual({ limit: 2, usedToday: 2 });
    const refused = await failure(h.sweeper.run(key, { force: true }));
    expect(refused.code).toBe('curator_paused');
    expect(refused.message).toMatch(/budget of 2 model calls is spent; remote curation resumes tomorrow/);
    expect(fake.requests).toHaveLength(2);
    expect(h.sweeper.pauseOf('anthropic')).toMatchObject({ curator: 'anthropic', reason: 'daily_budget' });
    expect(h.sweeper.pauses().map((p) => p.reason)).toEqual(['daily_budget']);
    // The offline curator costs nothing and never stops for the budget.
    expect(h.sweeper.pauseOf('offline')).toBeNull();
    await h.clock.advance(24 * 3_600_000);
    await expect(h.sweeper.run(key, { force: true })).resolves.toMatchObject({ outcome: expect.stringMatching(/ok|nochange/) });
    expect(fake.requests).toHaveLength(3);
    h.sweeper.updateSettings({ ...h.sweeper.settings, dailyModelCalls: 1 }, { liftPauses: false });
    await failure(h.sweeper.run(key, { force: true }));
    h.sweeper.updateSettings({ ...h.sweeper.settings, dailyModelCalls: 5 }, { liftPauses: false });
    await h.sweeper.run(key, { force: true });
    expect(fake.requests).toHaveLength(4);
  });

  it('a scheduled sweep past the budget waits quietly: no model call, no failure counted', async () => {
    fake.script(ok());
    const h = anthropic({ dailyModelCalls: 0, schedule: true });
    const key = h.fixture.project.projectKey;
    h.sweeper.enqueue([key]);
    await h.clock.advance(60_000, () => h.sweeper.whenIdle());
    expect(fake.requests).toHaveLength(0);
    expect(readState(projectPaths(h.home, h.fixture.project.slug).state)).toMatchObject({ consecutiveFailures: 0, lastOutcome: null });
  });

  it('counts failed calls too, across restarts', async () => {
    fake.script(down());
    const h = anthropic({ dailyModelCalls: 100 });
    await failure(h.sweeper.run(h.fixture.project.projectKey, { force: true }));
    expect(h.sweeper.budget().usedToday).toBe(3);
    // A restart follows the sweeper's stop, which waits for its queued writes (the budget's among them) to land.
    await writesLanded();
    const again = anthropic({ dailyModelCalls: 100 });
    expect(new Sweeper({ home: h.home, source: again.source, settings: h.sweeper.settings, env: {}, clock: h.clock }).budget().usedToday).toBe(3);
  });
});

describe('the trailing run survives a backoff', () => {
  it('a run armed before a failure, falling inside its backoff, runs when the backoff ends', async () => {
    fake.script(down(), down(), down(), ok());
    const h = anthropic({ schedule: true });
    const key = h.fixture.project.projectKey;
    const settle = () => h.sweeper.whenIdle();
    h.sweeper.enqueue([key]);
    // Meanwhile the user forces a sweep, which fails and starts a backoff of five minutes.
    await failure(h.sweeper.run(key, { force: true, kind: 'scheduled' }));
    await h.clock.advance(30_000, settle);
    expect(fake.requests).toHaveLength(3);
    await h.clock.advance(5 * 60_000, settle);
    expect(fake.requests).toHaveLength(4);
    expect(readState(projectPaths(h.home, h.fixture.project.slug).state)).toMatchObject({ lastOutcome: 'ok', consecutiveFailures: 0 });
  });

  it('a burst after a second failure is swept when the longer backoff ends, not dropped', async () => {
    fake.script(down(), down(), down(), down(), down(), down(), ok());
    const h = anthropic({ schedule: true });
    const key = h.fixture.project.projectKey;
    const settle = () => h.sweeper.whenIdle();
    h.sweeper.enqueue([key]);
    await h.clock.advance(30_000, settle);
    h.source.say(key, 'Also handle the first frost of autumn', h.clock.now());
    h.sweeper.enqueue([key]);
    await h.clock.advance(6 * 60_000, settle);
    expect(readState(projectPaths(h.home, h.fixture.project.slug).state).consecutiveFailures).toBe(2);
    h.source.say(key, 'And the last frost of spring', h.clock.now());
    h.sweeper.enqueue([key]);
    await h.clock.advance(30 * 60_000, settle);
    expect(fake.requests).toHaveLength(7);
    expect(readState(projectPaths(h.home, h.fixture.project.slug).state)).toMatchObject({ lastOutcome: 'ok' });
  });
});

describe('live turns', () => {
  it('only turns newer than the watermark arm a sweep', async () => {
    const home = tempHome();
    homes.push(home.cleanup);
    const h = harness(home.dir, { schedule: true });
    const key = h.fixture.project.projectKey;
    await h.sweeper.run(key);
    const watermark = readState(projectPaths(home.dir, h.fixture.project.slug).state).watermark!;
    h.sweeper.onLiveTurns([{ projectKey: key, at: watermark }]);
    expect(h.sweeper.pendingKeys()).toEqual([]);
    expect(h.sweeper.stats.notLive).toBe(1);
    h.sweeper.onLiveTurns([{ projectKey: key, at: watermark + 1 }]);
    expect(h.sweeper.pendingKeys()).toEqual([key]);
  });
});

function message(role: 'user' | 'assistant', text: string, at: string, toolUses: DigestMessage['toolUses'] = []): DigestMessage {
  return { role, text, toolUses, ts: Date.parse(at) };
}

describe('the changelog is dated by the activity it describes', () => {
  it('one bullet per activity day, never the day of the sweep; a later sweep adds only its own days', async () => {
    const home = tempHome();
    homes.push(home.cleanup);
    const project: SweeperProject = { projectKey: 'p_00000000000000ee', name: 'tidepool', cwd: '/work/tidepool', slug: 'tidepool-00000000', repoBacked: false, repoId: null };
    const first = message('user', 'Add a low-water warning for the harbour', '2026-11-20T12:00:00Z');
    const source = new MemorySource().add(project, [
      {
        sessionId: 'newer',
        title: 'Tide tables',
        firstRequest: message('user', 'Import the tide tables for the harbour', '2026-11-23T12:00:00Z'),
        messages: [
          message('user', 'Import the tide tables for the harbour', '2026-11-23T12:00:00Z'),
          message('assistant', 'Imported them.', '2026-11-23T12:05:00Z', [{ name: 'Bash', command: 'git commit -m "Import the tide tables"' }]),
        ],
      },
      { sessionId: 'older', title: null, firstRequest: first, messages: [first, message('assistant', 'Added it.', '2026-11-21T09:00:00Z', [{ name: 'Edit', filePath: '/work/tidepool/src/warn.ts' }])] },
    ]);
    const clock = new ManualClock(Date.parse('2026-12-05T12:00:00Z'));
    const sweeper = new Sweeper({ home: home.dir, source, settings: settings(), env: {}, clock });
    await sweeper.run(project.projectKey);
    const changelog = () => readFileSync(projectPaths(home.dir, project.slug).changelog, 'utf8');
    // 11-21 made no request of its own (only the answer's edit), so its bullet quotes none: not 11-20's.
    expect(changelog()).toBe(
      '# Changelog\n\n## 2026-11-20\n\n- Worked on: Add a low-water warning for the harbour\n\n## 2026-11-21\n\n- Worked on the project (1 file edit)\n\n## 2026-11-23\n\n- Committed “Import the tide tables”\n',
    );
    source.say(project.projectKey, 'Warn two hours ahead instead of one', Date.parse('2026-12-06T08:00:00Z'));
    await clock.advance(86_400_000);
    await sweeper.run(project.projectKey);
    expect(changelog().match(/^## .*$/gm)).toEqual(['## 2026-11-20', '## 2026-11-21', '## 2026-11-23', '## 2026-12-06']);
    // The day's own request says what that day's work was, beside the conversation's title.
    expect(changelog()).toMatch(/## 2026-12-06\n\n- Worked on: Tide tables — “Warn two hours ahead instead of one”\n$/);
  });

  it("a model curator's bullet goes under the day of the newest activity, not the sweep's", async () => {
    fake.script(ok());
    const h = anthropic();
    await h.clock.advance(6 * 86_400_000);
    await h.sweeper.run(h.fixture.project.projectKey);
    const text = readFileSync(projectPaths(h.home, h.fixture.project.slug).changelog, 'utf8');
    expect(text.match(/^## .*$/gm)).toEqual(['## 2026-11-29']);
  });
});

describe('sweep all projects now', () => {
  it('names the count and the curator first, runs only the plan it showed, and skips what has nothing new', async () => {
    const home = tempHome();
    homes.push(home.cleanup);
    const h = harness(home.dir);
    const base = h.fixture.project;
    const mk = (n: number): SweeperProject => ({ ...base, projectKey: `p_00000000000000f${n}`, name: `p${n}`, slug: `p${n}-0000000${n}` });
    for (const n of [1, 2, 3]) h.source.add(mk(n), h.fixture.sessions);
    await h.sweeper.setScratch(mk(2).projectKey, true);
    await h.sweeper.run(mk(3).projectKey);
    expect(h.sweeper.planAll()).toEqual({ projects: 2, curator: 'offline', model: null, dataBoundary: 'local_process', maxModelCalls: 0, budget: { limit: 200, usedToday: 0 }, enabled: true });
    await expect(h.sweeper.runAll({ projects: 3, curator: 'offline' })).rejects.toMatchObject({ code: 'stale_plan' });
    await expect(h.sweeper.runAll({ projects: 2, curator: 'anthropic' })).rejects.toMatchObject({ code: 'stale_plan' });
    expect(existsSync(projectPaths(home.dir, base.slug).overview)).toBe(false);
    // Each project by name with its outcome, so the CLI can say which one failed and why.
    const swept = (projectKey: string, name: string) => ({ projectKey, name, outcome: 'ok', reason: null, message: null });
    const results = expect.arrayContaining([swept(base.projectKey, base.name), swept(mk(1).projectKey, 'p1')]);
    await expect(h.sweeper.runAll({ projects: 2, curator: 'offline' })).resolves.toEqual({ projects: 2, ok: 2, nochange: 0, skipped: 0, failed: 0, paused: 0, calls: 0, results });
    expect(existsSync(projectPaths(home.dir, base.slug).overview)).toBe(true);
    expect(existsSync(projectPaths(home.dir, mk(2).slug).overview)).toBe(false);
    expect(h.sweeper.planAll().projects).toBe(0);
  });

  it('a remote curator states where the text goes and the most calls it may spend', async () => {
    const h = anthropic();
    expect(h.sweeper.planAll()).toMatchObject({ projects: 1, curator: 'anthropic', model: 'claude-haiku-4-5', dataBoundary: 'remote', maxModelCalls: 12 });
    await updateState(projectPaths(h.home, h.fixture.project.slug).state, (state) => ({ ...state, watermark: Number.MAX_SAFE_INTEGER }));
    expect(h.sweeper.planAll().projects).toBe(0);
  });
});
