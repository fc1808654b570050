import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeForge } from '../support/fake-forge.js';
import { eventually, goToPlace, launchChromium, makeTempDir, openPanel, runSteward, screenshotPath, startServe, stewardEnv, type ServedSteward } from './harness.js';

const TOKEN = 'ghp_E2eSetupFakeForgeToken0123456789abcd';
/** More issues than one tail window reads (10 pages of 100), so history takes two passes: `backfilling`, then `ready`. */
const ISSUES = 1_150;

/** Every state the card showed, sampled while waiting for the last one. */
async function statesUntil(card: Locator, last: string, seen: string[], timeoutMs = 60_000): Promise<string[]> {
  await eventually(`the registration reaches ${last} (seen: ${seen.join(' → ')})`, async () => {
    const state = await card.getAttribute('data-state');
    if (state && seen.at(-1) !== state) seen.push(state);
    return state === last ? state : undefined;
  }, timeoutMs);
  return seen;
}

async function check(page: Page, label: string, checked: boolean): Promise<void> {
  const box = page.getByTestId('setup-form').getByRole('checkbox', { name: label, exact: true });
  if ((await box.isChecked()) !== checked) await box.click();
}

describe('the Maintenance place: add a repository, confirm its plan, change its policy', () => {
  let steward: ServedSteward;
  let browser: Browser;
  let forge: FakeForge;
  let base: string;

  beforeAll(async () => {
    forge = new FakeForge({ shape: 'github', token: TOKEN });
    base = await forge.start();
    for (let i = 1; i <= ISSUES; i += 1) forge.add('issue', { title: i === 7 ? 'Sync crashes when the rate limit is exceeded' : `Issue number ${i}` });
    steward = await startServe({
      env: { GITHUB_TOKEN: TOKEN },
      // The owner's own timer carries the backfill on; a short interval keeps the test short.
      prepareHome: (home) => writeFileSync(join(home, 'config.json'), JSON.stringify({ maintenance: { reconcile_interval_ms: 4_000 } })),
    });
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await steward?.stop({ check: false });
    await forge?.stop();
  });

  it('plans in plain words, re-plans a stale plan, applies exactly the confirmed one, shows it backfill then be ready, and changes its policy in place', async () => {
    const { page, problems } = await openPanel(browser, steward);
    await goToPlace(page, 'Maintenance');
    await page.getByRole('button', { name: 'Add repository' }).click();
    const form = page.getByTestId('setup-form');
    await form.getByLabel('Repository (OWNER/NAME)').fill('acme/widgets');
    await form.getByLabel('API address (optional)').fill(base);
    for (const label of ['Issue comments', 'Pull requests', 'Pull request comments', 'Wiki']) await check(page, label, false);
    await check(page, 'Index for search (RAG)', true);
    // Start at login is off until the person turns it on, here as in the README and Home's step 5.
    const login = form.getByRole('checkbox', { name: 'Start Steward when I log in', exact: true });
    expect(await login.isChecked()).toBe(false);
    expect(await form.getByTestId('profile-boundary').innerText()).toContain('nothing leaves this computer');
    await form.getByRole('button', { name: 'Show the plan' }).click();
    const plan = page.getByTestId('setup-plan');
    await plan.waitFor();
    expect(await plan.innerText()).toContain(`Creates a new repository cache for ${new URL(base).host}/acme/widgets`);
    expect(await plan.innerText()).not.toContain('start at login');
    // Turned on (which sets the plan aside), the plan says so and asks for the person's confirmation.
    await login.check();
    await plan.waitFor({ state: 'detached' });
    await form.getByRole('button', { name: 'Show the plan' }).click();
    await plan.waitFor();
    expect(await plan.getAttribute('data-status')).toBe('confirmation_required');
    const words = await plan.innerText();
    expect(words).toContain(`Creates a new repository cache for ${new URL(base).host}/acme/widgets`);
    expect(words).toContain("Changes to Steward's settings");
    expect(words).toContain('Services on this computer');
    expect(words).toMatch(/Turns on start at login.*needs your confirmation/);
    expect(words).toContain('Reads older history in bounded windows');
    expect(words).toContain('Indexes the cache with profile default (hash, hash-ngram) after each sync.');
    expect(words).toContain('data boundary local_process — nothing leaves this computer');
    expect(words).not.toContain('Where repository text goes');
    expect(words).not.toContain('Starts Steward in the background');
    expect(existsSync(join(steward.home, 'managed-caches.json'))).toBe(false);
    await page.screenshot({ path: screenshotPath('setup-plan.png'), fullPage: true });
    // The form and its plan are usable with a keyboard and a screen reader.
    const axe = await new AxeBuilder({ page }).include('main').analyze();
    expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);

    // Start at login changes under the plan: Confirm applies nothing and asks to plan again.
    await steward.rpc('Settings.SetStartAtLogin', { enabled: true });
    await page.getByRole('button', { name: 'Confirm' }).click();
    const stale = page.getByTestId('setup-stale');
    await stale.waitFor();
    expect(await stale.innerText()).toContain('The plan is out of date');
    expect((await steward.rpc('Maintenance.List', {})).registrations).toEqual([]);
    await stale.getByRole('button', { name: 'Plan again' }).click();
    await plan.waitFor();
    expect(await plan.innerText()).not.toContain('start at login');
    await page.getByRole('button', { name: 'Confirm' }).click();
    const done = page.getByTestId('setup-done');
    await done.waitFor();
    expect(await done.innerText()).toContain(`Added ${new URL(base).host}/acme/widgets`);

    const card = page.getByTestId('registration');
    await card.waitFor();
    const seen: string[] = [];
    await statesUntil(card, 'backfilling', seen);
    await statesUntil(card, 'ready', seen);
    expect(seen).toContain('backfilling');
    expect(seen.indexOf('backfilling')).toBeLessThan(seen.indexOf('ready'));
    const [registration] = (await steward.rpc('Maintenance.List', {})).registrations;
    expect(registration).toMatchObject({ canonicalRepoId: `${new URL(base).host}/acme/widgets`, enabled: true, policy: { sync: 'head-and-backfill', collections: ['issues'], rag: 'maintain' } });
    expect(registration!.collections[0]).toMatchObject({ items: ISSUES, tail: { state: 'complete' } });
    expect(await card.innerText()).toContain('Every collection is current and its history complete.');

    // Search it, as the card offers once it is indexed.
    const search = page.getByRole('region', { name: `Search ${new URL(base).host}/acme/widgets` });
    await page.getByRole('searchbox', { name: `Search ${new URL(base).host}/acme/widgets` }).fill('rate limit exceeded');
    await search.getByRole('button', { name: 'Search' }).click();
    const hits = page.getByTestId('search-hits');
    await hits.waitFor();
    expect(await hits.getByRole('listitem').first().getByRole('link').innerText()).toBe('Sync crashes when the rate limit is exceeded');

    // Change policy: the same registration, updated in place; never a second record or a conflict.
    await page.getByRole('region', { name: `${new URL(base).host}/acme/widgets`, exact: true }).getByRole('button', { name: 'Change policy' }).click();
    await form.getByLabel('Keep in sync').selectOption('head');
    await form.getByRole('button', { name: 'Show the plan' }).click();
    await plan.waitFor();
    expect(await plan.innerText()).toContain(`Changes what is synced for ${new URL(base).host}/acme/widgets from recent changes and all history to recent changes only.`);
    await page.getByRole('button', { name: 'Confirm' }).click();
    await eventually('the change is confirmed', async () => ((await done.innerText()).startsWith('Changed') ? true : undefined));
    const after = await steward.rpc('Maintenance.List', {});
    expect(after.conflicts).toEqual([]);
    expect(after.registrations).toHaveLength(1);
    expect(after.registrations[0]).toMatchObject({ registrationId: registration!.registrationId, enabled: true, policy: { sync: 'head' } });
    // Recent changes only: ready never claims the history complete.
    await eventually('the card says what the new policy keeps', async () => ((await card.innerText()).includes('Recent changes are current; older history is not read under this policy.') ? true : undefined));
    expect(await done.innerText()).toBe(`Changed ${new URL(base).host}/acme/widgets: it syncs now under this policy.`);

    // Pause and resume.
    const region = page.getByRole('region', { name: `${new URL(base).host}/acme/widgets`, exact: true });
    await region.getByRole('button', { name: 'Pause' }).click();
    await statesUntil(card, 'disabled', []);
    await region.getByRole('button', { name: 'Resume' }).click();
    await eventually('the registration runs again', async () => ((await card.getAttribute('data-state')) !== 'disabled' ? true : undefined));
    expect((await steward.rpc('Maintenance.List', {})).registrations[0]!.enabled).toBe(true);

    const main = await page.locator('main').innerText();
    for (const secret of [TOKEN, base, steward.home]) expect(main).not.toContain(secret);
    await page.screenshot({ path: screenshotPath('setup-after-change.png'), fullPage: true });
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('shows a plan an agent left waiting, which a person reviews and confirms', async () => {
    // An agent's apply that needs a person (start at login, now off again) waits in the owner.
    await steward.rpc('Settings.SetStartAtLogin', { enabled: false });
    const request = { repo: 'acme/gadgets', baseUrl: base, policy: { sync: 'head' as const, collections: ['issues' as const] } };
    const agentPlan = await steward.rpc('Maintenance.Plan', request);
    await expect(steward.rpc('Maintenance.Apply', { ...request, planId: agentPlan.planId, idempotencyKey: 'agent-1', confirmedBy: 'agent' })).rejects.toMatchObject({ code: 'confirmation_required' });
    const { page, problems } = await openPanel(browser, steward);
    await goToPlace(page, 'Maintenance');
    const waiting = page.getByTestId('waiting-plan');
    await waiting.waitFor();
    expect(await waiting.innerText()).toContain(`An agent asked Steward to maintain ${new URL(base).host}/acme/gadgets`);
    await waiting.getByRole('button', { name: 'Review the plan' }).click();
    await page.getByTestId('setup-form').getByRole('button', { name: 'Show the plan' }).click();
    await page.getByTestId('setup-plan').waitFor();
    await page.getByRole('button', { name: 'Confirm' }).click();
    await page.getByTestId('setup-done').waitFor();
    await eventually('the waiting plan is settled', async () => ((await page.getByTestId('waiting-plan').count()) === 0 ? true : undefined));
    expect((await steward.rpc('Settings.GetStartAtLogin', {})).enabled).toBe(true);
    expect((await steward.rpc('Maintenance.List', {})).registrations.map((r) => r.canonicalRepoId).sort()).toEqual([`${new URL(base).host}/acme/gadgets`, `${new URL(base).host}/acme/widgets`]);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('in a terminal, enable starts Steward in the background when none runs, and stop stops it', async () => {
    const home = makeTempDir('steward-e2e-enable-').dir;
    const env = stewardEnv(home, { env: { GITHUB_TOKEN: TOKEN } });
    const args = ['maintenance', 'enable', '--repo', 'acme/widgets', '--base-url', base, '--collections', 'issues', '--sync', 'head', '--no-service-install'];
    try {
      const refused = await runSteward([...args, '--json'], env);
      expect(refused.code).toBe(1);
      expect(JSON.parse(refused.stdout).error.code).toBe('confirmation_required');
      const enabled = await runSteward([...args, '--yes', '--idempotency-key', 'terminal-1', '--json'], env, 60_000);
      // With --json on stdout, the one line about the started Steward goes to stderr.
      expect(enabled.stderr).toMatch(/^Started Steward in the background \(pid \d+\); it keeps the cache current after this command ends, and `steward stop` stops it\.\n$/);
      expect(enabled.code).toBe(0);
      const out = JSON.parse(enabled.stdout) as { plan: { effects: Array<{ description: string }> }; applied: { enrollment: { created: boolean }; status: string }; started_in_background?: boolean };
      expect(out.started_in_background).toBe(true);
      expect(out.plan.effects.map((e) => e.description)).toContain('Starts Steward in the background (`steward serve`) so the cache keeps itself current after this command ends; `steward stop` stops it.');
      expect(out.applied.enrollment.created).toBe(true);
      const info = JSON.parse((await runSteward(['info', '--json'], env)).stdout) as { via: string; url?: string };
      expect(info.via).toBe('owner');
      expect(info.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#token=/);
      const replay = JSON.parse((await runSteward([...args, '--yes', '--idempotency-key', 'terminal-1', '--json'], env)).stdout) as { applied: { enrollment: { replayed: boolean } } };
      expect(replay.applied.enrollment.replayed).toBe(true);
    } finally {
      const stopped = await runSteward(['stop'], env, 60_000);
      expect(stopped.stdout).toMatch(/^(Stopped Steward \(pid \d+\)|Steward is not running)\.\n$/);
    }
    expect(existsSync(join(home, 'daemon.json'))).toBe(false);
    expect((await runSteward(['stop', '--json'], env)).stdout).toContain('"running": false');
  });
});
