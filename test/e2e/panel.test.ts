import { readFileSync, statSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAUSED_TEXT } from '../../core/api/index.js';
import { eventually, launchChromium, openPanel, rawRequest, runSteward, screenshotPath, startServe, URL_LINE, type ServedSteward } from './harness.js';

/**
 * On an empty STEWARD_HOME every place that lists things explains why it is empty. Each place's team
 * words its own empty state, so the check is the gist (`emptyGist`) rather than the exact sentence;
 * Settings lists nothing and has no empty state.
 */
const PLACES = [
  { id: 'home', label: 'Home', emptyGist: /plans waiting/i },
  { id: 'projects', label: 'Projects', emptyGist: /transcripts/i },
  { id: 'search', label: 'Search', emptyGist: /conversation/i },
  { id: 'maintenance', label: 'Maintenance', emptyGist: /enrol/i },
  { id: 'conflicts', label: 'Conflicts', emptyGist: /identit/i },
  { id: 'telemetry', label: 'Telemetry', emptyGist: /sweep/i },
  { id: 'settings', label: 'Settings', emptyGist: undefined },
] as const;

/** The status bar shows what the owner reports (state, message, paused), whatever the sweep is doing. */
async function expectStatusBarMatchesOwner(page: Page, steward: ServedSteward): Promise<void> {
  let last = '';
  await eventually(() => `status bar matches the owner (${last})`, async () => {
    const { status } = await steward.rpc('App.Info', {});
    const bar = page.getByTestId('status-bar');
    const shown = { state: await bar.getAttribute('data-state'), message: await page.getByTestId('status-message').innerText(), paused: (await bar.getAttribute('data-paused')) === 'true' };
    last = JSON.stringify({ shown, status });
    return shown.state === status.state && shown.message === status.message && shown.paused === status.paused ? true : undefined;
  });
}

/**
 * Telemetry is empty only until the first sweep tick is recorded (an owner sweeps at start), so the
 * place shows either its empty state or a row per entry the owner reports; a revisit reloads it.
 */
async function expectTelemetry(page: Page, steward: ServedSteward): Promise<void> {
  await eventually('telemetry shows what the owner recorded', async () => {
    const { entries } = await steward.rpc('Telemetry.Recent', { limit: 200 });
    const empty = page.getByTestId('empty-state');
    if (entries.length === 0 && (await empty.count()) === 1) return PLACES.find((p) => p.id === 'telemetry')!.emptyGist.test(await empty.innerText()) || undefined;
    if (entries.length > 0 && (await empty.count()) === 0 && (await page.locator('main table tbody tr').count()) === entries.length) return true;
    await page.evaluate(() => window.history.back());
    await page.evaluate(() => window.history.forward());
    await page.locator('main[data-place="telemetry"]').waitFor();
    return undefined;
  });
}

/** One empty state with a title and at least a sentence of explanation that carries the gist. */
async function expectEmptyState(page: Page, gist: RegExp): Promise<void> {
  const empty = page.getByTestId('empty-state');
  // A place may load its data first; the empty state follows the answer.
  await empty.first().waitFor();
  expect(await empty.count()).toBe(1);
  expect((await empty.locator('h2').innerText()).trim().length).toBeGreaterThan(3);
  const text = await empty.innerText();
  expect(text.length).toBeGreaterThan(60);
  expect(text).toMatch(gist);
}

async function expectPlace(page: Page, place: (typeof PLACES)[number], steward: ServedSteward): Promise<void> {
  await page.locator(`main[data-place="${place.id}"]`).waitFor();
  expect(await page.locator('main h1').innerText()).toBe(place.label);
  if (place.id === 'telemetry') await expectTelemetry(page, steward);
  else if (place.emptyGist) await expectEmptyState(page, place.emptyGist);
  else await page.getByRole('region', { name: 'About this Steward' }).waitFor();
  expect(await page.evaluate(() => window.location.hash)).toBe(`#/${place.id}`);
  const current = page.locator('nav[aria-label="Places"] [aria-current="page"]');
  expect(await current.count()).toBe(1);
  expect(await current.innerText()).toBe(place.label);
}

