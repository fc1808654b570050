import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeForge } from '../support/fake-forge.js';
import { TestRepo } from '../support/git-repo.js';
import { eventually, goToPlace, launchChromium, makeTempDir, openPanel, screenshotPath, startServe, type ServedSteward } from './harness.js';

const TOKEN = 'ghp_E2eDocsFakeForgeToken0123456789abcdef';

async function check(page: Page, label: string, checked: boolean): Promise<void> {
  const box = page.getByTestId('setup-form').getByRole('checkbox', { name: label, exact: true });
  if ((await box.isChecked()) !== checked) await box.click();
}

describe('the Maintenance place: add a repository with a local documents folder', () => {
  let steward: ServedSteward;
  let browser: Browser;
  let forge: FakeForge;
  let base: string;

  beforeAll(async () => {
    forge = new FakeForge({ shape: 'github', token: TOKEN });
    base = await forge.start();
    for (let i = 1; i <= 3; i += 1) forge.add('issue', { title: `Issue number ${i}` });
    steward = await startServe({
      env: { GITHUB_TOKEN: TOKEN },
      prepareHome: (home) => writeFileSync(join(home, 'config.json'), JSON.stringify({ maintenance: { reconcile_interval_ms: 4_000 } })),
    });
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await steward?.stop({ check: false });
    await forge?.stop();
  });

  it('says beside the field why a folder is refused, then adds the repository with the folder and counts it, never naming it', async () => {
    const repo = `${new URL(base).host}/acme/widgets`;
    const plain = makeTempDir('steward-e2e-docs-plain-').dir;
    writeFileSync(join(plain, 'loose.md'), '# Not in git');
    const notes = new TestRepo(join(makeTempDir('steward-e2e-docs-').dir, 'notes')).write('guide.md', '# Guide\n\nHow the widgets fit.').write('drafts/idea.md', 'An idea.');

    const { page, problems } = await openPanel(browser, steward);
    await goToPlace(page, 'Maintenance');
    await page.getByRole('button', { name: 'Add repository' }).click();
    const form = page.getByTestId('setup-form');
    await form.getByLabel('Repository (OWNER/NAME)').fill('acme/widgets');
    await form.getByLabel('API address (optional)').fill(base);
    for (const label of ['Issue comments', 'Pull requests', 'Pull request comments', 'Wiki']) await check(page, label, false);

    const documents = form.getByTestId('setup-documents');
    await documents.getByRole('button', { name: 'Add a folder' }).click();
    const row = documents.getByTestId('document-row');
    await row.getByLabel('Folder path').fill(plain);
    await form.getByRole('button', { name: 'Show the plan' }).click();
    // The owner's check, in words, beside the field it is about; nothing is planned or created.
    const refused = row.locator('.field__error');
    await refused.waitFor();
    expect(await refused.innerText()).toContain('not inside a git work tree');
    expect(await row.getByLabel('Folder path').getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByTestId('setup-plan').count()).toBe(0);
    expect(existsSync(join(steward.home, 'managed-caches.json'))).toBe(false);
    // The section and its refusal are usable with a keyboard and a screen reader.
    const axe = await new AxeBuilder({ page }).include('main').analyze();
    expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);

    await row.getByLabel('Folder path').fill(notes.dir);
    await form.getByRole('button', { name: 'Show the plan' }).click();
    const plan = page.getByTestId('setup-plan');
    await plan.waitFor();
    const words = await plan.innerText();
    expect(words).toContain(`Creates a new repository cache for ${repo}`);
    expect(words).toContain('1 local document folder');
    expect(words).toContain('Reads the documents of 1 local document folder on this computer now');
    expect(words).not.toContain(notes.dir);
    expect(await row.locator('.field__error').count()).toBe(0);
    await page.screenshot({ path: screenshotPath('setup-docs-plan.png'), fullPage: true });

    await page.getByRole('button', { name: 'Confirm' }).click();
    const done = page.getByTestId('setup-done');
    await done.waitFor();
    expect(await done.innerText()).toBe(`Added ${repo} with 1 local document folder: the first sync runs now.`);

    // The folder's documents arrive with the first pass, under Local documents on the card.
    const card = page.getByTestId('registration');
    await card.waitFor();
    await eventually('the folder is read', async () => {
      const [registration] = (await steward.rpc('Maintenance.List', {})).registrations;
      return registration?.collections.find((c) => c.collection === 'documents' && c.items === 2);
    }, 60_000);
    await eventually('the card lists Local documents', async () => ((await card.innerText()).includes('Local documents') ? true : undefined));
    const main = await page.locator('main').innerText();
    for (const secret of [TOKEN, base, notes.dir, plain, steward.home]) expect(main).not.toContain(secret);
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
