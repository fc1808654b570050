import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOwner, type KeyStore, type KeyStoreStatus, type Owner, type RemoteCurator } from '../../core/index.js';
import { assertBuilt, launchChromium, makeTempDir, openPanel, REPO_ROOT, startServe, stewardEnv, type ServedSteward, goToPlace } from './harness.js';

/** The curator settings' API key field: write-only with a keychain, a pointer to the variable without. */
const KEY = 'sk-ant-api03-typed-into-the-panel-0123456789abcdef';

/** What the desktop app's keychain store does, kept in memory (the real one needs Electron). */
class MemoryKeyStore implements KeyStore {
  readonly kind = 'keychain' as const;
  readonly keys = new Map<RemoteCurator, string>();
  status(): KeyStoreStatus {
    return { writable: true, message: null };
  }
  get(curator: RemoteCurator): string | undefined {
    return this.keys.get(curator);
  }
  set(curator: RemoteCurator, key: string | null): Promise<void> {
    if (key === null) this.keys.delete(curator);
    else this.keys.set(curator, key);
    return Promise.resolve();
  }
}

async function chooseAnthropic(page: Page): Promise<void> {
  await goToPlace(page, 'Settings');
  const form = page.getByRole('form', { name: 'Project notes curator' });
  await form.getByRole('radio', { name: 'Anthropic' }).check();
}

describe('the API key field in the Settings place', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(() => browser?.close());

  describe('headless mode', () => {
    let steward: ServedSteward;
    beforeAll(async () => {
      steward = await startServe();
    });
    afterAll(() => steward?.stop({ check: false }));

    it('names the environment variable to set and offers no key input', async () => {
      const { page, problems } = await openPanel(browser, steward);
      await chooseAnthropic(page);
      const group = page.getByRole('group', { name: 'Anthropic API key' });
      await group.waitFor();
      expect(await group.innerText()).toContain('ANTHROPIC_API_KEY');
      expect(await group.innerText()).toContain('No key');
      expect(await page.locator('input[type="password"]').count()).toBe(0);
      expect(problems).toEqual([]);
    });
  });

  describe('with a writable key store (the desktop app)', () => {
    let owner: Owner;
    const store = new MemoryKeyStore();
    beforeAll(async () => {
      assertBuilt();
      const home = makeTempDir('steward-e2e-keys-');
      owner = await startOwner({
        home: { dir: home.dir, kind: 'env' },
        env: stewardEnv(home.dir),
        keyStore: store,
        rendererDir: join(REPO_ROOT, 'dist', 'renderer'),
        port: 0,
        schedule: false,
      });
    });
    afterAll(() => owner?.stop());

    it('stores a typed key without ever showing it, then clears it', async () => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const page = await context.newPage();
      const problems: string[] = [];
      page.on('pageerror', (error) => problems.push(error.message));
      await page.goto(owner.panelUrl, { waitUntil: 'load' });
      await page.getByTestId('status-bar').waitFor();
      await chooseAnthropic(page);

      const form = page.getByRole('form', { name: 'Anthropic API key' });
      const input = form.getByLabel('Anthropic API key');
      expect(await input.getAttribute('type')).toBe('password');
      await input.fill(KEY);
      await form.getByRole('button', { name: 'Save key' }).click();
      await form.getByRole('status').filter({ hasText: 'Saved in the system keychain' }).waitFor();
      expect(store.keys.get('anthropic')).toBe(KEY);
      expect(await input.inputValue()).toBe('');
      await form.getByText('Key stored in the system keychain').waitFor();
      expect(await page.content()).not.toContain(KEY);

      await form.getByRole('button', { name: 'Clear key' }).click();
      await form.getByText('No key').waitFor();
      expect(store.keys.has('anthropic')).toBe(false);
      expect(problems).toEqual([]);
      await context.close();
    });
  });
});