/** A place chosen in the side menu (Enter or a click) is shown with its heading focused. */
async function expectHeadingFocused(page: Page, place: (typeof PLACES)[number]): Promise<void> {
  await page.locator(`main[data-place="${place.id}"]`).waitFor();
  await eventually(`${place.label}'s heading has the focus`, async () => ((await page.evaluate(() => document.activeElement?.matches('main h1') && document.activeElement.textContent)) === place.label ? true : undefined));
}

describe('steward serve and the control panel', () => {
  let steward: ServedSteward;
  let browser: Browser;

  beforeAll(async () => {
    // The acceptance bar: the URL line within 5 s on an empty STEWARD_HOME.
    steward = await startServe({ readyTimeoutMs: 5_000 });
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await steward?.stop({ check: false });
  });

  it('prints exactly one URL line on stdout and advertises itself in daemon.json', () => {
    expect(steward.urlLine).toMatch(URL_LINE);
    expect(steward.stdout()).toBe(`${steward.urlLine}\n`);
    const daemon = JSON.parse(readFileSync(steward.daemonJson, 'utf8')) as Record<string, unknown>;
    expect(daemon).toEqual({ pid: steward.child.pid, protocol: expect.any(Number), url: steward.baseUrl, token: steward.token });
    if (process.platform !== 'win32') expect(statSync(steward.daemonJson).mode & 0o777).toBe(0o600);
  });

  it('serves the panel under a strict CSP with no inline script', async () => {
    const response = await rawRequest(steward.port, { path: '/' });
    expect(response.status).toBe(200);
    expect(response.headers['content-security-policy']).toContain("script-src 'self'");
    expect(response.body).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(response.body).not.toMatch(/<style/);
    expect(response.body).not.toContain(steward.token);
  });

  it('loads with the token, clears it from the address, and survives a reload', async () => {
    const { context, page, problems } = await openPanel(browser, steward);
    expect(page.url()).not.toContain('token');
    expect(page.url()).toBe(steward.baseUrl);
    await expectStatusBarMatchesOwner(page, steward);
    // Before any navigation the address names no place; the panel opens on Home.
    expect(await page.locator('main h1').innerText()).toBe('Home');
    expect(await page.locator('nav [aria-current="page"]').innerText()).toBe('Home');

    await page.reload();
    await expectStatusBarMatchesOwner(page, steward);
    expect(await page.getByTestId('no-token').count()).toBe(0);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('visits every place from the keyboard and by clicking', async () => {
    const { context, page, problems } = await openPanel(browser, steward);

    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content');
    const menu = page.getByRole('navigation', { name: 'Places' });
    for (const [i, place] of PLACES.entries()) {
      // Enter took the focus to the last place's heading: the person goes back to its link in the menu, and Tab goes on from there.
      if (i > 0) await menu.getByRole('link', { name: PLACES[i - 1]!.label }).focus();
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.getAttribute('data-place'))).toBe(place.id);
      await page.keyboard.press('Enter');
      await expectHeadingFocused(page, place);
      await expectPlace(page, place, steward);
    }

    for (const place of [...PLACES].reverse()) {
      await menu.getByRole('link', { name: place.label }).click();
      await expectHeadingFocused(page, place);
      await expectPlace(page, place, steward);
    }

    // The skip link lands on the content.
    await page.getByRole('link', { name: 'Skip to content' }).focus();
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('main');

    // Back goes to the previous place.
    await page.goBack();
    await expectPlace(page, PLACES[1], steward);

    // Settings shows what App.Info reports.
    await page.getByRole('link', { name: 'Settings' }).click();
    const info = await steward.rpc('App.Info', {});
    const about = await page.getByRole('region', { name: 'About this Steward' }).innerText();
    expect(about).toContain(info.version);
    expect(about).toContain(info.platform);
    expect(about).toContain(String(info.protocol));
    expect(problems).toEqual([]);
    await context.close();
  });

  it('keeps the status bar current from the app.status event', async () => {
    const { context, page, problems } = await openPanel(browser, steward);
    const bar = page.getByTestId('status-bar');
    await page.locator('[data-testid="status-bar"][data-paused="false"]').waitFor();
    expect(await bar.locator('[aria-live="polite"]').count()).toBe(1);

    await steward.rpc('App.SetPaused', { paused: true });
    await page.locator('[data-testid="status-bar"][data-paused="true"]').waitFor({ timeout: 10_000 });
    await expectStatusBarMatchesOwner(page, steward);
    // Paused is said once, with what waits; the title carries the state in a word. (Paused, no tick
    // starts, so once the start-up sweep is over the headline is the pause.)
    await page.locator('[data-testid="status-bar"][data-state="paused"]').waitFor({ timeout: 10_000 });
    expect(await page.getByTestId('status-message').innerText()).toBe(PAUSED_TEXT);
    expect((await bar.innerText()).match(/paused/gi)).toHaveLength(1);
    expect(await page.title()).toMatch(/ · Steward — Paused$/);

    // And the other way round: the panel's own button changes the owner's state.
    await bar.getByRole('button', { name: 'Resume' }).click();
    await page.locator('[data-testid="status-bar"][data-paused="false"]').waitFor({ timeout: 10_000 });
    expect((await steward.rpc('App.Info', {})).status.paused).toBe(false);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('guards /rpc and /events: 401 without the token, 403 for a foreign Host or Origin', async () => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'App.Info', params: {} });
    const post = (headers: Record<string, string>) => rawRequest(steward.port, { method: 'POST', path: '/rpc', body, headers: { 'content-type': 'application/json', ...headers } });
    const auth = { authorization: `Bearer ${steward.token}` };

    expect((await post({})).status).toBe(401);
    expect((await post({ authorization: 'Bearer wrong-token-wrong-token-wrong' })).status).toBe(401);
    expect((await rawRequest(steward.port, { path: '/events' })).status).toBe(401);
    expect((await post({ ...auth, host: `evil.example:${steward.port}` })).status).toBe(403);
    expect((await post({ ...auth, host: `127.0.0.1:${steward.port + 1}` })).status).toBe(403);
    expect((await post({ ...auth, origin: 'http://evil.example' })).status).toBe(403);
    expect((await post({ ...auth, origin: `http://127.0.0.1:${steward.port}` })).status).toBe(200);
  });

  it('shows a clear screen when opened without the token', async () => {
    const { context, page } = await openPanel(browser, steward, { url: steward.baseUrl });
    const gate = page.getByTestId('no-token');
    await gate.waitFor();
    expect(await gate.innerText()).toContain('steward serve');
    expect(await page.getByTestId('status-bar').count()).toBe(0);
    await context.close();
  });

  it('says the link is no longer valid when its token is refused (a rotated token)', async () => {
    const stale = `${steward.baseUrl}#token=${'A'.repeat(43)}`;
    const { context, page } = await openPanel(browser, steward, { url: stale });
    const gate = page.getByTestId('no-token');
    await gate.waitFor();
    expect(await gate.innerText()).toContain('no longer valid');
    expect(page.url()).not.toContain('token');
    // The refused token is forgotten, so a reload does not try it again.
    expect(await page.evaluate(() => [window.sessionStorage.length, window.localStorage.length])).toEqual([0, 0]);
    await context.close();
  });

  it('saves a screenshot at 1280×800', async () => {
    const { context, page, problems } = await openPanel(browser, steward, { context: { viewport: { width: 1280, height: 800 } } });
    await expectStatusBarMatchesOwner(page, steward);
    await page.getByTestId('empty-state').waitFor();
    await page.screenshot({ path: screenshotPath('panel-1280x800.png') });
    expect(problems).toEqual([]);
    await context.close();
  });

  // 1280×800 at 200% is a 640×400 CSS-pixel viewport drawn with two device pixels per CSS pixel;
  // 1280×1024 at 400% is 320×256, the width WCAG's reflow criterion asks for.
  it.each([
    { zoom: 200, width: 640, height: 400, shot: 'panel-640x400-zoom200.png' },
    { zoom: 400, width: 320, height: 256, shot: 'panel-320x256-zoom400.png' },
  ])('reads at $zoom% zoom: nav above content, no horizontal scroll', async ({ zoom, width, height, shot }) => {
    const { context, page } = await openPanel(browser, steward, { context: { viewport: { width, height }, deviceScaleFactor: zoom / 100 } });
    for (const place of PLACES) {
      await page.getByRole('link', { name: place.label }).click();
      await expectPlace(page, place, steward);
      const layout = await page.evaluate(() => {
        const box = (selector: string) => {
          const rect = document.querySelector(selector)?.getBoundingClientRect();
          return rect ? { top: rect.top, bottom: rect.bottom, left: rect.left, right: rect.right } : undefined;
        };
        return {
          scrollWidth: document.documentElement.scrollWidth,
          clientWidth: document.documentElement.clientWidth,
          nav: box('nav[aria-label="Places"]'),
          heading: box('main h1'),
          statusBar: box('[data-testid="status-bar"]'),
        };
      });
      expect(layout.scrollWidth).toBeLessThanOrEqual(layout.clientWidth);
      expect(layout.nav && layout.heading && layout.statusBar).toBeTruthy();
      expect(layout.nav!.left).toBeGreaterThanOrEqual(0);
      expect(layout.nav!.right).toBeLessThanOrEqual(layout.clientWidth);
      expect(layout.heading!.right).toBeLessThanOrEqual(layout.clientWidth);
      // The nav folds above the content instead of squeezing it.
      expect(layout.nav!.bottom).toBeLessThanOrEqual(layout.heading!.top);
    }
    await page.screenshot({ path: screenshotPath(shot) });
    await context.close();
  });

  it('refuses a second serve on the same home with exit 1 and "already running (pid N)"', async () => {
    const second = await runSteward(['serve', '--port', '0'], steward.env);
    expect(second.code).toBe(1);
    expect(second.stdout).toBe('');
    expect(second.stderr).toContain(`already running (pid ${steward.child.pid})`);
    // The first owner is unharmed.
    expect((await steward.rpc('App.Info', {})).name).toBe('Steward');
  });

  it('stops on SIGTERM and removes daemon.json; an open panel says the connection is lost', async () => {
    const { context, page } = await openPanel(browser, steward);
    await page.locator('[data-testid="status-bar"][data-connection="open"]').waitFor();

    const result = await steward.stop({ check: false });
    expect(result).toEqual({ code: 0, signal: null, daemonJsonRemoved: true });
    // Over its whole life the owner printed that one line and nothing else on stdout.
    expect(steward.stdout()).toBe(`${steward.urlLine}\n`);

    await page.locator('[data-testid="status-bar"][data-connection="reconnecting"]').waitFor({ timeout: 10_000 });
    // The last status is stale now: the bar says disconnected, the data fades, the title says so.
    expect(await page.getByTestId('status-bar').getAttribute('data-state')).toBe('disconnected');
    expect(await page.getByTestId('status-message').innerText()).toBe('Disconnected — reconnecting to Steward…');
    expect(await page.locator('main[data-stale="true"]').count()).toBe(1);
    expect(await page.title()).toMatch(/ · Steward — Disconnected$/);
    expect(await page.getByRole('button', { name: /Pause|Resume/ }).isDisabled()).toBe(true);
    await context.close();
  });
});
