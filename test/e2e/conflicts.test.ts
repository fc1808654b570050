import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRepositoryCache } from '../../core/maintenance/index.js';
import { launchChromium, makeTempDir, openPanel, runSteward, screenshotPath, startServe, stewardEnv, type ServedSteward, goToPlace } from './harness.js';

describe('the Conflicts place resolves a copied cache', () => {
  let steward: ServedSteward;
  let browser: Browser;
  let caches: string;
  let copyFingerprint: string;
  let originalFingerprint: string;

  beforeAll(async () => {
    caches = makeTempDir('steward-e2e-caches-').dir;
    const original = join(caches, 'repo.db');
    createRepositoryCache(original, [
      { repoId: 'github.com/acme/widgets', aliases: ['acme/widgets'] },
      { repoId: 'github.com/acme/gadgets', aliases: ['acme/gadgets'] },
    ]);
    steward = await startServe({
      prepareHome: async (home) => {
        const env = stewardEnv(home);
        for (const repo of ['acme/widgets', 'acme/gadgets']) {
          const enrolled = await runSteward(['maintenance', 'enroll', '--cache', original, '--repo', repo, '--idempotency-key', `seed-${repo.replace('/', '-')}`, '--format', 'json'], env);
          expect(enrolled.code).toBe(0);
          originalFingerprint = (JSON.parse(enrolled.stdout) as { pathFingerprint: string }).pathFingerprint;
        }
        const copy = join(caches, 'repo-copy.db');
        copyFileSync(original, copy);
        const clone = await runSteward(['maintenance', 'enroll', '--cache', copy, '--repo', 'acme/widgets', '--idempotency-key', 'seed-copy', '--format', 'json'], env);
        expect(clone.code).toBe(1);
        expect(JSON.parse(clone.stdout).error.code).toBe('cache_clone_conflict');
      },
    });
    browser = await launchChromium();
    const { conflicts } = await steward.rpc('Conflicts.List', {});
    expect(conflicts).toHaveLength(1);
    copyFingerprint = conflicts[0]!.candidates.find((c) => c.pathFingerprint !== originalFingerprint)!.pathFingerprint!;
  });

  afterAll(async () => {
    await browser?.close();
    await steward?.stop({ check: false });
  });

  it('shows candidates with no default, plans the chosen one, asks to re-plan when stale, and applies on Confirm', async () => {
    const { page, problems } = await openPanel(browser, steward);
    await goToPlace(page, 'Conflicts');
    const conflict = page.getByTestId('conflict');
    await conflict.waitFor();
    const radios = conflict.getByRole('radio');
    expect(await radios.count()).toBe(2);
    for (let i = 0; i < 2; i += 1) expect(await radios.nth(i).isChecked()).toBe(false);
    expect(await page.getByTestId('conflict-plan').count()).toBe(0);
    const text = await conflict.innerText();
    // What each copy holds and when it changed, beside the fingerprints (this panel only).
    await conflict.getByTestId('candidate-holdings').nth(1).waitFor();
    for (const holding of await conflict.getByTestId('candidate-holdings').allInnerTexts()) expect(holding).toMatch(/^This copy holds 0 items · \d+ KB · (last synced|never synced here).* · file changed /);
    expect(text).toContain(copyFingerprint);
    expect(text).toContain(originalFingerprint);
    expect(text).not.toContain(caches);

    // Pick the copy: it holds only widgets, so gadgets (on the original path) will be retired.
    await conflict.locator(`[data-testid="conflict-candidate"]`, { hasText: copyFingerprint }).getByRole('radio').check();
    const plan = page.getByTestId('conflict-plan');
    await plan.waitFor();
    expect(await plan.innerText()).toContain('Restore');
    expect(await plan.innerText()).toContain('Retire');
    expect(await plan.innerText()).toContain(`Stops maintaining github.com/acme/gadgets in the other copy (copy ${originalFingerprint}); that file stays on disk, untouched.`);

    // Something changes underneath the plan: a third copy joins the conflict.
    const third = join(caches, 'repo-third.db');
    copyFileSync(join(caches, 'repo.db'), third);
    await expect(steward.rpc('Maintenance.Enroll', { cachePath: third, repo: 'acme/widgets', idempotencyKey: 'third' })).rejects.toMatchObject({ code: 'cache_clone_conflict' });
    // The place follows maintenance.changed: the new candidate appears without a reload, nothing gets picked for us.
    await conflict.getByRole('radio').nth(2).waitFor();
    expect(await conflict.getByRole('radio').count()).toBe(3);
    expect(await conflict.getByRole('radio', { checked: true }).count()).toBe(1);
    await plan.getByRole('button', { name: 'Confirm' }).click();
    const stale = page.getByTestId('stale-plan');
    await stale.waitFor();
    expect(await stale.innerText()).toContain('Plan again');
    await stale.getByRole('button', { name: 'Plan again' }).click();
    await plan.waitFor();
    await page.screenshot({ path: screenshotPath('conflicts-plan.png') });
    await plan.getByRole('button', { name: 'Confirm' }).click();
    await page.getByTestId('conflict-resolved').waitFor();
    await page.getByText('No conflicts', { exact: true }).waitFor();

    const status = await steward.rpc('Maintenance.List', {});
    expect(status.conflicts).toEqual([]);
    expect(status.registrations.map((r) => [r.canonicalRepoId, r.pathFingerprint, r.enabled])).toEqual([['github.com/acme/widgets', copyFingerprint, true]]);
    expect(status.retired).toBe(3);

    await goToPlace(page, 'Maintenance');
    const row = page.getByTestId('registration');
    await row.first().waitFor();
    expect(await row.count()).toBe(1);
    // Identifiers sit behind "Details".
    expect(await row.first().innerText()).not.toContain(copyFingerprint);
    await row.first().getByText('Details', { exact: true }).click();
    expect(await row.first().innerText()).toContain(copyFingerprint);
    expect(await row.first().innerText()).toContain(status.registrations[0]!.cacheUuid);
    expect(await page.locator('main').innerText()).not.toContain(caches);
    await page.screenshot({ path: screenshotPath('maintenance-after-resolve.png') });
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
