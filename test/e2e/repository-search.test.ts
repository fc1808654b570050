import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRepositoryCache } from '../../core/maintenance/index.js';
import { CorpusWriter, loadFixtureCorpus } from '../support/repository-cache.js';
import { goToPlace, launchChromium, makeTempDir, openPanel, runSteward, screenshotPath, startServe, stewardEnv, type ServedSteward } from './harness.js';

const REPO = 'github.com/inkwell-app/inkwell';

describe('the Maintenance place searches a repository cache', () => {
  let steward: ServedSteward;
  let browser: Browser;
  let caches: string;

  beforeAll(async () => {
    caches = makeTempDir('steward-e2e-rag-').dir;
    const cache = join(caches, 'inkwell.db');
    createRepositoryCache(cache, [{ repoId: REPO, aliases: ['inkwell-app/inkwell'] }]);
    const writer = new CorpusWriter(cache, REPO);
    writer.seed(loadFixtureCorpus());
    writer.close();
    steward = await startServe({
      prepareHome: async (home) => {
        const enrolled = await runSteward(['maintenance', 'enroll', '--cache', cache, '--repo', 'inkwell-app/inkwell', '--sync', 'off', '--rag', 'maintain', '--idempotency-key', 'e2e-rag'], stewardEnv(home));
        expect(enrolled.code).toBe(0);
      },
    });
    const pass = await steward.rpc('Maintenance.Reconcile', {});
    expect(pass.jobs.map((j) => `${j.stage}/${j.state}`)).toEqual(['rag/succeeded']);
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await steward?.stop({ check: false });
  });

  it('shows ranked hits with snippets and forge links for what a person types', async () => {
    const { page, problems } = await openPanel(browser, steward);
    await goToPlace(page, 'Maintenance');
    const box = page.getByRole('searchbox', { name: `Search ${REPO}` });
    await box.fill('app crashes after the auto update');
    await page.getByRole('search').getByRole('button', { name: 'Search' }).click();
    const hits = page.getByTestId('search-hits');
    await hits.waitFor();
    const first = hits.getByRole('listitem').first();
    const link = first.getByRole('link');
    expect(await link.innerText()).toBe('Crash on startup after updating to 2.4.0');
    expect(await link.getAttribute('href')).toBe('https://github.com/inkwell-app/inkwell/issues/20');
    expect(await first.innerText()).toMatch(/Issue #20 · closed · greta-v/);
    expect(await first.innerText()).toContain('matched by words and meaning');
    expect(await hits.getByRole('listitem').count()).toBe(10);
    expect(await page.getByRole('status').filter({ hasText: 'words only' }).count()).toBe(0);
    expect(await page.locator('main').innerText()).not.toContain(caches);
    await page.screenshot({ path: screenshotPath('maintenance-repository-search.png'), fullPage: true });
    expect(problems).toEqual([]);
  });
});
