import Database from 'better-sqlite3';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claudeLine, writeJsonl } from '../support/transcripts.js';
import { eventually, goToPlace, launchChromium, makeTempDir, openPanel, screenshotPath, startServe, type ServedSteward } from './harness.js';
import { PROVIDER_IDS } from '../../core/api/index.js';

const DAY_MS = 86_400_000;
const CWD = '/work/retention-project';

/** One Claude session file with one part per line (string or single text block content). */
function session(root: string, sessionId: string, stamps: readonly Date[]): void {
  writeJsonl(
    join(root, 'projects', '-work-retention-project', `${sessionId}.jsonl`),
    stamps.map((ts, i) => claudeLine({ sessionId, cwd: CWD, ts, type: i % 2 === 0 ? 'user' : 'assistant', text: `${sessionId} line ${i}` })),
  );
}

/** Parts on both sides of the 365-day cutoff, read from gateway.db's documented `parts(ts)` column. */
function partsByAge(home: string): { old: number; recent: number } {
  const db = new Database(join(home, 'gateway.db'), { readonly: true, fileMustExist: true });
  try {
    const cutoff = Date.now() - 365 * DAY_MS;
    const count = (sql: string) => db.prepare(sql).pluck().get(cutoff) as number;
    return { old: count('SELECT COUNT(*) FROM parts WHERE ts < ?'), recent: count('SELECT COUNT(*) FROM parts WHERE ts >= ?') };
  } finally {
    db.close();
  }
}

/** Opens Settings and runs the Cache retention view's Check (a dry run). */
async function checkRetention(page: Page): Promise<{ view: Locator; check: Locator }> {
  await goToPlace(page, 'Settings');
  const view = page.getByRole('region', { name: 'Cache retention' });
  await view.getByRole('button', { name: 'Check', exact: true }).click();
  const check = view.getByTestId('cache-retention-check');
  await check.waitFor();
  return { view, check };
}

describe('the Cache retention view in Settings', () => {
  let steward: ServedSteward;
  let browser: Browser;
  let rootsDir: string;

  beforeAll(async () => {
    const roots = makeTempDir('steward-e2e-retention-');
    rootsDir = roots.dir;
    const claude = join(roots.dir, 'claude');
    const now = Date.now();
    const old = (i: number) => new Date(now - 400 * DAY_MS + i * 1000);
    const recent = (i: number) => new Date(now - 60_000 + i * 1000);
    // A conversation wholly older than the window, and one that straddles it.
    session(claude, 'ancient', [old(0), old(1), old(2), old(3)]);
    session(claude, 'straddling', [old(10), old(11), recent(0), recent(1), recent(2)]);
    steward = await startServe({ claudeRoots: [claude] });
    browser = await launchChromium();
    await eventually('the start-up sweep settles', async () => ((await steward.rpc('Telemetry.Recent', { kind: 'sweep.tick' })).entries.length > 0 ? true : undefined));
    // The scheduled sweep keeps to the window; importing everything brings the old lines in.
    const imported = await steward.rpc('Backfill.Run', { provider: 'claude', all: true });
    expect(imported.providers[0]).toMatchObject({ provider: 'claude', discovered: 2, failed: 0 });
  });

  afterAll(async () => {
    await browser?.close();
    await steward?.stop({ check: false });
  });

  it('checks, asks before removing, removes only what is older than the window, and keeps the rest', async () => {
    expect(partsByAge(steward.home)).toEqual({ old: 6, recent: 3 });
    const before = (await steward.rpc('Projects.List', {})).projects.find((p) => p.cwd === CWD);
    expect(before?.sessions).toBe(2);

    const { page, problems } = await openPanel(browser, steward);
    const { view, check } = await checkRetention(page);
    const claudeRow = check.getByRole('row').filter({ hasText: 'Claude' });
    expect((await claudeRow.innerText()).trim()).toMatch(/Older than .*1 conversation entirely, 6 messages in all$/);
    expect(await check.getByRole('status').innerText()).toBe('6 messages would go, and with them 1 conversation entirely.');

    // Asking is not removing: the first button only opens the question, and Cancel leaves everything.
    const remove = view.getByRole('button', { name: 'Remove 6 messages' });
    await remove.click();
    const confirm = view.getByTestId('cache-retention-confirm');
    await confirm.waitFor();
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Cancel');
    await page.keyboard.press('Enter');
    await confirm.waitFor({ state: 'detached' });
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Remove 6 messages');
    expect(partsByAge(steward.home)).toEqual({ old: 6, recent: 3 });

    await remove.click();
    await page.screenshot({ path: screenshotPath('settings-cache-retention-confirm.png') });
    await confirm.getByRole('button', { name: 'Yes, remove them' }).click();
    const removed = view.getByTestId('cache-retention-removed');
    await removed.waitFor();
    expect(await removed.getByRole('status').innerText()).toMatch(/^Removed in \d.*: 6 messages, and with them 1 conversation entirely\. The cache holds nothing older than the retention window now\.$/);
    expect((await removed.getByRole('row').filter({ hasText: 'Claude' }).innerText()).trim()).toMatch(/1 conversation entirely, 6 messages in all$/);
    expect(await removed.innerText()).not.toContain('Stopped early');
    await page.screenshot({ path: screenshotPath('settings-cache-retention.png') });

    // Nothing old is left, the recent parts and the project stay, and a second check finds nothing.
    expect(partsByAge(steward.home)).toEqual({ old: 0, recent: 3 });
    const after = (await steward.rpc('Projects.List', {})).projects.find((p) => p.cwd === CWD);
    expect(after?.sessions).toBe(1);
    await view.getByRole('button', { name: 'Check', exact: true }).click();
    await check.waitFor();
    expect(await check.getByRole('status').innerText()).toBe('Nothing is older than the retention window: nothing would be removed.');
    expect(await view.getByRole('button', { name: /^Remove/ }).count()).toBe(0);

    // Counts and dates only: no paths, no transcript text.
    const shown = await view.innerText();
    for (const secret of [rootsDir, CWD, 'line 0', steward.home]) expect(shown).not.toContain(secret);
    expect(problems).toEqual([]);
    await page.context().close();
  });
});

