import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { goToPlace, launchChromium, makeTempDir, openPanel, startServe, type ServedSteward } from './harness.js';

describe('Settings edits not saved yet', () => {
  let steward: ServedSteward;
  let browser: Browser;

  beforeAll(async () => {
    const roots = makeTempDir('steward-e2e-drafts-');
    steward = await startServe({ claudeRoots: [roots.dir] });
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await steward?.stop({ check: false });
  });

  it('are kept through Ctrl-K and Back, said unsaved, and Discard changes puts back what is saved', async () => {
    const { page, problems } = await openPanel(browser, steward);
    await goToPlace(page, 'Settings');
    const form = page.getByRole('form', { name: 'Importing conversations' });
    await form.getByLabel('Never import conversations from these folders').fill('/home/me/private/**');
    await form.getByLabel('Retention window, in days').fill('400');
    await page.keyboard.press('Control+k');
    await page.locator('main[data-place="search"]').waitFor();
    await page.goBack();
    await page.locator('main[data-place="settings"]').waitFor();

    expect(await form.getByLabel('Never import conversations from these folders').inputValue()).toBe('/home/me/private/**');
    expect(await form.getByLabel('Retention window, in days').inputValue()).toBe('400');
    expect(await form.getByTestId('settings-unsaved').innerText()).toContain('Not saved yet');

    // Through the navigation too.
    await goToPlace(page, 'Projects');
    await goToPlace(page, 'Settings');
    expect(await form.getByLabel('Retention window, in days').inputValue()).toBe('400');

    await form.getByRole('button', { name: 'Discard changes' }).click();
    expect(await form.getByLabel('Retention window, in days').inputValue()).toBe('365');
    expect(await form.getByLabel('Never import conversations from these folders').inputValue()).toBe('');
    expect(await form.getByTestId('settings-unsaved').count()).toBe(0);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('closing the page with edits not saved asks first (beforeunload)', async () => {
    const { page } = await openPanel(browser, steward);
    await goToPlace(page, 'Settings');
    await page.getByRole('form', { name: 'Importing conversations' }).getByLabel('Never import conversations from these folders').fill('/x/**');
    const asked = new Promise<string>((resolve) => page.once('dialog', (dialog) => (resolve(dialog.type()), void dialog.accept())));
    await page.close({ runBeforeUnload: true });
    expect(await asked).toBe('beforeunload');
  });

  it('shows the interval in words, says a refused one’s least in plain words ("1 second", no fraction of a minute) and the focus goes to the marked field', async () => {
    const { page } = await openPanel(browser, steward);
    await goToPlace(page, 'Settings');
    const form = page.getByRole('form', { name: 'Importing conversations' });
    const minutes = form.getByLabel("Check the agents' folders every …");
    expect(await minutes.inputValue()).toBe('5 minutes');
    await minutes.fill('-3 seconds');
    await form.getByRole('button', { name: 'Save import settings' }).click();
    await form.getByText('This must be at least 1 second.').waitFor();
    expect(await minutes.evaluate((el) => el === document.activeElement)).toBe(true);
    await form.getByRole('button', { name: 'Discard changes' }).click();
    await page.context().close();
  });
});
