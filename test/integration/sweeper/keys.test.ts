import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Core } from '../../../core/core.js';
import { StewardError } from '../../../core/api/index.js';
import type { RemoteCurator } from '../../../core/api/index.js';
import type { KeyStore, KeyStoreStatus } from '../../../core/secrets/index.js';
import { tempHome, type TempHome } from '../../support/home.js';
import { claudeLine, writeJsonl } from '../../support/transcripts.js';
import { anthropicError, anthropicMessage, FakeModelServer } from './fake-models.js';

/** API keys for remote curators: Settings.SetApiKey → key store → the curator's request, and nowhere else. */
const KEY = 'sk-ant-api03-kept-in-the-keychain-0123456789abcdef';
const ENV_KEY = 'sk-ant-api03-from-the-environment-fedcba9876543210';

/** A real, in-memory KeyStore (the desktop app's is keychain-backed); `failWith` makes set() throw. */
class MemoryKeyStore implements KeyStore {
  readonly kind = 'keychain' as const;
  readonly keys = new Map<RemoteCurator, string>();
  failWith: ((key: string | null) => Error) | undefined;

  status(): KeyStoreStatus {
    return { writable: true, message: null };
  }
  get(curator: RemoteCurator): string | undefined {
    return this.keys.get(curator);
  }
  set(curator: RemoteCurator, key: string | null): Promise<void> {
    if (this.failWith) return Promise.reject(this.failWith(key));
    if (key === null) this.keys.delete(curator);
    else this.keys.set(curator, key);
    return Promise.resolve();
  }
}

const REPLY = `<<<OVERVIEW>>>
# garden

A garden planner.
<<<CHANGELOG>>>
Added a watering schedule.
<<<CLAUDE>>>
NOCHANGE
`;

let fake: FakeModelServer;
let home: TempHome;
let root: string;
const cores: Core[] = [];

beforeAll(async () => {
  fake = await new FakeModelServer().start();
});
afterAll(() => fake.stop());

beforeEach(() => {
  home = tempHome('steward-sweeper-keys-');
  root = join(home.dir, 'roots', 'claude');
  const cwd = join(home.dir, 'work', 'garden');
  mkdirSync(cwd, { recursive: true });
  const base = Date.parse('2026-11-29T09:00:00Z');
  writeJsonl(join(root, 'projects', '-work-garden', 'sess-1.jsonl'), [
    claudeLine({ sessionId: 'sess-1', cwd, ts: new Date(base), text: 'Add a watering schedule to the garden planner' }),
    claudeLine({ sessionId: 'sess-1', cwd, ts: new Date(base + 1_000), type: 'assistant', text: 'Added the schedule module.' }),
  ]);
  fake.requests.length = 0;
  fake.script(anthropicMessage(REPLY, 'stop_sequence'));
});

afterEach(async () => {
  for (const core of cores.splice(0)) await core.shutdown();
  home.cleanup();
});

function open(env: NodeJS.ProcessEnv, keyStore?: KeyStore): Core {
  const core = Core.open({ home: { dir: home.dir, kind: 'env' }, env: { ...home.env, STEWARD_CLAUDE_ROOTS: root, ...env }, ...(keyStore ? { keyStore } : {}) });
  cores.push(core);
  return core;
}

/** Captures the fixture and selects the Anthropic curator against the loopback fake. */
async function anthropicProject(core: Core): Promise<string> {
  await core.call('Backfill.Run', {});
  await core.call('Settings.SetCurator', { curator: 'anthropic', anthropicBaseUrl: fake.url });
  const { projects } = await core.call('Projects.List', {});
  return projects[0]!.projectKey;
}

/**
 * The key a request carried. The Anthropic SDK 0.x sent `x-api-key`; 1.x sends `authorization: Bearer`
 * (to the same API): either counts, nothing else does.
 */
function sentKey(index: number): string | undefined {
  const headers = fake.requests.at(index)?.headers ?? {};
  const apiKey = headers['x-api-key'];
  if (typeof apiKey === 'string') return apiKey;
  const bearer = /^Bearer (.+)$/.exec(String(headers.authorization ?? ''));
  return bearer?.[1];
}

/** Everything the owner wrote or handed out that a key must never reach. */
function persisted(): string {
  const files = [join(home.dir, 'config.json'), ...readdirSync(join(home.dir, 'logs')).map((name) => join(home.dir, 'logs', name))];
  const projects = join(home.dir, 'projects');
  if (existsSync(projects)) for (const slug of readdirSync(projects)) files.push(...readdirSync(join(projects, slug)).map((name) => join(projects, slug, name)));
  return files.map((file) => readFileSync(file, 'utf8')).join('\n');
}

