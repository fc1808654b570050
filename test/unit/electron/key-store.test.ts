import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Core, StewardError } from '../../../core/index.js';
import { KEYS_FILE, openSafeStorageKeyStore } from '../../../electron/key-store.js';
import { tempHome, type TempHome } from '../../support/home.js';
import { resetElectron, safeStorage } from './fake-electron.js';

vi.mock('electron', () => import('./fake-electron.js'));

const KEY = 'sk-ant-api03-keychain-secret-0123456789abcdef';
const OTHER = 'sk-proj-openai-keychain-secret-9876543210';

function fileText(home: TempHome): string {
  return readFileSync(join(home.dir, KEYS_FILE), 'utf8');
}

/** Every form in which a careless store could leak the key into its file. */
function expectNoKey(text: string, key: string): void {
  expect(text).not.toContain(key);
  expect(text).not.toContain(Buffer.from(key).toString('base64'));
  expect(text).not.toContain(Buffer.from(key).toString('hex'));
}

describe('the safeStorage key store', () => {
  let home: TempHome;

  beforeEach(() => {
    resetElectron();
    home = tempHome('steward-keys-');
  });
  afterEach(() => home.cleanup());

  const open = (platform: NodeJS.Platform = 'linux') => openSafeStorageKeyStore({ homeDir: home.dir, platform });

  it('keeps only ciphertext in keys.json, mode 0600, and reads it back after a restart', async () => {
    const store = await open();
    expect(store.kind).toBe('keychain');
    expect(store.status()).toEqual({ writable: true, message: null });
    await store.set('anthropic', KEY);
    await store.set('openai-compatible', OTHER);
    expect(store.get('anthropic')).toBe(KEY);

    const text = fileText(home);
    expectNoKey(text, KEY);
    expectNoKey(text, OTHER);
    const saved = JSON.parse(text) as { version: number; keys: Record<string, string> };
    expect(saved.version).toBe(1);
    expect(Object.keys(saved.keys).sort()).toEqual(['anthropic', 'openai-compatible']);
    expect(Buffer.from(saved.keys.anthropic!, 'base64').subarray(0, 3).toString()).toBe('v11');
    expect(statSync(join(home.dir, KEYS_FILE)).mode & 0o777).toBe(0o600);

    const reopened = await open();
    expect(reopened.get('anthropic')).toBe(KEY);
    expect(reopened.get('openai-compatible')).toBe(OTHER);
  });

  it('holds any named secret, such as a forge token, and the Core syncs with it from the keychain', async () => {
    const token = 'ghp_KeychainForgeToken0123456789abcdef';
    const store = await open();
    await store.set('GITHUB_TOKEN', token);
    expectNoKey(fileText(home), token);
    const reopened = await open();
    expect(reopened.get('GITHUB_TOKEN')).toBe(token);
    const core = Core.open({ home: { dir: home.dir, kind: 'env' }, env: home.env, keyStore: reopened });
    try {
      expect(core.secrets.lookup('GITHUB_TOKEN')).toEqual({ value: token, source: 'keychain' });
      const listed = await core.call('Secrets.List', {});
      expect(listed.secrets).toContainEqual({ name: 'GITHUB_TOKEN', present: true, source: 'keychain' });
      expect(JSON.stringify(listed)).not.toContain(token);
      await core.call('Secrets.Set', { name: 'GITEA_TOKEN', value: 'gitea-token-value-0123456789' });
      expect(reopened.get('GITEA_TOKEN')).toBe('gitea-token-value-0123456789');
      expect(existsSync(join(home.dir, 'secrets.json'))).toBe(false);
    } finally {
      await core.shutdown();
    }
  });

  it('forgets a key: gone from memory and from the file, the other one kept', async () => {
    const store = await open();
    await store.set('anthropic', KEY);
    await store.set('openai-compatible', OTHER);
    await store.set('anthropic', null);
    expect(store.get('anthropic')).toBeUndefined();
    const reopened = await open();
    expect(reopened.get('anthropic')).toBeUndefined();
    expect(reopened.get('openai-compatible')).toBe(OTHER);
    expect(Object.keys((JSON.parse(fileText(home)) as { keys: object }).keys)).toEqual(['openai-compatible']);
  });

  it('refuses to store a key when encryption is unavailable, rather than writing plaintext', async () => {
    safeStorage.available = false;
    const store = await open();
    expect(store.status()).toMatchObject({ writable: false, message: expect.stringContaining('keychain') });
    const refused = await store.set('anthropic', KEY).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(StewardError);
    expect((refused as StewardError).code).toBe('key_store_unavailable');
    expect((refused as StewardError).message).toContain('ANTHROPIC_API_KEY');
    expect(JSON.stringify(refused)).not.toContain(KEY);
    expect(existsSync(join(home.dir, KEYS_FILE))).toBe(false);
    expect(store.get('anthropic')).toBeUndefined();
  });

  it("refuses Linux's basic_text backend: a well-known password is not a keychain", async () => {
    safeStorage.backend = 'basic_text';
    const store = await open('linux');
    expect(store.status()).toMatchObject({ writable: false, message: expect.stringContaining('plain text') });
    await expect(store.set('openai-compatible', OTHER)).rejects.toMatchObject({ code: 'key_store_unavailable', message: expect.stringContaining('OPENAI_API_KEY') });
    expect(existsSync(join(home.dir, KEYS_FILE))).toBe(false);
    // The backend name is Linux's alone; elsewhere availability decides.
    expect((await open('darwin')).status().writable).toBe(true);
  });

  it('treats a broken keys.json or an undecryptable ciphertext as no key, and replaces it on save', async () => {
    writeFileSync(join(home.dir, KEYS_FILE), JSON.stringify({ version: 1, keys: { anthropic: Buffer.from('v11garbage-garbage-garbage').toString('base64') } }));
    const store = await open();
    expect(store.get('anthropic')).toBeUndefined();
    await store.set('anthropic', KEY);
    expect((await open()).get('anthropic')).toBe(KEY);
    writeFileSync(join(home.dir, KEYS_FILE), '{not json');
    expect((await open()).get('anthropic')).toBeUndefined();
  });

  it('backs Settings.SetApiKey in a Core: keychain source, nothing in config.json or the logs', async () => {
    const keyStore = await open();
    const core = Core.open({ home: { dir: home.dir, kind: 'env' }, env: home.env, keyStore });
    try {
      await expect(core.call('Settings.SetApiKey', { curator: 'anthropic', key: KEY })).resolves.toEqual({ stored: true, source: 'keychain' });
      const view = (await core.call('Settings.Get', {})).sweeper;
      expect(view.keyStore).toEqual({ kind: 'keychain', writable: true, message: null });
      expect(view.apiKeys.anthropic).toEqual({ present: true, source: 'keychain', envVar: 'ANTHROPIC_API_KEY' });
      expect(view.apiKeys['openai-compatible']).toEqual({ present: false, source: 'none', envVar: 'OPENAI_API_KEY' });
      expect(JSON.stringify(view)).not.toContain(KEY);
      expectNoKey(fileText(home), KEY);
    } finally {
      await core.shutdown();
    }
    expect(existsSync(join(home.dir, 'config.json'))).toBe(false);
    const logs = readdirSync(join(home.dir, 'logs'));
    expect(logs.length).toBeGreaterThan(0);
    for (const name of logs) expect(readFileSync(join(home.dir, 'logs', name), 'utf8')).not.toContain(KEY);
  });
});
