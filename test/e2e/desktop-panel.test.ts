import { copyFileSync, existsSync, mkdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type axe from 'axe-core';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRepositoryCache } from '../../core/maintenance/index.js';
import { FakeModelServer } from '../integration/sweeper/fake-models.js';
import { claudeLine, claudeSession, openclawLines, writeJsonl } from '../support/transcripts.js';
import { besidesOwnerGone, docsScreenshotPath, eventually, goToPlace, launchChromium, makeTempDir, openPanel, runSteward, startServe, stewardEnv, type ServedSteward } from './harness.js';

/**
 * The panel of the desktop experience (issue 16), end to end in Chromium against the built owner:
 * the first run on a fixture tree, the status bar through working, error, disconnected and back,
 * settings that round-trip through config.json, projects by address, axe on every place, and the
 * README's screenshots.
 */
const DAY_MS = 86_400_000;
const YESTERDAY = new Date(Date.now() - DAY_MS);

/** Waits until the focused element says `text` (focus follows a render, not the navigation that caused it). */
async function focusOn(page: Page, text: string): Promise<void> {
  const focused = () => page.evaluate(() => document.activeElement?.textContent ?? null);
  let last: string | null = null;
  await eventually(() => `the focus is on "${text}" (it is on "${last}")`, async () => ((last = await focused()) === text ? true : undefined), 5_000);
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A Claude Code transcript whose file is as old as its lines (the listing dates files by their last change). */
function oldSession(root: string, id: string, cwd: string, daysAgo: number): void {
  const at = new Date(Date.now() - daysAgo * DAY_MS);
  const file = join(root, 'projects', `-work-${id}`, `${id}.jsonl`);
  writeJsonl(file, [claudeLine({ sessionId: id, cwd, ts: at, text: `An old request ${id}` }), claudeLine({ sessionId: id, cwd, ts: new Date(at.getTime() + 1000), type: 'assistant', text: 'An old answer' })]);
  utimesSync(file, at, at);
}

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * Serious and critical violations only; each named with its rule, help and where. axe is injected
 * once per page (the panel changes views without reloading) and asked for violations alone.
 */
async function axeProblems(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  const results = await page.evaluate(() => (window as unknown as { axe: typeof axe }).axe.run(document, { resultTypes: ['violations'] }));
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`);
}

describe('first run on a fixture tree', () => {
  let steward: ServedSteward;
  let browser: Browser;

  beforeAll(async () => {
    const roots = makeTempDir('steward-e2e-first-run-');
    const claude = join(roots.dir, 'claude');
    for (let i = 0; i < 3; i += 1) claudeSession(claude, `recent-${i}`, 4, { cwd: '/work/orchard', ts: YESTERDAY });
    oldSession(claude, 'ancient-a', '/work/old-site', 400);
    oldSession(claude, 'ancient-b', '/work/old-site', 500);
    steward = await startServe({ claudeRoots: [claude] });
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await steward?.stop({ check: false });
  });

  it('shows what the folders hold and what the window imported, imports the rest on Everything, and is done when the person says so', async () => {
    // Capture starts at once with the default window: the three recent conversations, not the two old ones.
    await eventually('the start-up import settles', async () => ((await steward.rpc('Cache.Stats', {})).conversations === 3 ? true : undefined));
    const { page, problems } = await openPanel(browser, steward, { context: { viewport: { width: 1280, height: 900 } } });
    const firstRun = page.getByTestId('first-run');
    await firstRun.waitFor();

    // The listing's numbers match what was imported: 5 files, 2 of them older than the window; 3 conversations in.
    const listing = page.getByTestId('first-run-listing');
    await listing.waitFor();
    expect(await listing.getAttribute('data-files')).toBe('5');
    expect(await listing.getAttribute('data-older')).toBe('2');
    expect(await listing.innerText()).toContain('5 transcript files');
    expect(await listing.innerText()).toContain('2 files are entirely older than the window');
    const stored = page.getByTestId('first-run-stored');
    await eventually('the imported figures show', async () => ((await stored.getAttribute('data-conversations')) === '3' ? true : undefined));
    expect(await stored.innerText()).toBe('Imported so far: 3 conversations with 12 messages, from 1 project.');
    // Where it looked: the fixture root, found.
    expect(await firstRun.getByTestId('watched').innerText()).toContain('Found');
    // The curator is offered offline by default, each data boundary said.
    const curator = firstRun.getByRole('form', { name: 'Project notes curator' });
    expect(await curator.getByRole('radio', { name: 'Offline (no model)' }).isChecked()).toBe(true);
    expect(await curator.innerText()).toContain('Nothing leaves this computer.');
    expect(await firstRun.getByRole('button', { name: 'Copy MCP setup command' }).count()).toBe(1);
    await page.screenshot({ path: docsScreenshotPath('first-run.png'), fullPage: true });

    // Everything imports the rest, with a result that says so.
    const importer = page.getByTestId('first-run-import');
    expect(await importer.innerText()).toMatch(/also import the 2 older files/);
    await importer.getByRole('radio', { name: /^Everything/ }).check();
    await importer.getByRole('button', { name: 'Import everything' }).click();
    await page.getByTestId('first-run-imported').waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('first-run-imported').innerText()).toBe('Imported 4 new messages; 5 files read.');
    expect((await steward.rpc('Cache.Stats', {})).conversations).toBe(5);
    await eventually('the figures follow', async () => ((await stored.getAttribute('data-conversations')) === '5' ? true : undefined));

    await firstRun.getByRole('button', { name: 'Done' }).click();
    await firstRun.waitFor({ state: 'detached' });
    expect((await steward.rpc('App.FirstRun', {})).done).toBe(true);
    // Home without the first run: the agents watched stand on their own.
    await page.getByTestId('watched').waitFor();
    expect(problems).toEqual([]);
    await page.context().close();
  });
});

describe('first run on history copied without its file times', () => {
  let steward: ServedSteward;
  let browser: Browser;

  beforeAll(async () => {
    // A 2025 Codex rollout and a 2025 OpenClaw session, copied as a restore without `cp -p` does: the
    // files are dated today, their lines keep their 2025 times (more than a year ago).
    const roots = makeTempDir('steward-e2e-first-run-copied-');
    const fixtures = fileURLToPath(new URL('../fixtures/transcripts/', import.meta.url));
    const rollout = 'rollout-2025-08-20T11-12-03-5a3f1c2e-8b4d-4e6f-9a1b-2c3d4e5f6a7b.jsonl';
    const codex = join(roots.dir, 'codex');
    const openclaw = join(roots.dir, 'openclaw');
    mkdirSync(join(codex, 'sessions', '2025', '08', '20'), { recursive: true });
    mkdirSync(join(openclaw, 'agents', 'main', 'sessions'), { recursive: true });
    copyFileSync(join(fixtures, 'codex', rollout), join(codex, 'sessions', '2025', '08', '20', rollout));
    copyFileSync(join(fixtures, 'attack', 'openclaw-v1-screenshot.jsonl'), join(openclaw, 'agents', 'main', 'sessions', 'openclaw-v1-screenshot.jsonl'));
    steward = await startServe({ codexRoots: [codex], openclawRoots: [openclaw] });
    browser = await launchChromium();
    await eventually('the start-up sweep settles', async () => ((await steward.rpc('Telemetry.Recent', { kind: 'sweep.tick' })).entries.length > 0 ? true : undefined));
  });

  afterAll(async () => {
    await browser?.close();
    await steward?.stop({ check: false });
  });

  it('says the messages are older than the window though their files are new, offers them, and imports them on Everything', async () => {
    const { page, problems } = await openPanel(browser, steward);
    const listing = page.getByTestId('first-run-listing');
    await listing.waitFor();
    // No file is older than the window by its date; 9 messages are by theirs, and the import left them out.
    expect(await listing.getAttribute('data-older')).toBe('0');
    expect(await listing.getAttribute('data-older-messages')).toBe('9');
    expect(await listing.innerText()).toContain('2 transcript files');
    // Nothing imported yet: the dates are said to be the files' (today's, for a copy).
    const rows = () => listing.locator('tbody tr').allInnerTexts();
    expect((await rows()).every((row) => row.includes('files dated'))).toBe(true);
    expect(await listing.innerText()).toContain(
      'every one was last changed within the window, but up to 9 messages in them are older than the window and were not imported (a message copied into several files, as a resumed conversation carries the one it resumed, counts in each).',
    );
    const importer = page.getByTestId('first-run-import');
    expect(await importer.innerText()).toContain('Everything: also import up to 9 older messages in files changed within the window');
    expect(await importer.innerText()).not.toContain('all there is has been imported');

    await importer.getByRole('radio', { name: /^Everything/ }).check();
    await importer.getByRole('button', { name: 'Import everything' }).click();
    await page.getByTestId('first-run-imported').waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('first-run-imported').innerText()).toMatch(/^Imported \d+ new messages; 2 files read\./);
    // Nothing older is left: the listing and the choice say so, and nothing more is offered.
    await eventually('the listing follows', async () => ((await listing.getAttribute('data-older-messages')) === '0' ? true : undefined));
    // The messages imported are older than the window by their own dates: said so, with the first one's day.
    expect(await listing.innerText()).toMatch(/every one was last changed within the window, but Steward holds messages older than the window \(from \w{3} \d{1,2}, 2025\): the window goes by each message's own date, not its file's/);
    // Imported, each agent's dates are its messages': 2025, not the day of the copy (one day is said once).
    await eventually('the dates are the messages’', async () => ((await rows()).every((row) => /messages imported: \w{3} \d{1,2}, 2025(?: – \w{3} \d{1,2}, 2025)?(?!\d)/.test(row)) ? true : undefined));
    expect((await rows()).length).toBe(2);
    expect(await importer.innerText()).toMatch(/Everything: no file is older than the window, and Steward already holds messages older than it \(from \w{3} \d{1,2}, 2025\), so all there is has been imported/);
    expect(await importer.getByRole('button', { name: 'Import everything' }).count()).toBe(0);
    expect(problems).toEqual([]);
    await page.context().close();
  });
});

describe('first run with a 90-day window', () => {
  let steward: ServedSteward;
  let browser: Browser;

  beforeAll(async () => {
    const roots = makeTempDir('steward-e2e-first-run-90-');
    const claude = join(roots.dir, 'claude');
    for (let i = 0; i < 2; i += 1) claudeSession(claude, `recent-${i}`, 4, { cwd: '/work/orchard', ts: YESTERDAY });
    // Older than 90 days, younger than the default year: only a window other than the default leaves them out.
    oldSession(claude, 'spring-a', '/work/old-site', 120);
    oldSession(claude, 'spring-b', '/work/old-site', 200);
    // A second agent with a single file, so the bar's per-agent line says "1 of 1 file".
    const openclaw = join(roots.dir, 'openclaw');
    writeJsonl(join(openclaw, 'agents', 'main', 'sessions', 'hdr-1.jsonl'), openclawLines('hdr-1', [{ id: 'aaaa0001' }, { id: 'aaaa0002', role: 'assistant' }]));
    steward = await startServe({
      claudeRoots: [claude],
      openclawRoots: [openclaw],
      prepareHome: (home) => writeFileSync(join(home, 'config.json'), JSON.stringify({ query: { cache: { retention: { default_days: 90 } } } })),
    });
    browser = await launchChromium();
    await eventually('the start-up import settles', async () => ((await steward.rpc('Cache.Stats', {})).conversations === 3 ? true : undefined));
  });

  afterAll(async () => {
    await browser?.close();
    await steward?.stop({ check: false });
  });

  it('names the configured window, not the default year', async () => {
    const { page, problems } = await openPanel(browser, steward);
    const intro = page.getByTestId('first-run').getByText(/^Steward started importing/);
    await intro.waitFor();
    let said = '';
    await eventually(() => `the window is named (it says: ${said})`, async () => ((said = await intro.innerText()).includes('as soon as it started, from the last 90 days:') ? true : undefined), 5_000);
    expect(said).not.toContain('last year');
    expect(await page.getByTestId('first-run-listing').getAttribute('data-older')).toBe('2');
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('offers start at login, off until the person turns it on, and the owner and Settings follow', async () => {
    const { page, problems } = await openPanel(browser, steward);
    const firstRun = page.getByTestId('first-run');
    await firstRun.waitFor();

    // Start at login: offered here, off, and said what it does on this system.
    const autostart = join(steward.env.XDG_CONFIG_HOME!, 'autostart', 'steward.desktop');
    expect(autostart.startsWith(steward.home)).toBe(true);
    const login = firstRun.getByTestId('start-at-login');
    await login.waitFor({ timeout: 5_000 });
    const box = login.getByRole('checkbox', { name: 'Start Steward when I log in' });
    expect(await box.isChecked()).toBe(false);
    expect(await login.innerText()).toContain('through an autostart file (steward.desktop in your autostart folder)');
    expect(await login.innerText()).toContain('Off unless you turn it on.');
    expect((await steward.rpc('Settings.GetStartAtLogin', {})).enabled).toBe(false);
    expect(existsSync(autostart)).toBe(false);

    // The box shows the owner's answer, so it turns on once the owner has written the file.
    await box.click();
    await eventually('the owner starts at login', async () => ((await steward.rpc('Settings.GetStartAtLogin', {})).enabled ? true : undefined));
    await eventually('the box follows', async () => ((await box.isChecked()) ? true : undefined));
    // The test's home is not the default one, so the entry names it: at login Steward serves this home.
    expect(readFileSync(autostart, 'utf8')).toMatch(/^Exec=.*steward\.js serve --home \S+$/m);
    // Settings shows the same answer, and turning it off there removes the file.
    await goToPlace(page, 'Settings');
    const setting = page.getByTestId('start-at-login').getByRole('checkbox', { name: 'Start Steward when I log in' });
    await eventually('Settings shows it on', async () => ((await setting.isChecked()) ? true : undefined));
    await setting.click();
    await eventually('the owner no longer starts at login', async () => ((await steward.rpc('Settings.GetStartAtLogin', {})).enabled ? undefined : true));
    expect(existsSync(autostart)).toBe(false);
    await eventually('the box follows', async () => ((await setting.isChecked()) ? undefined : true));
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('estimates the rest, shows the import with a progress bar, and saves a narrower window', async () => {
    const { page, problems } = await openPanel(browser, steward);
    const importer = page.getByTestId('first-run-import');
    await importer.waitFor();
    // The estimate comes from the pace of the start-up import, once its tick has been recorded.
    // The import reads every file (the newer ones may hold older messages), and the estimate says so.
    const estimated = /Everything: also import the 2 older files \([\d.]+ (bytes|KB)\), reading all 5 files, about \d+(\.\d)? (ms|s)\b/;
    await eventually('the estimate', async () => (estimated.test(await importer.innerText()) ? true : undefined));
    expect(await importer.innerText()).toContain('how far back Steward imports on its own: the last 90 days now.');
    // Narrower than 90 days: only the 30-day window is offered.
    expect(await importer.getByRole('radio', { name: /^Only the last/ }).count()).toBe(1);

    // The answer to the import is held until the bar has been read, so the bar is seen at its end.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let held = false;
    await page.route('**/rpc', async (route) => {
      if ((route.request().postDataJSON() as { method?: string }).method !== 'Backfill.Run') return route.continue();
      held = true;
      const response = await route.fetch();
      await released;
      await route.fulfill({ response });
    });
    await importer.getByRole('radio', { name: /^Everything/ }).check();
    await importer.getByRole('button', { name: 'Import everything' }).click();
    const progress = page.getByTestId('import-progress');
    await progress.waitFor();
    expect(await importer.getByRole('button', { name: 'Importing…' }).isDisabled()).toBe(true);
    expect(await importer.getByRole('button', { name: 'Cancel' }).count()).toBe(1);
    const bar = progress.getByRole('progressbar', { name: 'Import progress' });
    expect(await bar.getAttribute('max')).toBe('5');
    await eventually('the bar reaches the end from the owner\'s progress', async () => ((await bar.getAttribute('value')) === '5' ? true : undefined));
    expect(await progress.locator('p').innerText()).toBe('5 of 5 files');
    const perAgent = await progress.locator('li').allInnerTexts();
    expect(perAgent).toContain('Claude: 4 of 4 files');
    expect(perAgent).toContain('OpenClaw: 1 of 1 file');
    expect(held).toBe(true);
    release();
    await page.getByTestId('first-run-imported').waitFor({ timeout: 30_000 });
    await page.unroute('**/rpc');
    // OpenClaw's session header and model change are bookkeeping, counted rather than dropped.
    expect(await page.getByTestId('first-run-imported').innerText()).toBe('Imported 4 new messages; 5 files read. 2 lines held no conversation: 2 bookkeeping.');
    expect(await progress.count()).toBe(0);
    expect((await steward.rpc('Cache.Stats', {})).conversations).toBe(5);

    await importer.getByRole('radio', { name: /^Only the last 30 days/ }).check();
    // The conversations just imported are older than 30 days: what the window would remove is counted and asked first.
    await importer.getByRole('button', { name: 'Save the narrower window' }).click();
    const question = importer.getByTestId('retention-window-confirm');
    await question.waitFor();
    expect(await question.innerText()).toMatch(/Save a retention window of 30 days\? .* it removes from its cache what is older than the window: \d+ conversations? entirely/);
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Cancel');
    await question.getByRole('button', { name: 'Cancel' }).click();
    expect(await question.count()).toBe(0);
    // The focus goes back to the choice the question was about.
    await eventually('the choice takes the focus', async () => ((await page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.parentElement?.textContent ?? '')).startsWith(' Only the last 30 days') ? true : undefined));
    // Cancelled: the window stays the 90 days it was.
    expect(JSON.parse(readFileSync(join(steward.home, 'config.json'), 'utf8'))).toEqual({ query: { cache: { retention: { default_days: 90 } } } });
    await importer.getByRole('button', { name: 'Save the narrower window' }).click();
    await question.getByRole('button', { name: 'Yes, save it and remove them at the next start' }).click();
    await importer.getByText('Saved: from the next start Steward keeps the last 30 days.').waitFor();
    expect(JSON.parse(readFileSync(join(steward.home, 'config.json'), 'utf8'))).toEqual({ query: { cache: { retention: { default_days: 30 } } } });
    // Away and back (as after saving it in Settings): Home reads the saved window from the configuration, not from its last save.
    await page.evaluate(() => (window.location.hash = '#/settings'));
    await page.locator('main[data-place="settings"]').waitFor();
    await page.evaluate(() => (window.location.hash = '#/home'));
    await importer.getByText('Saved: from the next start Steward keeps the last 30 days.').waitFor();
    expect(await importer.getByRole('radio', { name: /^Only the last 30 days/ }).isChecked()).toBe(true);
    expect(await importer.getByRole('radio', { name: /^Everything/ }).isChecked()).toBe(false);
    expect(await importer.locator('label', { has: page.getByRole('radio', { name: /^Everything/ }) }).innerText()).toContain('from the next start, the 30-day window you saved removes again what is older than that');
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('axe finds no serious or critical violation on the empty Maintenance and Conflicts places, light and dark', async () => {
    const found: string[] = [];
    for (const colorScheme of ['light', 'dark'] as const) {
      const { page, problems } = await openPanel(browser, steward, { context: { colorScheme } });
      for (const place of ['maintenance', 'conflicts']) {
        await page.evaluate((hash) => (window.location.hash = hash), `#/${place}`);
        await page.locator(`main[data-place="${place}"] [data-testid="empty-state"]`).waitFor();
        found.push(...(await axeProblems(page)).map((p) => `${colorScheme} ${place}: ${p}`));
      }
      expect(problems).toEqual([]);
      await page.context().close();
    }
    expect(found).toEqual([]);
  });
});

