import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Core } from '../../../core/core.js';
import { saveCuratorChoice } from '../../../core/sweeper/settings.js';
import { tempHome as coreHome } from '../../support/home.js';
import { claudeLine, writeJsonl } from '../../support/transcripts.js';
import { projectPaths } from '../../../core/sweeper/index.js';
import { readState } from '../../../core/sweeper/state.js';
import { SweeperFailure } from '../../../core/sweeper/sweeper.js';
import { anthropicError, anthropicMessage, FakeModelServer } from './fake-models.js';
import { harness, tempHome, type Harness } from './helpers.js';

/** How the sweeper recovers from failures: retries, a change of curator, stale pauses, unspent calls. */
const REPLY = '<<<OVERVIEW>>>\n# garden-planner\n\nState.\n<<<CHANGELOG>>>\nAdded the frost-date lookup\n<<<CLAUDE>>>\nNOCHANGE\n';
const ok = () => anthropicMessage(REPLY, 'stop_sequence');
const down = () => anthropicError(500, 'api_error', 'Internal error');
const MINUTE = 60_000;

let fake: FakeModelServer;
/** A loopback port nothing listens on: every connection to it is refused before a request is sent. */
let refusing: string;
const homes: Array<() => void> = [];
const sweepers: Harness[] = [];

beforeAll(async () => {
  fake = await new FakeModelServer().start();
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  refusing = `http://127.0.0.1:${port}`;
});
afterAll(() => fake.stop());
afterEach(async () => {
  for (const h of sweepers.splice(0)) await h.sweeper.stop();
  fake.requests.length = 0;
  homes.splice(0).forEach((c) => c());
});

function home(): string {
  const dir = tempHome();
  homes.push(dir.cleanup);
  return dir.dir;
}

function open(dir: string, extra: Parameters<typeof harness>[1] = {}): Harness & { home: string } {
  const h = harness(dir, extra);
  sweepers.push(h);
  return { home: dir, ...h };
}

const anthropic = (dir: string, extra: Parameters<typeof harness>[1] = {}) => open(dir, { curator: 'anthropic', anthropicBaseUrl: fake.url, ...extra });

function state(h: Harness & { home: string }) {
  return readState(projectPaths(h.home, h.fixture.project.slug).state);
}

async function failure(promise: Promise<unknown>): Promise<SweeperFailure> {
  const error = await promise.then(() => null, (e: unknown) => e);
  expect(error).toBeInstanceOf(SweeperFailure);
  return error as SweeperFailure;
}

describe('a failed scheduled sweep is tried again', () => {
  it('runs again when its backoff ends, with no new turn, and stop cancels the retry', async () => {
    fake.script(down(), down(), down(), ok());
    const h = anthropic(home(), { schedule: true });
    const key = h.fixture.project.projectKey;
    const settle = () => h.sweeper.whenIdle();
    h.sweeper.enqueue([key]);
    await h.clock.advance(30_000, settle);
    expect(fake.requests).toHaveLength(3);
    expect(state(h)).toMatchObject({ lastOutcome: 'failed', consecutiveFailures: 1 });
    // One timer, at the backoff's end: no busy loop meanwhile.
    expect(h.sweeper.pendingKeys()).toEqual([key]);
    expect([...h.clock.timers.values()].map((t) => t.at)).toEqual([state(h).nextAttemptAt]);
    await h.clock.advance(5 * MINUTE, settle);
    expect(fake.requests).toHaveLength(4);
    expect(state(h)).toMatchObject({ lastOutcome: 'ok', consecutiveFailures: 0 });
    expect(h.sweeper.pendingKeys()).toEqual([]);
  });

  it('keeps trying at the growing backoff, and nothing is armed once stopped', async () => {
    fake.script(down());
    const h = anthropic(home(), { schedule: true });
    const key = h.fixture.project.projectKey;
    const settle = () => h.sweeper.whenIdle();
    h.sweeper.enqueue([key]);
    await h.clock.advance(30_000 + 5 * MINUTE + 10 * MINUTE, settle);
    expect(state(h).consecutiveFailures).toBe(3);
    expect(fake.requests).toHaveLength(9);
    await h.sweeper.stop();
    expect(h.sweeper.pendingKeys()).toEqual([]);
    expect(h.clock.timers.size).toBe(0);
  });

  it('a paused curator is not retried on a timer: it waits for the person', async () => {
    fake.script(anthropicError(402, 'billing_error', 'Payment required'));
    const h = anthropic(home(), { schedule: true });
    h.sweeper.enqueue([h.fixture.project.projectKey]);
    await h.clock.advance(24 * 60 * MINUTE, () => h.sweeper.whenIdle());
    expect(fake.requests).toHaveLength(1);
    expect(h.sweeper.pendingKeys()).toEqual([]);
    // The person's answer (a new key, billing fixed) lifts the pause: the project is swept soon, its backoff spent.
    fake.script(ok());
    h.sweeper.liftPause('anthropic');
    await h.clock.advance(30_000, () => h.sweeper.whenIdle());
    expect(fake.requests).toHaveLength(2);
    expect(state(h)).toMatchObject({ lastOutcome: 'ok' });
  });
});

