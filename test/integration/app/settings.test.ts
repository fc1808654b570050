import { existsSync, mkdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { StewardError } from '../../../core/api/index.js';
import { Core } from '../../../core/core.js';
import { createMemoryLogger } from '../../../core/log/index.js';
import { tempHome, type TempHome } from '../../support/home.js';
import { claudeLine, claudeSession, writeJsonl } from '../../support/transcripts.js';
import { FakeModelServer } from '../sweeper/fake-models.js';

/** The desktop experience's core half: settings a person changes, the roots watched, the listing, the home's figures. */
let home: TempHome;
const cores: Core[] = [];
const servers: FakeModelServer[] = [];

afterEach(async () => {
  for (const core of cores.splice(0)) await core.shutdown();
  for (const server of servers.splice(0)) await server.stop();
  home?.cleanup();
});

function open(env: NodeJS.ProcessEnv = home.env, logger = createMemoryLogger()): Core {
  const core = Core.open({ home: { dir: home.dir, kind: 'env' }, env, logger });
  cores.push(core);
  return core;
}

async function refusal(call: Promise<unknown>): Promise<StewardError> {
  try {
    await call;
  } catch (error) {
    if (error instanceof StewardError) return error;
    throw error;
  }
  throw new Error('expected a StewardError');
}

describe('Settings.Config and Settings.Update', () => {
  it('saves through the one writer, says what applies now and what at the next start, and shows the real paths', async () => {
    home = tempHome('steward-settings-');
    const logger = createMemoryLogger();
    const core = open(home.env, logger);
    const before = await core.call('Settings.Config', {});
    expect(before.paths).toEqual({ home: home.dir, config: join(home.dir, 'config.json'), logs: join(home.dir, 'logs'), notes: join(home.dir, 'projects') });
    expect(before.saved).toEqual(before.running);
    expect(before.saved).toMatchObject({ retentionDays: 365, sweepIntervalMs: 300_000, logLevel: 'info', providers: { claude: { enabled: true } } });
    // Every root variable is set (empty) in tests: the panel is told the environment decides them.
    expect(before.environment).toContainEqual({ key: 'providers.claude.roots', env: 'STEWARD_CLAUDE_ROOTS' });

    const reply = await core.call('Settings.Update', { changes: { 'sweep.interval_ms': 120_000, 'sweeper.ignore': ['/work/scratch/**'], 'log.level': 'warn', 'providers.gemini.enabled': false } });
    expect(reply.appliedNow.sort()).toEqual(['log.level', 'sweep.interval_ms', 'sweeper.ignore']);
    expect(reply.atNextStart.sort()).toEqual(['providers.gemini.enabled']);
    expect(reply.config.saved).toMatchObject({ sweepIntervalMs: 120_000, sweeperIgnore: ['/work/scratch/**'], logLevel: 'warn', providers: { gemini: { enabled: false } } });
    expect(reply.config.running).toMatchObject({ sweepIntervalMs: 120_000, sweeperIgnore: ['/work/scratch/**'], logLevel: 'warn', providers: { gemini: { enabled: true } } });
    expect(JSON.parse(readFileSync(join(home.dir, 'config.json'), 'utf8'))).toEqual({ sweep: { interval_ms: 120_000 }, sweeper: { ignore: ['/work/scratch/**'] }, log: { level: 'warn' }, providers: { gemini: { enabled: false } } });

    // The log level took effect at once: an info line is no longer written, a warning is.
    const lines = logger.lines.length;
    core.logger.info('after the change');
    core.logger.warn('still written');
    expect(logger.lines.slice(lines)).toEqual(['warn still written']);
  });

  it('refuses a wrong value with the field it belongs to, and a key the panel does not change', async () => {
    home = tempHome('steward-settings-');
    const core = open();
    const error = await refusal(core.call('Settings.Update', { changes: { 'query.cache.retention.default_days': 99_999 } }));
    expect(error.code).toBe('config_invalid');
    expect(error.details?.fields).toEqual({ 'query.cache.retention.default_days': { message: 'must be at most 36500', maximum: 36_500 } });
    expect(existsSync(join(home.dir, 'config.json'))).toBe(false);
    expect((await refusal(core.call('Settings.Update', { changes: { 'server.port': 1 } } as never))).code).toBe('invalid_params');
  });
});

describe('Providers.Roots and Providers.Survey', () => {
  it('lists each kind of root with where it came from and whether it exists; the saved roots wait for the next start', async () => {
    home = tempHome('steward-roots-');
    const claude = join(home.dir, 'roots', 'claude');
    mkdirSync(claude, { recursive: true });
    const missing = join(home.dir, 'roots', 'nowhere');
    const env: NodeJS.ProcessEnv = { ...home.env, STEWARD_CLAUDE_ROOTS: `${claude}:${missing}` };
    delete env.STEWARD_CODEX_ROOTS;
    mkdirSync(join(home.dir, 'fake-user-home', '.codex'), { recursive: true });
    const core = open(env);
    await core.call('Settings.Update', { changes: { 'providers.openclaw.roots': ['/srv/openclaw'] } });
    const { providers } = await core.call('Providers.Roots', {});
    expect(providers.map((p) => p.provider)).toEqual(['claude', 'openclaw', 'codex', 'gemini']);
    const [code, desktop] = providers[0]!.roots;
    expect(code).toMatchObject({ key: 'roots', label: 'Claude Code', source: 'environment', watched: [{ path: claude, exists: true }, { path: missing, exists: false }] });
    expect(desktop).toMatchObject({ key: 'desktop_roots', source: 'environment', watched: [] });
    // No variable for Codex: the default location is found and watched.
    expect(providers[2]!.roots[0]).toMatchObject({ source: 'default', watched: [{ path: join(home.dir, 'fake-user-home', '.codex'), exists: true }] });
    expect(providers[1]!.roots[0]).toMatchObject({ source: 'environment', configured: ['/srv/openclaw'] });
  });

  it('summarises the listing without opening a transcript: files, size, dates, and what lies before the window', async () => {
    home = tempHome('steward-survey-');
    const claude = join(home.dir, 'roots', 'claude');
    const recent = claudeSession(claude, 'recent', 4, { cwd: '/work/orchard' });
    const old = join(claude, 'projects', '-work-old', 'old.jsonl');
    const oldAt = new Date(Date.now() - 400 * 86_400_000);
    writeJsonl(old, [claudeLine({ sessionId: 'old', cwd: '/work/old', ts: oldAt })]);
    utimesSync(old, oldAt, oldAt);
    // A file nobody could parse still counts: the listing never reads what is inside.
    const garbage = join(claude, 'projects', '-work-old', 'garbage.jsonl');
    writeFileSync(garbage, 'not json at all\n');
    utimesSync(garbage, oldAt, oldAt);
    const core = open({ ...home.env, STEWARD_CLAUDE_ROOTS: claude });
    const survey = await core.call('Providers.Survey', {});
    const sizes = [recent, old, garbage].map((f) => readFileSync(f).length);
    expect(survey.providers[0]).toEqual({
      provider: 'claude',
      files: 3,
      bytes: sizes[0]! + sizes[1]! + sizes[2]!,
      oldestAt: expect.any(Number),
      newestAt: expect.any(Number),
      windowDays: 365,
      windowFrom: 'default',
      cleanUpDays: 0,
      older: { files: 2, bytes: sizes[1]! + sizes[2]!, imported: { files: 0, bytes: 0 } },
      olderMessages: 0,
      olderUncounted: 0,
      failed: 0,
    });
    expect(Math.abs(survey.providers[0]!.oldestAt! - oldAt.getTime())).toBeLessThan(1_000);
    expect(survey.providers.map((p) => p.provider)).toEqual(['claude', 'openclaw', 'codex', 'gemini']);
    // Listing imported nothing.
    expect((await core.call('Cache.Stats', {})).conversations).toBe(0);
  });
});

describe('the home figures: Cache.Stats and Sweep.Status', () => {
  it('counts conversations, messages and projects, the disk they take, and when the folders were and will be checked', async () => {
    home = tempHome('steward-stats-');
    const claude = join(home.dir, 'roots', 'claude');
    claudeSession(claude, 'one', 4, { cwd: '/work/orchard' });
    claudeSession(claude, 'two', 2, { cwd: '/work/meadow' });
    const core = open({ ...home.env, STEWARD_CLAUDE_ROOTS: claude });
    expect((await core.call('Sweep.Status', {})).scheduled).toBe(false);
    await core.call('Sweep.Tick', {});
    const stats = await core.call('Cache.Stats', {});
    expect(stats).toMatchObject({ conversations: 2, messages: 6, projects: 2 });
    expect(stats.bytes.gateway).toBeGreaterThan(0);
    expect(stats.bytes.home).toBeGreaterThanOrEqual(stats.bytes.gateway);
    const status = await core.call('Sweep.Status', {});
    expect(status.lastTickAt).toBeGreaterThan(Date.now() - 10_000);

    const scheduled = open({ ...home.env, STEWARD_HOME: join(home.dir, 'second'), STEWARD_CLAUDE_ROOTS: claude });
    scheduled.capture.start(() => false);
    const next = await scheduled.call('Sweep.Status', {});
    expect(next.scheduled).toBe(true);
    expect(next.nextTickAt! - Date.now()).toBeGreaterThan(290_000);
    expect(next.nextTickAt! - Date.now()).toBeLessThanOrEqual(300_000);
    scheduled.capture.start(() => true);
  });
});

describe('telemetry of unchanged ticks', () => {
  it('records an unchanged tick as one compact row (files checked, nothing new, how long); a tick that read stays whole', async () => {
    home = tempHome('steward-ticks-');
    const claude = join(home.dir, 'roots', 'claude');
    for (let i = 0; i < 2; i += 1) claudeSession(claude, `s-${i}`, 4, { cwd: '/work/orchard' });
    // One message of two parts (its text and a tool call): messages are counted, not parts.
    writeJsonl(join(claude, 'projects', '-work-orchard', 's-2.jsonl'), [
      claudeLine({ sessionId: 's-2', cwd: '/work/orchard', text: 'Run the tests' }),
      claudeLine({ sessionId: 's-2', cwd: '/work/orchard', type: 'assistant', content: [{ type: 'text', text: 'Running them.' }, { type: 'tool_use', id: 'tu_1', name: 'Bash', input: { command: 'npm test' } }] }),
    ]);
    const core = open({ ...home.env, STEWARD_CLAUDE_ROOTS: claude });
    await core.call('Sweep.Tick', {});
    await core.call('Sweep.Tick', {});
    const [unchanged, read] = (await core.call('Telemetry.Recent', { kind: 'sweep.tick' })).entries;
    expect(unchanged!.data).toEqual({
      kind: 'scheduled',
      // Sweep.Tick is a check asked for by hand (Check now), and its row says so.
      trigger: 'hand',
      unchanged: true,
      files: 3,
      durationMs: expect.any(Number),
      providers: [{ provider: 'claude', discovered: 3, read: 0, unchanged: 3, failed: 0, partsWritten: 0, durationMs: expect.any(Number) }],
    });
    expect(read!.data).toMatchObject({ kind: 'scheduled', providers: expect.arrayContaining([expect.objectContaining({ provider: 'claude', read: 3, failedLines: 0, partsWritten: 11, messagesWritten: 10 })]) });
    expect((read!.data as { providers: unknown[] }).providers).toHaveLength(4);
    expect(JSON.stringify(unchanged!.data).length).toBeLessThan(JSON.stringify(read!.data).length / 2);
  });
});

describe('the curator: tested before it is saved, and every failure names the host', () => {
  it('says which host answered and whether it serves the model; an unreachable endpoint is named', async () => {
    home = tempHome('steward-curator-test-');
    const server = await new FakeModelServer().start();
    servers.push(server);
    server.script((request) => (request.url.endsWith('/models') ? { body: { object: 'list', data: [{ id: 'llama3.2', object: 'model', created: 1, owned_by: 'me' }] } } : { status: 404 }));
    const core = open();
    const host = new URL(server.url).host;
    expect(await core.call('Settings.TestCurator', { curator: 'openai-compatible', model: 'llama3.2', baseUrl: `${server.url}/v1` })).toEqual({ ok: true, host, modelListed: true, message: `${host} answered and serves llama3.2.` });
    const wrong = await core.call('Settings.TestCurator', { curator: 'openai-compatible', model: 'claude-haiku-4-5', baseUrl: `${server.url}/v1` });
    expect(wrong).toMatchObject({ ok: false, host, modelListed: false });
    expect(wrong.message).toBe(`${host} answered, but does not list the model claude-haiku-4-5; it lists llama3.2.`);
    const unreachable = await core.call('Settings.TestCurator', { curator: 'openai-compatible', model: 'llama3.2', baseUrl: 'http://127.0.0.1:9/v1' });
    expect(unreachable).toMatchObject({ ok: false, host: '127.0.0.1:9', message: 'The model endpoint at 127.0.0.1:9 could not be reached.' });
    expect(await core.call('Settings.TestCurator', { curator: 'anthropic', anthropicBaseUrl: `${server.url}/` })).toMatchObject({ ok: false, host, message: expect.stringContaining(`No Anthropic API key is available for ${host}`) });
    expect(server.requests.every((r) => r.method === 'GET' && r.body === '')).toBe(true);
  });

  it('a sweep that fails at the endpoint says which host it tried, and its status keeps no address', async () => {
    home = tempHome('steward-curator-host-');
    const server = await new FakeModelServer().start();
    servers.push(server);
    server.script({ status: 500, body: { error: { message: 'boom', type: 'server_error' } } });
    const claude = join(home.dir, 'roots', 'claude');
    claudeSession(claude, 'sess', 4, { cwd: join(home.dir, 'work', 'orchard') });
    const core = open({ ...home.env, STEWARD_CLAUDE_ROOTS: claude });
    await core.call('Settings.SetCurator', { curator: 'openai-compatible', model: 'llama3.2', baseUrl: `${server.url}/v1` });
    await core.call('Sweep.Tick', {});
    const [project] = (await core.call('Projects.List', {})).projects;
    const error = await refusal(core.call('Sweeper.Run', { projectKey: project!.projectKey, force: true }));
    expect(error.message).toBe(`The model endpoint at ${new URL(server.url).host} answered HTTP 500`);
    const detail = await core.call('Projects.Get', { projectKey: project!.projectKey });
    // The answer to the person who asked names the host; the project's status never does.
    expect(detail.state.lastError).toEqual({ code: 'http', message: 'The model endpoint answered HTTP 500' });
    expect(detail.notesPath).toBe(join(home.dir, 'projects', detail.slug));
  });
});

describe('the first-run mark and scratch projects', () => {
  it('keeps the first-run mark in STEWARD_HOME across owners, and lists scratch projects by name', async () => {
    home = tempHome('steward-first-run-');
    const claude = join(home.dir, 'roots', 'claude');
    claudeSession(claude, 'sess', 2, { cwd: '/work/scribbles' });
    const env = { ...home.env, STEWARD_CLAUDE_ROOTS: claude };
    let core = open(env);
    expect(await core.call('App.FirstRun', {})).toEqual({ done: false, doneAt: null });
    expect((await core.call('App.SetFirstRunDone', { done: true })).done).toBe(true);
    await core.call('Sweep.Tick', {});
    const [project] = (await core.call('Projects.List', {})).projects;
    expect((await core.call('Projects.Scratch', {})).projects).toEqual([]);
    await core.call('Projects.SetScratch', { projectKey: project!.projectKey, scratch: true });
    expect((await core.call('Projects.Scratch', {})).projects).toEqual([{ projectKey: project!.projectKey, name: 'scribbles' }]);
    await cores.pop()!.shutdown();
    core = open(env);
    expect(await core.call('App.FirstRun', {})).toMatchObject({ done: true, doneAt: expect.any(Number) });
  });
});
