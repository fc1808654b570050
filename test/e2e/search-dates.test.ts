import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeHistoryFixture } from '../support/history.js';
import { eventually, launchChromium, makeTempDir, openPanel, startServe, type ServedSteward } from './harness.js';

// QA: `quokkaflux since:2026-01-01` said "since: takes 7d, 30d or 365d", `to:` was refused, `until:` was
// searched as a word: the panel could not search a date range. Now it types one, shows it as a chip in
// words, keeps it in the address (reload and Back), and names the forms a malformed date may take.
describe('a date range typed in the search box', () => {
  let steward: ServedSteward;
  let browser: Browser;

  beforeAll(async () => {
    const roots = makeTempDir('steward-e2e-search-dates-');
    const fixture = writeHistoryFixture(roots.dir);
    steward = await startServe({ claudeRoots: [fixture.claudeRoot], openclawRoots: [fixture.openclawRoot] });
    browser = await launchChromium();
    await eventually('the start-up sweep imported the fixture', async () => ((await steward.rpc('Sessions.List', { limit: 50 })).sessions.length >= 4 ? true : undefined), 30_000);
  });

  afterAll(async () => {
    await browser?.close();
    await steward?.stop({ check: false });
  });

  const hash = (page: Page) => page.evaluate(() => window.location.hash);
  const when = (page: Page) => page.getByRole('radiogroup', { name: 'When' });
  async function type(page: Page, text: string): Promise<void> {
    await page.locator('#search-box').fill(text);
    await page.keyboard.press('Enter');
  }

  it('searches the range, shows it as a chip, keeps it through reload and Back, and Any time removes it', async () => {
    const { page, problems } = await openPanel(browser, steward, {});
    await page.evaluate(() => (window.location.hash = '#/search'));
    await page.locator('#search-box').waitFor();

    await type(page, 'frost since:2000-01-01');
    await eventually('the range is in the address', async () => ((await hash(page)) === '#/search?q=frost&from=2000-01-01' ? true : undefined));
    await eventually('its chip is chosen', async () => ((await when(page).getByRole('radio', { name: 'Since 1 Jan 2000' }).getAttribute('aria-checked')) === 'true' ? true : undefined));
    await eventually('frost is found since then', async () => ((await page.locator('.search-hit').count()) > 0 ? true : undefined));
    expect(await page.locator('#search-box').inputValue()).toBe('frost');

    await type(page, 'frost until:2001-03');
    await eventually('the range has both ends', async () => ((await hash(page)) === '#/search?q=frost&from=2000-01-01&to=2001-03' ? true : undefined));
    await eventually('no frost in 2000', async () => ((await page.locator('.search-hit').count()) === 0 && (await page.locator('main').innerText()).includes('No conversation matches that.') ? true : undefined));
    expect(await when(page).getByRole('radio', { name: '1 Jan 2000 – March 2001' }).getAttribute('aria-checked')).toBe('true');

    await page.reload();
    await eventually('a reload keeps the range', async () => ((await when(page).getByRole('radio', { name: '1 Jan 2000 – March 2001' }).getAttribute('aria-checked')) === 'true' ? true : undefined));
    await page.goBack();
    await eventually('Back returns to the open range', async () => ((await when(page).getByRole('radio', { name: 'Since 1 Jan 2000' }).getAttribute('aria-checked')) === 'true' ? true : undefined));

    await type(page, 'frost since:2026-1-1');
    await eventually('a malformed date names the forms', async () => ((await page.locator('#search-box-problem').innerText()).startsWith('since: takes a month (2025-03), a date (2026-11-29)') ? true : undefined));
    expect(await hash(page)).toBe('#/search?q=frost&from=2000-01-01');

    await when(page).getByRole('radio', { name: 'Any time' }).click();
    await eventually('Any time removes the range', async () => ((await hash(page)) === '#/search?q=frost' ? true : undefined));
    expect(await when(page).getByRole('radio').allInnerTexts()).toEqual(['Any time', 'Past week', 'Past month', 'Past year']);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('Dates… picks the range with two date inputs, and refuses one that ends before it starts', async () => {
    const { page, problems } = await openPanel(browser, steward, {});
    await page.evaluate(() => (window.location.hash = '#/search?q=frost'));
    await page.locator('.search-results').waitFor();
    await page.locator('.search-dates summary').click();
    await page.getByLabel('From').fill('2000-03-01');
    await page.getByLabel('To').fill('2000-01-31');
    await page.getByRole('button', { name: 'Show these dates' }).click();
    expect(await page.locator('.search-dates').getByRole('alert').innerText()).toBe('The dates end before they start: 31 Jan 2000 is before 1 Mar 2000.');
    expect(await hash(page)).toBe('#/search?q=frost');

    await page.getByLabel('From').fill('2000-01-01');
    await page.getByLabel('To').fill('2000-12-31');
    await page.getByRole('button', { name: 'Show these dates' }).click();
    await eventually('the range is in the address', async () => ((await hash(page)) === '#/search?q=frost&from=2000-01-01&to=2000-12-31' ? true : undefined));
    expect(await when(page).getByRole('radio', { name: '1 Jan – 31 Dec 2000' }).getAttribute('aria-checked')).toBe('true');
    expect(await page.locator('.search-dates').getByRole('alert').count()).toBe(0);
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