describe('the status bar through working, error, disconnected and reconnected', () => {
  it('names the curation at work, its failure with the host it tried, the lost owner, and the new one', async () => {
    const home = makeTempDir('steward-e2e-status-');
    const roots = makeTempDir('steward-e2e-status-roots-');
    const claude = join(roots.dir, 'claude');
    claudeSession(claude, 'orchard-1', 4, { cwd: '/work/orchard', ts: YESTERDAY });
    const model = await new FakeModelServer().start();
    // Slow enough to see the work, then a server error (retried twice, then failed).
    model.script({ delayMs: 700, status: 500, body: { error: { message: 'boom', type: 'server_error', param: null, code: null } } });
    const port = await freePort();
    const first = await startServe({ home: home.dir, claudeRoots: [claude], args: ['--port', String(port)] });
    const browser = await launchChromium();
    let second: ServedSteward | undefined;
    try {
      await first.rpc('Backfill.Run', {});
      const [project] = (await first.rpc('Projects.List', {})).projects;
      await first.rpc('Settings.SetCurator', { curator: 'openai-compatible', model: 'llama3.2', baseUrl: `${model.url}/v1` });
      const { page, problems } = await openPanel(browser, first);
      const bar = page.getByTestId('status-bar');
      await page.locator('[data-testid="status-bar"][data-state="idle"]').waitFor();

      const run = first.rpc('Sweeper.Run', { projectKey: project!.projectKey, force: true }).catch((error: unknown) => error);
      await page.locator('[data-testid="status-bar"][data-state="working"]').waitFor({ timeout: 10_000 });
      expect(await page.getByTestId('status-message').innerText()).toBe('Curating notes for orchard');

      await page.locator('[data-testid="status-bar"][data-state="error"]').waitFor({ timeout: 20_000 });
      expect(await page.getByTestId('status-message').innerText()).toBe(`Curating notes for orchard failed: The model endpoint at ${new URL(model.url).host} answered HTTP 500`);
      expect(await bar.getByRole('link').getAttribute('href')).toBe('#/projects');
      expect(await page.title()).toMatch(/ · Steward — Error$/);
      expect(await run).toMatchObject({ code: 'sweep_failed' });
      // Home lists what failed or needs the person, each a link to where it is dealt with.
      await page.evaluate(() => (window.location.hash = '#/home'));
      const needs = page.getByTestId('needs-you');
      await needs.waitFor();
      expect(await needs.getByRole('link').getAttribute('href')).toBe('#/projects');
      expect(await needs.innerText()).toContain('Notes failed');

      expect(problems).toEqual([]);
      await first.stop();
      await page.locator('[data-testid="status-bar"][data-state="disconnected"]').waitFor({ timeout: 10_000 });
      expect(await page.getByTestId('status-message').innerText()).toBe('Disconnected — reconnecting to Steward…');
      expect(await page.locator('main[data-stale="true"]').count()).toBe(1);

      second = await startServe({ home: home.dir, claudeRoots: [claude], args: ['--port', String(port)] });
      await page.locator('[data-testid="status-bar"][data-connection="open"]').waitFor({ timeout: 20_000 });
      const { status } = await second.rpc('App.Info', {});
      await eventually('the bar shows the new owner', async () => ((await bar.getAttribute('data-state')) === status.state ? true : undefined));
      expect(await page.locator('main[data-stale="true"]').count()).toBe(0);
      expect(besidesOwnerGone(problems)).toEqual([]);
      await page.context().close();
    } finally {
      await browser.close();
      await second?.stop({ check: false });
      await first.stop({ check: false });
      await model.stop();
    }
  });
});