describe('the Cache retention view with an open window', () => {
  it('says every provider keeps everything, offers no removal, and removes nothing', async () => {
    const roots = makeTempDir('steward-e2e-retention-open-');
    const claude = join(roots.dir, 'claude');
    session(claude, 'ancient', [new Date(Date.now() - 400 * DAY_MS)]);
    const steward = await startServe({
      claudeRoots: [claude],
      prepareHome: (home) => writeFileSync(join(home, 'config.json'), JSON.stringify({ query: { cache: { retention: { default_days: 0 } } } })),
    });
    const browser = await launchChromium();
    try {
      await steward.rpc('Backfill.Run', { provider: 'claude', all: true });
      expect(partsByAge(steward.home).old).toBe(1);
      const { page, problems } = await openPanel(browser, steward);
      const { view, check } = await checkRetention(page);
      const rows = check.getByRole('row').filter({ hasText: 'Keeps everything' });
      // One row per provider the registry declares.
      expect(await rows.count()).toBe(PROVIDER_IDS.length);
      expect(await check.getByRole('status').innerText()).toContain('keeps everything: nothing would be removed');
      expect(await view.getByRole('button', { name: /^Remove/ }).count()).toBe(0);
      expect(partsByAge(steward.home).old).toBe(1);
      expect(problems).toEqual([]);
    } finally {
      await browser.close();
      await steward.stop({ check: false });
    }
  });
});

