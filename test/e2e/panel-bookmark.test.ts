import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claudeLine, writeJsonl } from '../support/transcripts.js';
import { eventually, launchChromium, makeTempDir, openPanel, runSteward, startServe, type ServedSteward } from './harness.js';

const SESSION = '4e7a2c19-8b3d-4f60-a5e1-7c0d9b2f6e38';
const CWD_FOLDER = 'herb-garden-planner';

/**
 * The token leaves the address on the first load, so every address the panel shows afterwards
 * (`#/sessions/<id>` …) is tokenless. A bookmark of one, or a new tab, must open in the browser
 * that was let in, on its place, from the token it keeps in this origin's localStorage: never from a
 * cookie, which ignores the port and would reach every other server on 127.0.0.1. A browser that never
 * was let in is told how to get in.
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

  const storedToken = (page: Page) => page.evaluate(() => window.localStorage.getItem('steward.token'));
  const showsConversation = async (page: Page) => {
    await page.locator('main[data-place="session"] .conversation').waitFor();
    expect(await page.locator('main').innerText()).toContain('When should the basil be sown?');
    expect(await page.getByTestId('no-token').count()).toBe(0);
    await page.getByTestId('status-bar').waitFor();
  };

  it('opens in a new tab of the browser let in by the link, on its place, with no cookie; another browser is told to run steward open; a rotated token is no longer valid', async () => {
    // The first visit, by the link `steward open` opens: the token leaves the address for localStorage.
    const { context, page, problems } = await openPanel(browser, steward);
    expect(page.url()).toBe(steward.baseUrl);
    expect(await storedToken(page)).toBe(steward.token);
    expect(await context.cookies()).toEqual([]);

    // The bookmark: the conversation's address, no token, in a new tab of the same browser.
    const bookmark = `${steward.baseUrl}#/sessions/${SESSION}`;
    const tab = await context.newPage();
    tab.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console: ${message.text()}`);
    });
    await tab.goto(bookmark, { waitUntil: 'load' });
    await showsConversation(tab);
    expect(tab.url()).toBe(bookmark);
    // And it reloads as it is.
    await tab.reload({ waitUntil: 'load' });
    await showsConversation(tab);
    expect(problems).toEqual([]);
    // Nothing of the token went into a cookie, on any route the two tabs asked for.
    expect(await context.cookies()).toEqual([]);
    expect(await tab.evaluate(() => document.cookie)).toBe('');

    // The same bookmark in a browser never let in: the way in, in plain words, and the address kept.
    const stranger = await openPanel(browser, steward, { url: bookmark });
    const gate = stranger.page.getByTestId('no-token');
    await gate.waitFor();
    const words = await gate.innerText();
    expect(words).toContain('steward open');
    expect(words).not.toContain('no longer valid');
    expect(await stranger.page.getByTestId('status-bar').count()).toBe(0);
    expect(stranger.page.url()).toBe(bookmark);
    // The person runs `steward open`, which opens the link in a new tab of that browser: the waiting
    // tab then opens on its place by itself.
    const opened = await stranger.context.newPage();
    await opened.goto(steward.panelUrl, { waitUntil: 'load' });
    await opened.getByTestId('status-bar').waitFor();
    await showsConversation(stranger.page);
    expect(stranger.page.url()).toBe(bookmark);
    expect(stranger.problems).toEqual([]);
    expect(await stranger.context.cookies()).toEqual([]);
    await stranger.context.close();

    // `steward token rotate`: the kept token is refused, said so, and forgotten. The tabs still open
    // are closed first: one of them could meet the refusal first and forget the token before the
    // bookmark is opened, which then (rightly) shows the way in instead.
    await page.close();
    await tab.close();
    const rotated = await runSteward(['token', 'rotate', '--json'], steward.env);
    expect(rotated.code, rotated.stderr).toBe(0);
    const late = await context.newPage();
    await late.goto(bookmark, { waitUntil: 'load' });
    const refused = late.getByTestId('no-token');
    await refused.waitFor();
    expect(await refused.innerText()).toContain('no longer valid');
    // Its example of the private link is this Steward's address, whatever port it runs on.
    expect(await refused.innerText()).toContain(`${new URL(steward.baseUrl).origin}/#token=…`);
    await eventually('the refused token is forgotten', async () => ((await storedToken(late)) === null ? true : undefined));
    // A reload has nothing to try and shows the way in.
    await late.reload({ waitUntil: 'load' });
    await late.getByTestId('no-token').waitFor();
    expect(await late.getByTestId('no-token').innerText()).not.toContain('no longer valid');
    expect(await context.cookies()).toEqual([]);
    await context.close();
  });
});