describe('a backoff belongs to the curator that earned it', () => {
  it('switching from a failing remote curator to offline sweeps at once, and counts failures afresh', async () => {
    fake.script(down());
    const h = anthropic(home());
    const key = h.fixture.project.projectKey;
    await failure(h.sweeper.run(key, { force: true }));
    await failure(h.sweeper.run(key, { force: true }));
    expect(state(h)).toMatchObject({ consecutiveFailures: 2, lastMode: 'anthropic' });
    await expect(h.sweeper.run(key)).resolves.toMatchObject({ outcome: 'skipped', reason: 'backoff' });
    h.sweeper.updateSettings({ ...h.sweeper.settings, curator: 'offline' });
    await expect(h.sweeper.run(key)).resolves.toMatchObject({ outcome: 'ok', mode: 'offline' });
    expect(state(h)).toMatchObject({ consecutiveFailures: 0, nextAttemptAt: null, lastMode: 'offline' });
  });

  it("a different curator's first failure starts its own backoff at the floor", async () => {
    fake.script(down());
    const h = anthropic(home());
    const key = h.fixture.project.projectKey;
    for (let i = 0; i < 3; i += 1) await failure(h.sweeper.run(key, { force: true }));
    expect(state(h).consecutiveFailures).toBe(3);
    h.sweeper.updateSettings({ ...h.sweeper.settings, curator: 'openai-compatible', baseUrl: `${fake.url}/v1`, model: 'llama3.2' });
    await failure(h.sweeper.run(key));
    expect(state(h)).toMatchObject({ consecutiveFailures: 1, lastMode: 'openai-compatible', nextAttemptAt: h.clock.now() + 5 * MINUTE });
  });

  it('a scheduling owner sweeps a failed project soon after the curator changes, live or after a restart', async () => {
    fake.script(down());
    const dir = home();
    const h = anthropic(dir, { schedule: true });
    const key = h.fixture.project.projectKey;
    for (let i = 0; i < 4; i += 1) await failure(h.sweeper.run(key, { force: true }));
    h.sweeper.updateSettings({ ...h.sweeper.settings, curator: 'offline' }, { liftPauses: false });
    await h.clock.advance(30_000, () => h.sweeper.whenIdle());
    expect(state(h)).toMatchObject({ lastOutcome: 'ok', lastMode: 'offline' });

    fake.script(down());
    const other = anthropic(home(), { schedule: true });
    for (let i = 0; i < 4; i += 1) await failure(other.sweeper.run(key, { force: true }));
    await other.sweeper.stop();
    const restarted = open(other.home, { schedule: true, curator: 'offline' });
    await restarted.clock.advance(30_000, () => restarted.sweeper.whenIdle());
    expect(state(restarted)).toMatchObject({ lastOutcome: 'ok', lastMode: 'offline' });
  });

  it('a restarted owner retries a failed project of the same curator when its backoff ends', async () => {
    fake.script(down());
    const h = anthropic(home());
    const key = h.fixture.project.projectKey;
    await failure(h.sweeper.run(key, { force: true }));
    await h.sweeper.stop();
    fake.script(ok());
    const restarted = anthropic(h.home, { schedule: true });
    await restarted.clock.advance(4 * MINUTE, () => restarted.sweeper.whenIdle());
    expect(fake.requests).toHaveLength(3);
    await restarted.clock.advance(MINUTE, () => restarted.sweeper.whenIdle());
    expect(fake.requests).toHaveLength(4);
    expect(state(restarted)).toMatchObject({ lastOutcome: 'ok' });
  });
});

