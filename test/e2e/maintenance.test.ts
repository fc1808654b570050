import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRepositoryCache } from '../../core/maintenance/index.js';
import { FakeForge } from '../support/fake-forge.js';
import { eventually, goToPlace, launchChromium, makeTempDir, openPanel, runSteward, screenshotPath, startServe, stewardEnv, type ServedSteward } from './harness.js';

const TOKEN = 'ghp_E2eFakeForgeToken0123456789abcdef';

describe('the Maintenance place', () => {
  let steward: ServedSteward;
  let browser: Browser;
  let github: FakeForge;
  let gitea: FakeForge;
  let caches: string;
  /** The fake GitHub's repository as Steward names it: its host keeps the loopback port. */
  let widgets: string;
  let gadgets: string;

  beforeAll(async () => {
    github = new FakeForge({ shape: 'github', token: TOKEN });
    gitea = new FakeForge({ shape: 'gitea', name: 'gadgets', token: 'not-given-to-steward' });
    const githubBase = await github.start();
    const giteaBase = await gitea.start();
    widgets = `${new URL(githubBase).host}/acme/widgets`;
    gadgets = `${new URL(giteaBase).host}/acme/gadgets`;
    for (let i = 1; i <= 12; i += 1) {
      const t = github.add(i % 4 === 0 ? 'pull' : 'issue');
      github.comment(t.number);
    }
    caches = makeTempDir('steward-e2e-maint-caches-').dir;
    const held = join(caches, 'held.db');
    createRepositoryCache(held, [{ repoId: 'github.com/acme/held', aliases: ['acme/held'] }]);
    steward = await startServe({
      env: { GITHUB_TOKEN: TOKEN },
      prepareHome: async (home) => {
        const env = stewardEnv(home, { env: { GITHUB_TOKEN: TOKEN } });
        const collections = ['--collections', 'issues,issue-comments,pulls,pr-comments'];
        expect((await runSteward(['maintenance', 'add', '--repo', 'acme/widgets', '--base-url', githubBase, ...collections, '--idempotency-key', 'w', '--json'], env)).code).toBe(0);
        expect((await runSteward(['maintenance', 'add', '--repo', 'acme/gadgets', '--forge', 'gitea', '--base-url', giteaBase, ...collections, '--idempotency-key', 'g', '--json'], env)).code).toBe(0);
        // A cache and its copy: the copy's registration is held by a clone conflict.
        expect((await runSteward(['maintenance', 'enroll', '--cache', held, '--repo', 'acme/held', '--sync', 'off', '--idempotency-key', 'h1', '--json'], env)).code).toBe(0);
        copyFileSync(held, join(caches, 'held-copy.db'));
        expect((await runSteward(['maintenance', 'enroll', '--cache', join(caches, 'held-copy.db'), '--repo', 'acme/held', '--sync', 'off', '--idempotency-key', 'h2', '--json'], env)).code).toBe(1);
      },
    });
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await steward?.stop({ check: false });
    await github?.stop();
    await gitea?.stop();
  });

  it('shows items, freshness and history in words, waits on a missing token, keeps a held repository listed, and hides identifiers behind Details', async () => {
    const { page, problems } = await openPanel(browser, steward);
    await goToPlace(page, 'Maintenance');
    const cards = page.getByTestId('registration');
    await cards.first().waitFor();
    await page.getByRole('button', { name: 'Sync now' }).click();
    await page.getByTestId('sync-pass-result').waitFor();

    const card = (repo: string) => page.getByRole('region', { name: repo, exact: true });
    await eventually('the GitHub repository is up to date', async () => {
      const text = await card(widgets).innerText();
      return text.includes('Up to date') ? text : undefined;
    });
    const widgetsText = await card(widgets).innerText();
    expect(widgetsText).toContain('Every collection is current and its history complete.');
    const table = card(widgets).getByRole('region', { name: `Collections of ${widgets}` });
    const issuesRow = table.getByRole('row', { name: /^Issues/ });
    expect(await issuesRow.innerText()).toMatch(/Issues\s+9\s+current .*\s+complete/);
    expect(await table.getByRole('row', { name: /^Pull requests/ }).innerText()).toMatch(/Pull requests\s+3\s/);

    const gadgetsText = await card(gadgets).innerText();
    expect(gadgetsText).toContain('Waiting');
    expect(gadgetsText).toContain('token missing for 127.0.0.1');
    expect(gadgetsText).toContain('steward secrets set GITEA_TOKEN');
    expect(gadgetsText).toContain('no token');

    const heldCard = card('github.com/acme/held');
    await heldCard.getByTestId('held-registration').waitFor();
    expect(await heldCard.innerText()).toContain('Held: conflict');

    const status = await steward.rpc('Maintenance.List', {});
    const w = status.registrations.find((r) => r.canonicalRepoId === widgets)!;
    expect(widgetsText).not.toContain(w.cacheUuid);
    await card(widgets).getByText('Details', { exact: true }).click();
    expect(await card(widgets).innerText()).toContain(w.cacheUuid);
    await page.screenshot({ path: screenshotPath('maintenance-collections.png'), fullPage: true });

    const main = await page.locator('main').innerText();
    for (const secret of [TOKEN, github.apiBase, gitea.apiBase, caches, steward.home]) expect(main).not.toContain(secret);
    expect(main).not.toContain('Sync healthy');

    await heldCard.getByRole('link', { name: 'Resolve the conflict' }).click();
    await page.waitForURL(/#\/conflicts$/);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('stops maintaining a repository from its card after an in-place question, keeping the others', async () => {
    const { page, problems } = await openPanel(browser, steward);
    await goToPlace(page, 'Maintenance');
    const card = page.getByRole('region', { name: gadgets, exact: true });
    await card.getByRole('button', { name: 'Stop maintaining…' }).click();
    const question = card.getByTestId('registration-remove');
    expect(await question.innerText()).toContain('its cache file is kept');
    await question.getByRole('button', { name: 'Yes, stop maintaining it' }).click();
    await eventually('the card is gone', async () => ((await card.count()) === 0 ? true : undefined));
    const status = await steward.rpc('Maintenance.List', {});
    expect(status.registrations.map((r) => r.canonicalRepoId)).not.toContain(gadgets);
    expect(status.registrations.map((r) => r.canonicalRepoId)).toContain(widgets);
    expect(status.retired).toBe(1);
    expect(await page.getByRole('region', { name: widgets, exact: true }).count()).toBe(1);
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