describe('a transcript file Steward cannot read', () => {
  it('warns (not an error) with the count, and names the file under the warning on Home and in Telemetry; the status bar and title hold no path', async () => {
    const roots = makeTempDir('steward-e2e-unreadable-');
    const day = join(roots.dir, 'codex', 'sessions', '2026', '12', '01');
    mkdirSync(day, { recursive: true });
    const cold = readFileSync(fileURLToPath(new URL('../fixtures/transcripts/codex/cold/rollout-2026-07-13T18-41-30-019f5c5a-eb02-7ff0-90af-653b66eba9f4.jsonl.zst', import.meta.url)));
    const broken = join(day, 'rollout-2026-12-01T09-00-00-019fa000-0000-7000-8000-000000000001.jsonl.zst');
    writeFileSync(broken, cold.subarray(0, Math.floor(cold.length / 2)));
    const steward = await startServe({ codexRoots: [join(roots.dir, 'codex')] });
    const browser = await launchChromium();
    try {
      await steward.rpc('Sweep.Tick', {});
      const { page, problems } = await openPanel(browser, steward);
      const text = '1 Codex CLI transcript file could not be read: it is tried again once it changes; Telemetry names it';
      await page.locator('[data-testid="status-bar"][data-state="attention"]').waitFor({ timeout: 10_000 });
      expect(await page.getByTestId('status-message').innerText()).toBe(text);
      expect(await page.title()).toMatch(/ · Steward — Needs you$/);
      expect(await page.getByTestId('status-bar').innerText()).not.toContain('rollout-2026-12-01');

      const needs = page.getByTestId('needs-you');
      await needs.getByTestId('unreadable-files').waitFor();
      expect(await needs.innerText()).toContain('Unreadable file');
      expect(await needs.getByTestId('unreadable-files').innerText()).toContain('rollout-2026-12-01T09-00-00-019fa000-0000-7000-8000-000000000001.jsonl.zst');
      expect(await needs.getByRole('link').getAttribute('href')).toBe('#/telemetry');

      await goToPlace(page, 'Telemetry');
      const panel = page.getByRole('region', { name: 'Files Steward could not read' });
      await panel.waitFor();
      expect((await panel.getByTestId('unreadable-files').innerText()).replace(/\s+/g, '')).toContain(broken.replace(/\s+/g, ''));
      expect(await panel.innerText()).toContain('move it out of the agent');
      // Why, in words, and what to do about a damaged file; the code waits under Details, for a report.
      const listed = panel.getByTestId('unreadable-files');
      expect(await listed.innerText()).toContain('Codex CLI · its contents could not be read · last tried');
      expect(await listed.innerText()).toContain('It may be damaged. Replace it with a good copy');
      expect(await listed.innerText()).not.toContain('read_failed');
      await listed.getByText('Details').click();
      expect(await listed.innerText()).toContain('Code: read_failed');
      expect(await axeProblems(page)).toEqual([]);
      expect(problems).toEqual([]);
      await page.context().close();
    } finally {
      await browser.close();
      await steward.stop({ check: false });
    }
  });
});