describe('saving a retention window in Settings', () => {
  it('counts what the window would remove and asks first; Escape saves nothing, Yes saves it', async () => {
    const roots = makeTempDir('steward-e2e-retention-save-');
    const claude = join(roots.dir, 'claude');
    const now = Date.now();
    session(claude, 'last-week', [new Date(now - 10 * DAY_MS), new Date(now - 10 * DAY_MS + 1000)]);
    session(claude, 'today', [new Date(now - 60_000)]);
    const steward = await startServe({ claudeRoots: [claude] });
    const browser = await launchChromium();
    try {
      await eventually('the start-up sweep imports both', async () => ((await steward.rpc('Cache.Stats', {})).conversations === 2 ? true : undefined));
      const { page, problems } = await openPanel(browser, steward);
      await goToPlace(page, 'Settings');
      const form = page.getByRole('form', { name: 'Importing conversations' });
      const days = form.getByLabel('Retention window, in days');
      await days.fill('5');
      await form.getByRole('button', { name: 'Save import settings' }).click();
      const question = form.getByTestId('retention-window-confirm');
      await question.waitFor();
      expect(await question.innerText()).toContain('Save a retention window of 5 days? When Steward next starts (and every day after), it removes from its cache what is older than the window: 1 conversation entirely, 2 messages in all.');
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Cancel');
      await page.keyboard.press('Escape');
      expect(await question.count()).toBe(0);
      expect(existsSync(join(steward.home, 'config.json'))).toBe(false);

      await form.getByRole('button', { name: 'Save import settings' }).click();
      await question.getByRole('button', { name: 'Yes, save it and remove them at the next start' }).click();
      await eventually('the window is saved', async () => (existsSync(join(steward.home, 'config.json')) ? true : undefined));
      expect(JSON.parse(readFileSync(join(steward.home, 'config.json'), 'utf8'))).toMatchObject({ query: { cache: { retention: { default_days: 5 } } } });
      // Saving removed nothing yet: the window acts from the next start.
      expect((await steward.rpc('Cache.Stats', {})).conversations).toBe(2);
      expect(problems).toEqual([]);
    } finally {
      await browser.close();
      await steward.stop({ check: false });
    }
  });

  it('says a refused window in plain words, its code and key only under Details, and a corrected value clears it', async () => {
    const roots = makeTempDir('steward-e2e-retention-refused-');
    const claude = join(roots.dir, 'claude');
    session(claude, 'last-month', [new Date(Date.now() - 40 * DAY_MS)]);
    const steward = await startServe({ claudeRoots: [claude] });
    const browser = await launchChromium();
    try {
      await eventually('the start-up sweep imports it', async () => ((await steward.rpc('Cache.Stats', {})).conversations === 1 ? true : undefined));
      const { page, problems } = await openPanel(browser, steward);
      await goToPlace(page, 'Settings');
      const form = page.getByRole('form', { name: 'Importing conversations' });
      const days = form.getByLabel('Retention window, in days');
      const save = form.getByRole('button', { name: 'Save import settings' });
      const fieldError = form.getByText('This must be at least 0 days.');

      await days.fill('-5');
      await save.click();
      await fieldError.waitFor();
      const refusal = form.getByRole('alert');
      expect(await refusal.innerText()).toContain('Not saved: fix what is marked above. Nothing changed.');
      // Plain words: the dotted key and the error code are not said, until Details is opened for a report.
      const said = await form.innerText();
      for (const jargon of ['query.cache.retention.default_days', 'config_invalid', 'Code:']) expect(said).not.toContain(jargon);
      await refusal.getByText('Details').click();
      expect(await refusal.innerText()).toContain('Code: config_invalid');
      expect(existsSync(join(steward.home, 'config.json'))).toBe(false);

      // A corrected window that would remove something stops at the question: the refusal is gone from beside it.
      await days.fill('30');
      await save.click();
      const question = form.getByTestId('retention-window-confirm');
      await question.waitFor();
      expect(await fieldError.count()).toBe(0);
      expect(await form.getByRole('alert').count()).toBe(0);
      expect(await days.getAttribute('aria-invalid')).toBeNull();
      await page.keyboard.press('Escape');

      // Refused again, then put back to the saved window (nothing to save): the refusal goes too.
      await days.fill('-5');
      await save.click();
      await fieldError.waitFor();
      await days.fill('365');
      await save.click();
      await fieldError.waitFor({ state: 'detached' });
      expect(await form.getByRole('alert').count()).toBe(0);
      expect(existsSync(join(steward.home, 'config.json'))).toBe(false);
      expect(problems).toEqual([]);
    } finally {
      await browser.close();
      await steward.stop({ check: false });
    }
  });
});