describe('Settings.SetApiKey with a writable key store (the desktop app)', () => {
  it('the stored key is the one the Anthropic curator sends, and it appears nowhere else', async () => {
    const store = new MemoryKeyStore();
    const core = open({ ANTHROPIC_API_KEY: ENV_KEY }, store);
    const events: string[] = [];
    core.events.subscribe((name, payload) => events.push(JSON.stringify({ name, payload })));
    const projectKey = await anthropicProject(core);

    const before = (await core.call('Settings.Get', {})).sweeper;
    expect(before.apiKeys.anthropic).toEqual({ present: true, source: 'environment', envVar: 'ANTHROPIC_API_KEY' });
    expect(before.keyStore).toEqual({ kind: 'keychain', writable: true, message: null });

    await expect(core.call('Settings.SetApiKey', { curator: 'anthropic', key: `  ${KEY}\n` })).resolves.toEqual({ stored: true, source: 'keychain' });
    expect(store.keys.get('anthropic')).toBe(KEY);
    await expect(core.call('Sweeper.Run', { projectKey })).resolves.toMatchObject({ outcome: 'ok', mode: 'anthropic', calls: 1 });
    expect(fake.requests).toHaveLength(1);
    expect(sentKey(0)).toBe(KEY);

    const settings = await core.call('Settings.Get', {});
    expect(settings.sweeper.apiKeys.anthropic).toEqual({ present: true, source: 'keychain', envVar: 'ANTHROPIC_API_KEY' });
    expect(settings.sweeper.keys).toEqual({ anthropic: true, openai: false });
    const telemetry = await core.call('Telemetry.Recent', {});
    const project = await core.call('Projects.Get', { projectKey });
    for (const shown of [JSON.stringify(settings), JSON.stringify(telemetry), JSON.stringify(project), events.join('\n'), fake.bodies, persisted()]) {
      expect(shown).not.toContain(KEY);
      expect(shown).not.toContain(ENV_KEY);
    }
    expect(events.length).toBeGreaterThan(0);
  });

  it('clearing the stored key falls back to the environment; a new key lifts an auth pause', async () => {
    const store = new MemoryKeyStore();
    const core = open({ ANTHROPIC_API_KEY: ENV_KEY }, store);
    const projectKey = await anthropicProject(core);
    fake.script(anthropicError(401, 'authentication_error', 'invalid x-api-key'));
    await expect(core.call('Sweeper.Run', { projectKey })).rejects.toMatchObject({ code: 'curator_paused' });
    expect(sentKey(-1)).toBe(ENV_KEY);
    expect((await core.call('Settings.Get', {})).sweeper.paused).toMatchObject([{ curator: 'anthropic', reason: 'auth' }]);

    await core.call('Settings.SetApiKey', { curator: 'anthropic', key: KEY });
    expect((await core.call('Settings.Get', {})).sweeper.paused).toEqual([]);
    fake.script(anthropicMessage(REPLY, 'stop_sequence'));
    await expect(core.call('Sweeper.Run', { projectKey, force: true })).resolves.toMatchObject({ outcome: 'ok' });
    expect(sentKey(-1)).toBe(KEY);

    await expect(core.call('Settings.SetApiKey', { curator: 'anthropic', key: null })).resolves.toEqual({ stored: false, source: 'environment' });
    expect(store.keys.has('anthropic')).toBe(false);
    expect((await core.call('Settings.Get', {})).sweeper.apiKeys.anthropic.source).toBe('environment');
  });

  it('rejects malformed keys as invalid_params without echoing them', async () => {
    const core = open({}, new MemoryKeyStore());
    for (const key of ['sk-ant with a space inside it', 'short', `sk-ant-${'x'.repeat(600)}`, 'sk-ant-ünïcode-key-value']) {
      const error = await core.call('Settings.SetApiKey', { curator: 'anthropic', key }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StewardError);
      expect((error as StewardError).code).toBe('invalid_params');
      expect(JSON.stringify(error)).not.toContain(key);
    }
    await expect(core.call('Settings.SetApiKey', { curator: 'offline' as never, key: KEY })).rejects.toMatchObject({ code: 'invalid_params' });
  });

  it("redacts the key from a store's own error", async () => {
    const store = new MemoryKeyStore();
    store.failWith = (key) => new StewardError('key_store_unavailable', `could not keep ${String(key)}`, { echoed: key });
    const core = open({}, store);
    const error = await core.call('Settings.SetApiKey', { curator: 'openai-compatible', key: KEY }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'key_store_unavailable', message: 'could not keep [REDACTED]' });
    expect(JSON.stringify(error)).not.toContain(KEY);
    store.failWith = (key) => new Error(`EACCES writing ${String(key)}`);
    const foreign = await core.call('Settings.SetApiKey', { curator: 'openai-compatible', key: KEY }).catch((e: unknown) => e);
    expect(foreign).toMatchObject({ code: 'internal' });
    expect(JSON.stringify(foreign)).not.toContain(KEY);
  });
});

describe('headless mode: keys come from the environment only', () => {
  it('reports the environment key as its source and the curator sends it', async () => {
    const core = open({ ANTHROPIC_API_KEY: ENV_KEY });
    const projectKey = await anthropicProject(core);
    const view = (await core.call('Settings.Get', {})).sweeper;
    expect(view.keyStore).toMatchObject({ kind: 'environment', writable: false });
    expect(view.apiKeys).toEqual({
      anthropic: { present: true, source: 'environment', envVar: 'ANTHROPIC_API_KEY' },
      'openai-compatible': { present: false, source: 'none', envVar: 'OPENAI_API_KEY' },
    });
    expect(JSON.stringify(view)).not.toContain(ENV_KEY);
    await core.call('Sweeper.Run', { projectKey });
    expect(sentKey(0)).toBe(ENV_KEY);
    expect(persisted()).not.toContain(ENV_KEY);
  });

  it('Settings.SetApiKey fails with a typed error that names the variable to set', async () => {
    const core = open({});
    for (const [curator, envVar] of [['anthropic', 'ANTHROPIC_API_KEY'], ['openai-compatible', 'OPENAI_API_KEY']] as const) {
      const error = await core.call('Settings.SetApiKey', { curator, key: KEY }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StewardError);
      expect(error).toMatchObject({ code: 'key_store_unavailable', message: expect.stringContaining(envVar) });
      expect(JSON.stringify(error)).not.toContain(KEY);
    }
    await expect(core.call('Settings.SetApiKey', { curator: 'anthropic', key: null })).rejects.toMatchObject({ code: 'key_store_unavailable' });
    expect((await core.call('Settings.Get', {})).sweeper.apiKeys.anthropic).toEqual({ present: false, source: 'none', envVar: 'ANTHROPIC_API_KEY' });
  });
});
