import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, goToPlace, launchChromium, makeTempDir, openPanel, startServe, type ServedSteward } from './harness.js';

/** The id of the section whose heading has the focus, if any. */
const focusedSection = (page: Page) => page.evaluate(() => (document.activeElement?.tagName === 'H2' ? document.activeElement.closest('section')?.id : undefined));

/** Where the section's heading sits in the window, in px from its top. */
const headingTop = (page: Page, id: string) => page.locator(`section#${id} h2`).evaluate((el) => el.getBoundingClientRect().top);

/** Lands on the section: its heading focused and at the top of the window, and still there once the panels around it have loaded. */
async function landedOn(page: Page, id: string): Promise<void> {
  await eventually(`the heading of ${id} has the focus`, async () => ((await focusedSection(page)) === id ? true : undefined));
  await page.waitForTimeout(1_000);
  const top = await headingTop(page, id);
  expect(top, `${id}'s heading from the window's top`).toBeGreaterThanOrEqual(0);
  expect(top, `${id}'s heading from the window's top`).toBeLessThan(100);
}

const hashIs = (page: Page, hash: string) => eventually(`the address is ${hash}`, async () => ((await page.evaluate(() => window.location.hash)) === hash ? true : undefined));

describe('Settings sections', () => {
  let steward: ServedSteward;
  let browser: Browser;

  beforeAll(async () => {
    const roots = makeTempDir('steward-e2e-sections-');
    steward = await startServe({ claudeRoots: [roots.dir] });
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await steward?.stop({ check: false });
  });

  it('a section’s own address opens Settings there, its heading focused, and a reload keeps it', async () => {
    const { page, problems } = await openPanel(browser, steward);
    await page.goto(`${steward.baseUrl}#/settings?section=project-notes`);
    await page.locator('main[data-place="settings"]').waitFor();
    await landedOn(page, 'project-notes');
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(500);
    await page.reload();
    await landedOn(page, 'project-notes');
    expect(await page.evaluate(() => window.location.hash)).toBe('#/settings?section=project-notes');
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('links every section from the top; following one by keyboard changes the address, Back returns, and edits not saved stay', async () => {
    const { page, problems } = await openPanel(browser, steward);
    await goToPlace(page, 'Settings');
    const sections = page.getByRole('navigation', { name: 'Settings sections' });
    await sections.getByRole('link', { name: 'About this Steward' }).waitFor();
    expect(await sections.getByRole('link').allInnerTexts()).toEqual([
      'Where Steward keeps its files',
      'Agents and their folders',
      'Importing conversations',
      'Forgotten conversations and projects',
      'Project notes',
      'Notes for your agents',
      'This computer',
      'Cache retention',
      'About this Steward',
    ]);
    const form = page.getByRole('form', { name: 'Importing conversations' });
    await form.getByLabel('Retention window, in days').fill('400');

    // By keyboard: the link takes the focus, Enter follows it.
    await sections.getByRole('link', { name: 'Notes for your agents' }).focus();
    await page.keyboard.press('Enter');
    await hashIs(page, '#/settings?section=notes-for-agents');
    await landedOn(page, 'notes-for-agents');

    await sections.getByRole('link', { name: 'Forgotten conversations and projects' }).click();
    await hashIs(page, '#/settings?section=forgotten');
    await landedOn(page, 'forgotten');

    await page.goBack();
    await hashIs(page, '#/settings?section=notes-for-agents');
    await landedOn(page, 'notes-for-agents');
    await page.goBack();
    await hashIs(page, '#/settings');
    await eventually('Back to the top of Settings', async () => ((await page.locator('main h1').evaluate((el) => el.getBoundingClientRect().top)) >= 0 ? true : undefined));

    // The link to the section the address already names, once scrolled away from it, lands there again.
    await page.goForward();
    await hashIs(page, '#/settings?section=notes-for-agents');
    await page.evaluate(() => window.scrollTo(0, 0));
    await sections.getByRole('link', { name: 'Notes for your agents' }).click();
    await landedOn(page, 'notes-for-agents');
    expect(await page.evaluate(() => window.location.hash)).toBe('#/settings?section=notes-for-agents');

    // Jumping about the page left what was typed, marked unsaved.
    expect(await form.getByLabel('Retention window, in days').inputValue()).toBe('400');
    expect(await form.getByTestId('settings-unsaved').innerText()).toContain('Not saved yet');
    await form.getByRole('button', { name: 'Discard changes' }).click();
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