describe('a backoff belongs to the endpoint that earned it', () => {
  const wrong = (dir: string, extra: Parameters<typeof harness>[1] = {}) => open(dir, { curator: 'anthropic', anthropicBaseUrl: refusing, ...extra });
  const stateText = (h: Harness & { home: string }) => readFileSync(projectPaths(h.home, h.fixture.project.slug).state, 'utf8');

  it('a fixed base URL is swept soon after failures against a wrong one, and the file never holds the URL', async () => {
    fake.script(ok());
    const h = wrong(home(), { schedule: true });
    const key = h.fixture.project.projectKey;
    for (let i = 0; i < 4; i += 1) await failure(h.sweeper.run(key, { force: true }));
    expect(state(h)).toMatchObject({ lastOutcome: 'failed', consecutiveFailures: 4, lastError: { code: 'connection' } });
    expect(stateText(h)).not.toContain(refusing);
    // Nor the endpoint's address in the words: the status says what failed, not where.
    expect(stateText(h)).not.toContain(new URL(refusing).host);
    expect(state(h).lastError?.message).toBe('The model endpoint could not be reached');
    // A config edit applied live (no pause lifted): the new endpoint owes nothing to the old one's 40 minutes.
    h.sweeper.updateSettings({ ...h.sweeper.settings, anthropicBaseUrl: fake.url }, { liftPauses: false });
    await h.clock.advance(30_000, () => h.sweeper.whenIdle());
    expect(fake.requests).toHaveLength(1);
    expect(state(h)).toMatchObject({ lastOutcome: 'ok', consecutiveFailures: 0, nextAttemptAt: null });
    expect(stateText(h)).not.toContain(fake.url);
  });

  it('an unforced run and a restarted owner are not held either, and the new endpoint counts failures afresh', async () => {
    const h = wrong(home());
    const key = h.fixture.project.projectKey;
    for (let i = 0; i < 3; i += 1) await failure(h.sweeper.run(key, { force: true }));
    await expect(h.sweeper.run(key)).resolves.toMatchObject({ outcome: 'skipped', reason: 'backoff' });
    h.sweeper.updateSettings({ ...h.sweeper.settings, anthropicBaseUrl: 'http://127.0.0.1:9' }, { liftPauses: false });
    await failure(h.sweeper.run(key));
    expect(state(h)).toMatchObject({ consecutiveFailures: 1, nextAttemptAt: h.clock.now() + 5 * MINUTE });
    await h.sweeper.stop();
    fake.script(ok());
    const restarted = anthropic(h.home, { schedule: true });
    await restarted.clock.advance(30_000, () => restarted.sweeper.whenIdle());
    expect(fake.requests).toHaveLength(1);
    expect(state(restarted)).toMatchObject({ lastOutcome: 'ok' });
  });

  it('the same endpoint keeps its backoff, and a state written before endpoints were recorded keeps today’s hold', async () => {
    const h = wrong(home());
    const key = h.fixture.project.projectKey;
    await failure(h.sweeper.run(key, { force: true }));
    h.sweeper.updateSettings({ ...h.sweeper.settings, timeoutMs: 6_000 }, { liftPauses: false });
    await expect(h.sweeper.run(key)).resolves.toMatchObject({ outcome: 'skipped', reason: 'backoff' });
    await h.sweeper.stop();
    const file = projectPaths(h.home, h.fixture.project.slug).state;
    const { lastEndpoint: _endpoint, ...old } = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    writeFileSync(file, JSON.stringify(old));
    const later = anthropic(h.home);
    await expect(later.sweeper.run(key)).resolves.toMatchObject({ outcome: 'skipped', reason: 'backoff' });
  });
});

describe('only the configured curator’s pause is shown, and a stale one is lifted', () => {
  it('an Anthropic pause for a missing key is not shown once the curator is offline, live or after a restart', async () => {
    const dir = home();
    const h = anthropic(dir, { env: { ANTHROPIC_API_KEY: '' } });
    const paused = await failure(h.sweeper.run(h.fixture.project.projectKey));
    expect(paused.code).toBe('curator_paused');
    expect(h.sweeper.pauses()).toMatchObject([{ curator: 'anthropic', reason: 'auth' }]);
    // A config edit applied live does not lift pauses; the offline curator still has none.
    h.sweeper.updateSettings({ ...h.sweeper.settings, curator: 'offline' }, { liftPauses: false });
    expect(h.sweeper.pauses()).toEqual([]);
    expect(h.sweeper.pauseOf('offline')).toBeNull();
    await h.sweeper.stop();
    expect(open(dir, { curator: 'offline' }).sweeper.pauses()).toEqual([]);
  });

  it('a headless owner is told to set the variable, never to store a key in Settings', async () => {
    const h = anthropic(home(), { env: { ANTHROPIC_API_KEY: '' } });
    const paused = await failure(h.sweeper.run(h.fixture.project.projectKey));
    expect(paused.message).toMatch(/ANTHROPIC_API_KEY/);
    expect(paused.message).not.toMatch(/Settings/);
    expect(fake.requests).toHaveLength(0);
  });

  it('a pause for a missing key is lifted once a key is available (a restart with the variable set)', async () => {
    fake.script(ok());
    const dir = home();
    const h = anthropic(dir, { env: { ANTHROPIC_API_KEY: '' } });
    await failure(h.sweeper.run(h.fixture.project.projectKey));
    await h.sweeper.stop();
    const restarted = anthropic(dir);
    expect(restarted.sweeper.pauses()).toEqual([]);
    await expect(restarted.sweeper.run(h.fixture.project.projectKey)).resolves.toMatchObject({ outcome: 'ok' });
  });

  it('a rejected key keeps its pause across a restart, but a later failure that is not about the key lifts it', async () => {
    fake.script(anthropicError(401, 'authentication_error', 'invalid x-api-key'), down());
    const dir = home();
    const h = anthropic(dir);
    const key = h.fixture.project.projectKey;
    await failure(h.sweeper.run(key));
    await h.sweeper.stop();
    const restarted = anthropic(dir);
    expect(restarted.sweeper.pauses()).toMatchObject([{ reason: 'auth' }]);
    const later = await failure(restarted.sweeper.run(key, { force: true }));
    expect(later.code).toBe('sweep_failed');
    expect(restarted.sweeper.pauses()).toEqual([]);
  });
});

