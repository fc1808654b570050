import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRepositoryCache } from '../../core/maintenance/index.js';
import { FakeOllama } from '../support/fake-embedders.js';
import { CorpusWriter, loadFixtureCorpus } from '../support/repository-cache.js';
import { goToPlace, launchChromium, makeTempDir, openPanel, runSteward, screenshotPath, startServe, stewardEnv, type ServedSteward } from './harness.js';

const CLOSEST = 'No items contain these words; these are the closest in meaning.';

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

  it('shows nothing, not ten unrelated items, for words nothing in the repository relates to', async () => {
    const { page, problems } = await openPanel(browser, steward);
    await goToPlace(page, 'Maintenance');
    await page.getByRole('searchbox', { name: `Search ${REPO}` }).fill('recipe for banana bread with walnuts');
    await page.getByRole('search').getByRole('button', { name: 'Search' }).click();
    await page.getByText(`Nothing in ${REPO} matches`).waitFor();
    expect(await page.getByTestId('search-hits').count()).toBe(0);
    expect(await page.getByRole('status').filter({ hasText: CLOSEST }).count()).toBe(0);
    expect(problems).toEqual([]);
  });
});

describe('the Maintenance place says when hits are only the closest in meaning', () => {
  let steward: ServedSteward;
  let browser: Browser;
  let ollama: FakeOllama;

  beforeAll(async () => {
    ollama = await new FakeOllama({ model: 'nomic-embed-text', dimensions: 64, revision: 'sha256:1111' }).start();
    const cache = join(makeTempDir('steward-e2e-rag-model-').dir, 'inkwell.db');
    createRepositoryCache(cache, [{ repoId: REPO, aliases: ['inkwell-app/inkwell'] }]);
    const writer = new CorpusWriter(cache, REPO);
    writer.seed(loadFixtureCorpus());
    writer.close();
    steward = await startServe({
      prepareHome: async (home) => {
        writeFileSync(join(home, 'config.json'), JSON.stringify({ maintenance: { profiles: { local: { provider: 'ollama', model: 'nomic-embed-text', endpoint: ollama.url } } } }));
        const enrolled = await runSteward(['maintenance', 'enroll', '--cache', cache, '--repo', 'inkwell-app/inkwell', '--sync', 'off', '--rag', 'maintain', '--profile', 'local', '--idempotency-key', 'e2e-rag-model'], stewardEnv(home));
        expect(enrolled.code, enrolled.stderr).toBe(0);
      },
    });
    const pass = await steward.rpc('Maintenance.Reconcile', {});
    expect(pass.jobs.map((j) => `${j.stage}/${j.state}`)).toEqual(['rag/succeeded']);
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await steward?.stop({ check: false });
    await ollama?.stop();
  });

  it('a word no item contains: the panel says so above the hits found by meaning', async () => {
    // Words the corpus never spells so: which of them the fake model puts above chance depends on its
    // hashing, so the owner is asked first, and the panel must show what the owner answered.
    let query: string | undefined;
    for (const word of ['unencrypted', 'decryption', 'synchronisation', 'notionimport', 'hidpi', 'fractionalscaling', 'crashy']) {
      const answer = await steward.rpc('Repository.Search', { repo: REPO, query: word });
      expect(answer.degraded).toBeUndefined();
      if (answer.wordMatches === 0 && answer.hits.length > 0) {
        expect(answer.hits.every((h) => h.matchedBy.join() === 'meaning')).toBe(true);
        query = word;
        break;
      }
    }
    expect(query).toBeDefined();
    const { page, problems } = await openPanel(browser, steward);
    await goToPlace(page, 'Maintenance');
    await page.getByRole('searchbox', { name: `Search ${REPO}` }).fill(query!);
    await page.getByRole('search').getByRole('button', { name: 'Search' }).click();
    const hits = page.getByTestId('search-hits');
    await hits.waitFor();
    await page.getByRole('status').filter({ hasText: CLOSEST }).waitFor();
    const items = await hits.getByRole('listitem').allInnerTexts();
    expect(items.length).toBeGreaterThan(0);
    expect(items.length).toBeLessThan(10);
    expect(items.every((t) => t.includes('matched by meaning') && !t.includes('matched by words'))).toBe(true);
    expect(problems).toEqual([]);
  });
});
