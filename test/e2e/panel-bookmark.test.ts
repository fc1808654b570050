import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claudeLine, writeJsonl } from '../support/transcripts.js';
import { eventually, launchChromium, makeTempDir, openPanel, startServe, type ServedSteward } from './harness.js';

const SESSION = '4e7a2c19-8b3d-4f60-a5e1-7c0d9b2f6e38';
const CWD_FOLDER = 'herb-garden-planner';

/**
 * The token leaves the address on the first load, so every address the panel shows afterwards
 * (`#/sessions/<id>` …) is tokenless. A bookmark of one, or a new tab, must open in the browser
 * that was let in, on its place; a browser that never was is told how to get in.
 */
describe('a bookmarked panel address', () => {
  let steward: ServedSteward;
  let browser: Browser;

  beforeAll(async () => {
    const roots = makeTempDir('steward-bookmark-roots-');
    const cwd = join(roots.dir, 'src', CWD_FOLDER);
    mkdirSync(cwd, { recursive: true });
    const at = Date.now() - 3_600_000;
    writeJsonl(join(roots.dir, 'claude', 'projects', cwd.replace(/[^A-Za-z0-9]/g, '-'), `${SESSION}.jsonl`), [
      claudeLine({ sessionId: SESSION, cwd, ts: new Date(at), text: 'When should the basil be sown?' }),
      claudeLine({ sessionId: SESSION, cwd, ts: new Date(at + 30_000), type: 'assistant', text: 'Indoors six weeks before the last frost.' }),
    ]);
    steward = await startServe({ claudeRoots: [join(roots.dir, 'claude')] });
    await eventually('the conversation is captured', async () => ((await steward.rpc('Sessions.List', {})).sessions.length > 0 ? true : undefined));
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await steward?.stop();
  });

  it('opens in a new tab of the browser let in by the link, on its place; another browser is told to run steward open', async () => {
    // The first visit, by the link `steward open` opens.
    const { context, page, problems } = await openPanel(browser, steward);
    const cookies = await eventually('the owner set its cookie', async () => {
      const found = (await context.cookies()).filter((c) => c.name === `steward_panel_${steward.port}`);
      return found.length > 0 ? found : undefined;
    });
    for (const cookie of cookies) {
      expect(cookie).toMatchObject({ value: steward.token, domain: '127.0.0.1', httpOnly: true, secure: false, sameSite: 'Strict' });
      expect(['/rpc', '/events', '/remember']).toContain(cookie.path);
    }
    // No script of the page can read it.
    expect(await page.evaluate(() => document.cookie)).toBe('');

    // The bookmark: the conversation's address, no token, in a new tab of the same browser.
    const bookmark = `${steward.baseUrl}#/sessions/${SESSION}`;
    const tab = await context.newPage();
    tab.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console: ${message.text()}`);
    });
    await tab.goto(bookmark, { waitUntil: 'load' });
    await tab.locator('main[data-place="session"] .conversation').waitFor();
    expect(await tab.locator('main').innerText()).toContain('When should the basil be sown?');
    expect(await tab.getByTestId('no-token').count()).toBe(0);
    await tab.locator('[data-testid="status-bar"]').waitFor();
    expect(tab.url()).toBe(bookmark);
    expect(await tab.evaluate(() => window.sessionStorage.length)).toBe(0);
    expect(problems).toEqual([]);
    await context.close();

    // The same bookmark in a browser never let in: the way in, in plain words, and the address kept.
    const stranger = await openPanel(browser, steward, { url: bookmark });
    const gate = stranger.page.getByTestId('no-token');
    await gate.waitFor();
    const words = await gate.innerText();
    expect(words).toContain('steward open');
    expect(words).not.toContain('no longer valid');
    expect(await stranger.page.getByTestId('status-bar').count()).toBe(0);
    expect(stranger.page.url()).toBe(bookmark);
    await stranger.context.close();
  });
});