describe('the daily budget counts only calls that reached a model', () => {
  it('a refused connection spends nothing, however often it is tried', async () => {
    const h = open(home(), { curator: 'anthropic', anthropicBaseUrl: refusing });
    const key = h.fixture.project.projectKey;
    const first = await failure(h.sweeper.run(key, { force: true }));
    expect(first.message).toMatch(/could not be reached/);
    await failure(h.sweeper.run(key, { force: true }));
    expect(h.sweeper.budget().usedToday).toBe(0);
    expect(state(h).lastError).toMatchObject({ code: 'connection' });
  });

  it('a blocked port (the repro used 127.0.0.1:9) spends nothing either', async () => {
    const h = open(home(), { curator: 'openai-compatible', baseUrl: 'http://127.0.0.1:9/v1', model: 'llama3.2' });
    await failure(h.sweeper.run(h.fixture.project.projectKey, { force: true }));
    expect(h.sweeper.budget().usedToday).toBe(0);
  });

  it('a server that answers with an error still spends every request it answered', async () => {
    fake.script(down());
    const h = anthropic(home());
    await failure(h.sweeper.run(h.fixture.project.projectKey, { force: true }));
    expect(h.sweeper.budget().usedToday).toBe(3);
  });
});

describe('the walk as a new user, through the owner (headless, no key)', () => {
  it('a refusing endpoint, then the offline curator chosen in config.json and a restart: no stale pause, no backoff', async () => {
    const dir = coreHome('steward-sweeper-walk-');
    homes.push(dir.cleanup);
    const root = join(dir.dir, 'roots', 'claude');
    const cwd = join(dir.dir, 'work', 'garden');
    mkdirSync(cwd, { recursive: true });
    const base = Date.now() - 60_000;
    writeJsonl(join(root, 'projects', '-work-garden', 'sess-1.jsonl'), [
      claudeLine({ sessionId: 'sess-1', cwd, ts: new Date(base), text: 'Add a watering schedule' }),
      claudeLine({ sessionId: 'sess-1', cwd, ts: new Date(base + 1_000), type: 'assistant', text: 'Added it.' }),
    ]);
    const env = { ...dir.env, STEWARD_CLAUDE_ROOTS: root };
    const first = Core.open({ home: { dir: dir.dir, kind: 'env' }, env });
    let second: Core | undefined;
    try {
      await first.call('Backfill.Run', {});
      await first.call('Settings.SetCurator', { curator: 'anthropic', anthropicBaseUrl: refusing });
      const { projectKey } = (await first.call('Projects.List', {})).projects[0]!;
      const paused = await first.call('Sweeper.Run', { projectKey }).catch((e: unknown) => e);
      expect(paused).toMatchObject({ code: 'curator_paused', message: expect.stringMatching(/set ANTHROPIC_API_KEY in the environment/) });
      expect((paused as Error).message).not.toMatch(/Settings/);
      expect((await first.call('Settings.Get', {})).sweeper.budget.usedToday).toBe(0);
      await first.shutdown();
      saveCuratorChoice(dir.dir, env, { curator: 'offline' });
      second = Core.open({ home: { dir: dir.dir, kind: 'env' }, env });
      expect(second.status.attention).toEqual([]);
      expect((await second.call('Settings.Get', {})).sweeper.paused).toEqual([]);
      await expect(second.call('Sweeper.Run', { projectKey })).resolves.toMatchObject({ outcome: 'ok', mode: 'offline' });
    } finally {
      await first.shutdown();
      await second?.shutdown();
    }
  });
});
