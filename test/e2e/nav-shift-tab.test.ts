import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, launchChromium, openPanel, startServe, type ServedSteward } from './harness.js';

/**
 * QA: a keyboard walk through the side menu. Enter on a place's link lands on its page's heading;
 * Shift+Tab from there reached the menu's last link (Settings), not the link just chosen, so going
 * back to the menu meant walking it again from its end.
 */
describe('Shift+Tab from the heading a menu choice landed on', () => {
  let steward: ServedSteward;
  let browser: Browser;

  beforeAll(async () => {
    steward = await startServe();
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await steward?.stop({ check: false });
  });

  const focused = (page: Page) => page.evaluate(() => ({ tag: document.activeElement?.tagName ?? '', place: document.activeElement?.getAttribute('data-place') ?? '' }));
  const link = (page: Page, place: string) => page.locator(`nav[aria-label="Places"] a[data-place="${place}"]`);

  it('goes back to the link that was chosen, and on through the menu from there', async () => {
    const { page, context, problems } = await openPanel(browser, steward);
    try {
      // Onto Projects (in the middle of the menu) with the keyboard, and Enter.
      await link(page, 'projects').focus();
      await page.keyboard.press('Enter');
      await page.locator('main[data-place="projects"]').waitFor();
      await eventually('the heading has the focus', async () => ((await focused(page)).tag === 'H1' ? true : undefined));

      await page.keyboard.press('Shift+Tab');
      expect(await focused(page)).toEqual({ tag: 'A', place: 'projects' });
      // From there the menu's own order again: the link before it, then Projects and on to Search.
      await page.keyboard.press('Shift+Tab');
      expect(await focused(page)).toEqual({ tag: 'A', place: 'home' });
      await page.keyboard.press('Tab');
      await page.keyboard.press('Tab');
      expect(await focused(page)).toEqual({ tag: 'A', place: 'search' });

      // Enter on Search, then Tab goes on into the page, as before.
      await page.keyboard.press('Enter');
      await page.locator('main[data-place="search"]').waitFor();
      await eventually('the Search heading has the focus', async () => ((await focused(page)).tag === 'H1' ? true : undefined));
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('search-box');

      // The address already shown, chosen again: the heading, then Shift+Tab to that same link.
      await link(page, 'maintenance').focus();
      await page.keyboard.press('Enter');
      await page.locator('main[data-place="maintenance"]').waitFor();
      await eventually('the Maintenance heading has the focus', async () => ((await focused(page)).tag === 'H1' ? true : undefined));
      await link(page, 'maintenance').focus();
      await page.keyboard.press('Enter');
      await eventually('the heading has the focus again', async () => ((await focused(page)).tag === 'H1' ? true : undefined));
      await page.keyboard.press('Shift+Tab');
      expect(await focused(page)).toEqual({ tag: 'A', place: 'maintenance' });
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