describe('a Steward with two projects', () => {
  let steward: ServedSteward;
  let browser: Browser;
  let orchard: string;

  beforeAll(async () => {
    const roots = makeTempDir('steward-e2e-panel-roots-');
    const claude = join(roots.dir, 'claude');
    claudeSession(claude, 'orchard-1', 6, { cwd: '/work/orchard', ts: YESTERDAY });
    writeJsonl(join(claude, 'projects', '-work-meadow', 'meadow-1.jsonl'), [
      claudeLine({ sessionId: 'meadow-1', cwd: '/home/ana/projects/a/rather/long/path/to/the/meadow', ts: new Date(Date.now() - 2 * DAY_MS), text: 'Map the meadow paths' }),
      claudeLine({ sessionId: 'meadow-1', cwd: '/home/ana/projects/a/rather/long/path/to/the/meadow', ts: new Date(Date.now() - 2 * DAY_MS + 1000), type: 'assistant', text: 'Mapped them.' }),
    ]);
    // A repository cache and its copy (as the Conflicts place's test makes them): Maintenance lists a
    // repository and a held one, and Conflicts has one to resolve, so axe sees both places with content.
    const caches = makeTempDir('steward-e2e-panel-caches-').dir;
    const original = join(caches, 'repo.db');
    createRepositoryCache(original, [{ repoId: 'github.com/acme/widgets', aliases: ['acme/widgets'] }]);
    steward = await startServe({
      claudeRoots: [claude],
      prepareHome: async (home) => {
        const env = stewardEnv(home);
        const enroll = (cache: string, key: string) => runSteward(['maintenance', 'enroll', '--cache', cache, '--repo', 'acme/widgets', '--sync', 'off', '--idempotency-key', key, '--json'], env);
        expect((await enroll(original, 'panel-original')).code).toBe(0);
        copyFileSync(original, join(caches, 'repo-copy.db'));
        expect((await enroll(join(caches, 'repo-copy.db'), 'panel-copy')).code).toBe(1);
      },
    });
    browser = await launchChromium();
    await steward.rpc('Backfill.Run', {});
    await steward.rpc('Sweep.Tick', {});
    const { projects } = await steward.rpc('Projects.List', {});
    orchard = projects.find((p) => p.name === 'orchard')!.projectKey;
    await steward.rpc('Sweeper.Run', { projectKey: orchard, force: true });
  });

  afterAll(async () => {
    await browser?.close();
    await steward?.stop({ check: false });
  });

  it('Settings: a rejected value is named beside its field and nothing is saved; a good one is saved and says when it applies', async () => {
    const { page, problems } = await openPanel(browser, steward);
    const config = join(steward.home, 'config.json');
    await goToPlace(page, 'Settings');
    const importing = page.getByRole('form', { name: 'Importing conversations' });
    const days = importing.getByLabel('Retention window, in days');
    await days.fill('99999');
    await importing.getByRole('button', { name: 'Save import settings' }).click();
    await importing.getByText('This must be at most 36,500 days.').waitFor();
    expect(await days.getAttribute('aria-invalid')).toBe('true');
    expect(await importing.getByRole('alert').innerText()).toContain('Not saved');
    expect(existsSync(config)).toBe(false);

    await days.fill('90');
    await importing.getByRole('button', { name: 'Save import settings' }).click();
    await importing.getByText('Saved to config.json. It takes effect when Steward next starts (quit it and start it again).').waitFor();
    expect(JSON.parse(readFileSync(config, 'utf8'))).toEqual({ query: { cache: { retention: { default_days: 90 } } } });
    expect(await days.getAttribute('aria-invalid')).toBeNull();

    const folders = page.getByRole('form', { name: 'Agents and their folders' });
    const claudeFolders = folders.getByLabel('Claude Code folders');
    await claudeFolders.fill('relative/transcripts');
    const exclude = importing.getByLabel('Never import conversations from these folders');
    await exclude.fill('/home/me/private/**');
    // Another form's save reloads the settings: what is typed in the others stays.
    const log = page.getByRole('form', { name: 'Log level' });
    await log.getByLabel('What Steward writes to its log').selectOption('warn');
    await log.getByRole('button', { name: 'Save log level' }).click();
    await log.getByText('Saved to config.json. It applies now.').waitFor();
    await page.waitForTimeout(300);
    expect(await claudeFolders.inputValue()).toBe('relative/transcripts');
    expect(await exclude.inputValue()).toBe('/home/me/private/**');
    await exclude.fill('');
    const savedBefore = readFileSync(config, 'utf8');
    await folders.getByRole('button', { name: 'Save agents and folders' }).click();
    await folders.getByText('Line 1 (relative/transcripts) must be a full path (from /, ~/ or a drive letter).').waitFor();
    expect(readFileSync(config, 'utf8')).toBe(savedBefore);
    expect(JSON.parse(savedBefore)).toMatchObject({ query: { cache: { retention: { default_days: 90 } } } });
    expect(JSON.parse(savedBefore)).not.toHaveProperty('providers');
    // The environment decides the folders in this test, and the form says so.
    expect(await folders.innerText()).toContain('STEWARD_CLAUDE_ROOTS is set');

    // Read back after a reload: the saved values are what the form shows.
    await page.reload();
    await goToPlace(page, 'Settings');
    expect(await page.getByRole('form', { name: 'Importing conversations' }).getByLabel('Retention window, in days').inputValue()).toBe('90');
    expect(await page.getByRole('form', { name: 'Log level' }).getByLabel('What Steward writes to its log').inputValue()).toBe('warn');
    // The real paths, to copy.
    expect(await page.getByRole('region', { name: 'Where Steward keeps its files' }).innerText()).toContain(config);
    expect(await page.getByRole('button', { name: 'Open folder' }).count()).toBe(0);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('Settings: the curator form resets per kind, requires the model, and names the unreachable host before saving anything', async () => {
    const { page, problems } = await openPanel(browser, steward);
    await goToPlace(page, 'Settings');
    const form = page.getByRole('form', { name: 'Project notes curator' });
    await form.getByRole('radio', { name: 'Anthropic' }).check();
    expect(await form.getByLabel('Model', { exact: true }).inputValue()).toBe('claude-haiku-4-5');
    await form.getByRole('radio', { name: 'OpenAI-compatible' }).check();
    expect(await form.getByLabel('Model', { exact: true }).inputValue()).toBe('');
    const save = page.getByRole('button', { name: 'Try and save' });
    await save.click();
    await form.getByText('Name the model your endpoint serves').waitFor();

    await form.getByLabel('Model', { exact: true }).fill('llama3.2');
    await form.getByLabel('Base URL').fill('http://127.0.0.1:9/v1');
    await save.click();
    const tried = page.getByTestId('curator-tried');
    await tried.waitFor();
    expect(await tried.innerText()).toBe('The model endpoint at 127.0.0.1:9 could not be reached.');
    expect((await steward.rpc('Settings.Get', {})).sweeper.curator).toBe('offline');
    await page.getByRole('button', { name: 'Save anyway' }).waitFor();
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('Projects: each project has its address; Escape and Back return to the list with the row focused and marked', async () => {
    const { page, problems } = await openPanel(browser, steward);
    await goToPlace(page, 'Projects');
    const rows = page.getByRole('region', { name: 'Projects' }).locator('tbody tr');
    await eventually('both projects are listed', async () => ((await rows.count()) === 2 ? true : undefined));
    // Sort by name both ways, and filter.
    await page.getByRole('button', { name: /^Project/ }).click();
    expect(await rows.first().locator('a[data-project]').innerText()).toBe('meadow');
    await page.getByRole('button', { name: /^Project/ }).click();
    expect(await rows.first().locator('a[data-project]').innerText()).toBe('orchard');
    await page.getByLabel('Filter').fill('mead');
    expect(await rows.count()).toBe(1);
    await page.getByLabel('Filter').fill('');

    await page.getByRole('link', { name: 'orchard', exact: true }).click();
    await page.locator(`[data-project-view="${orchard}"]`).waitFor();
    expect(await page.evaluate(() => window.location.hash)).toBe(`#/projects/${orchard}`);
    // The view is there while it loads (its heading says "Project"); the loaded heading takes the focus.
    await focusOn(page, 'orchard');
    expect(await page.getByRole('region', { name: 'Projects', exact: true }).count()).toBe(0);
    await page.keyboard.press('Escape');
    await page.getByRole('region', { name: 'Projects', exact: true }).waitFor();
    expect(await page.evaluate(() => window.location.hash)).toBe('#/projects');
    await focusOn(page, 'orchard');
    expect(await page.locator('tr[aria-current="true"]').innerText()).toContain('orchard');

    await page.keyboard.press('Enter');
    await page.locator(`[data-project-view="${orchard}"]`).waitFor();
    await page.goBack();
    await page.getByRole('region', { name: 'Projects', exact: true }).waitFor();
    await focusOn(page, 'orchard');

    // Opened by its address, Back goes to the list by address.
    await page.evaluate((key) => (window.location.hash = `#/projects/${key}`), orchard);
    const view = page.locator(`[data-project-view="${orchard}"]`);
    await view.waitFor();
    await view.getByRole('button', { name: 'Sweep now' }).click();
    await view.getByTestId('sweep-result').getByText(/^Nothing new since the last sweep|^Notes updated|^Swept; nothing/).waitFor();
    expect(await view.getByTestId('notes-folder').innerText()).toContain(join(steward.home, 'projects'));
    await page.screenshot({ path: docsScreenshotPath('project.png') });
    await view.getByRole('button', { name: '← All projects' }).click();
    await page.getByRole('region', { name: 'Projects', exact: true }).waitFor();
    expect(await page.evaluate(() => window.location.hash)).toBe('#/projects');
    await page.screenshot({ path: docsScreenshotPath('projects.png') });
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('axe finds no serious or critical violation on any place (with content) nor on the no-token screen, light and dark; long paths wrap at separators', async () => {
    const views = [
      { name: 'home', hash: '#/home', ready: '[data-testid="first-run"]' },
      { name: 'projects', hash: '#/projects', ready: 'main table' },
      { name: 'project', hash: `#/projects/${orchard}`, ready: '[data-testid="notes-folder"]' },
      { name: 'search', hash: '#/search?q=line', ready: '.search-results' },
      { name: 'conversation', hash: '#/sessions/orchard-1', ready: '.conversation' },
      { name: 'maintenance', hash: '#/maintenance', ready: '[data-testid="held-registration"]' },
      { name: 'conflicts', hash: '#/conflicts', ready: '[data-testid="conflict-candidate"]' },
      { name: 'telemetry', hash: '#/telemetry', ready: '[data-testid="tick-charts"] svg' },
      { name: 'settings', hash: '#/settings', ready: '[data-testid="curator-boundary"]' },
    ];
    const found: string[] = [];
    for (const colorScheme of ['light', 'dark'] as const) {
      const { page, problems } = await openPanel(browser, steward, { context: { colorScheme, viewport: { width: 1280, height: 800 } } });
      if (colorScheme === 'light') {
        // The check can fail: an image without a text alternative is reported, then taken away again.
        await page.evaluate(() => document.querySelector('main')?.insertAdjacentHTML('afterbegin', '<img id="axe-probe" src="/favicon.svg">'));
        expect(await axeProblems(page)).toEqual([expect.stringMatching(/^image-alt \(critical\)/)]);
        await page.evaluate(() => document.getElementById('axe-probe')?.remove());
      }
      for (const view of views) {
        await page.evaluate((hash) => (window.location.hash = hash), view.hash);
        await page.locator(view.ready).first().waitFor();
        found.push(...(await axeProblems(page)).map((p) => `${colorScheme} ${view.name}: ${p}`));
        const shot = colorScheme === 'light' ? ['telemetry', 'settings'].includes(view.name) : view.name === 'home';
        if (shot) await page.screenshot({ path: docsScreenshotPath(`${view.name}${colorScheme === 'dark' ? '-dark' : ''}.png`) });
      }
      expect(problems).toEqual([]);
      await page.context().close();
      // The screen a tab without its token lands on.
      const gate = await openPanel(browser, steward, { url: steward.baseUrl, context: { colorScheme } });
      await gate.page.getByTestId('no-token').waitFor();
      found.push(...(await axeProblems(gate.page)).map((p) => `${colorScheme} no-token: ${p}`));
      await gate.context.close();
    }
    expect(found).toEqual([]);

    // A long folder wraps at its separators instead of widening a narrow window.
    const { page } = await openPanel(browser, steward, { context: { viewport: { width: 360, height: 740 } } });
    await goToPlace(page, 'Projects');
    const path = page.locator('[data-path]', { hasText: 'rather/long' }).first();
    await path.waitFor();
    expect(await path.locator('wbr').count()).toBeGreaterThan(5);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);
    await page.context().close();
  });
});
