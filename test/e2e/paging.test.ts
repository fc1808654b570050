import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claudeLine, writeJsonl } from '../support/transcripts.js';
import { eventually, launchChromium, makeTempDir, openPanel, startServe, type ServedSteward } from './harness.js';

const GREENHOUSE = '/work/greenhouse';
/** Thirty-one conversations: more than the 25 a project's list shows at first. */
const SHORT_SESSIONS = 30;
/** A project whose conversations take four pages of 25 (the last one short). */
const NURSERY_SESSIONS = 80;
/** More messages than the 200 a conversation's first page holds. */
const LONG_MESSAGES = 205;
const HOUR_MS = 3_600_000;
/** A conversation longer than the 600 messages a page holds at once (three pages of 200, then one more). */
const WINDOW_MESSAGES = 805;
/** A conversation whose export comes in several pieces: 90 messages of about 30,000 characters. */
const ARCHIVE_MESSAGES = 90;
const archiveText = (i: number) => `Archive entry ${i}: ${'the ledger of every graft. '.repeat(1100)}`;

/** The search for "seedling" with `pages` pages of 20 matches shown, each further one added with More matches, and the address saying so: its hits. */
async function seedlingPages(page: Page, pages: number): Promise<Locator> {
  await page.evaluate(() => (window.location.hash = '#/search?q=seedling'));
  const hits = page.locator('.search-hit');
  await eventually('the first page of matches is shown', async () => ((await hits.count()) === 20 ? true : undefined));
  for (let shown = 2; shown <= pages; shown += 1) {
    await page.getByRole('button', { name: 'More matches' }).click();
    await eventually(`page ${shown} of matches is added`, async () => ((await hits.count()) === 20 * shown ? true : undefined));
  }
  await eventually(`the address says ${pages} pages`, async () => ((await page.evaluate(() => window.location.hash)) === `#/search?q=seedling&pages=${pages}` ? true : undefined));
  return hits;
}

/**
 * The panel's "more" buttons, driven as a person would: a project's conversations, a long
 * conversation's later messages and a search's further matches each come a page at a time, and a
 * quick double click asks for a page once. A long conversation's export, too, comes a piece at a time.
 */
describe('paging through conversations, messages and matches', () => {
  let steward: ServedSteward;
  let browser: Browser;
  let greenhouse: string;
  let nursery: string;

  beforeAll(async () => {
    const roots = makeTempDir('steward-e2e-paging-');
    const claude = join(roots.dir, 'claude');
    const dir = join(claude, 'projects', '-work-greenhouse');
    const base = Date.now() - 6 * HOUR_MS;
    for (let i = 0; i < SHORT_SESSIONS; i++) {
      const sessionId = `seedling-${i}`;
      const at = base + i * 60_000;
      writeJsonl(join(dir, `${sessionId}.jsonl`), [
        claudeLine({ sessionId, cwd: GREENHOUSE, ts: new Date(at), text: `Check seedling tray ${i}` }),
        claudeLine({ sessionId, cwd: GREENHOUSE, ts: new Date(at + 1000), type: 'assistant', text: `Seedling tray ${i} is watered.` }),
      ]);
    }
    for (let i = 0; i < NURSERY_SESSIONS; i++) {
      const sessionId = `nursery-${i}`;
      const at = base - 4 * HOUR_MS + i * 60_000;
      writeJsonl(join(claude, 'projects', '-work-nursery', `${sessionId}.jsonl`), [
        claudeLine({ sessionId, cwd: '/work/nursery', ts: new Date(at), text: `Repot cutting ${i}` }),
        claudeLine({ sessionId, cwd: '/work/nursery', ts: new Date(at + 1000), type: 'assistant', text: `Cutting ${i} is repotted.` }),
      ]);
    }
    writeJsonl(
      join(dir, 'long-1.jsonl'),
      Array.from({ length: LONG_MESSAGES }, (_, i) =>
        claudeLine({ sessionId: 'long-1', cwd: GREENHOUSE, ts: new Date(base - HOUR_MS + i * 1000), type: i % 2 === 0 ? 'user' : 'assistant', text: `Long talk line ${i}` }),
      ),
    );
    writeJsonl(
      join(claude, 'projects', '-work-orchard', 'long-2.jsonl'),
      Array.from({ length: WINDOW_MESSAGES }, (_, i) =>
        claudeLine({ sessionId: 'long-2', cwd: '/work/orchard', ts: new Date(base - 3 * HOUR_MS + i * 1000), type: i % 2 === 0 ? 'user' : 'assistant', text: `Window line ${i}` }),
      ),
    );
    writeJsonl(
      join(claude, 'projects', '-work-archive', 'archive-1.jsonl'),
      Array.from({ length: ARCHIVE_MESSAGES }, (_, i) =>
        claudeLine({ sessionId: 'archive-1', cwd: '/work/archive', ts: new Date(base - 2 * HOUR_MS + i * 1000), type: i % 2 === 0 ? 'user' : 'assistant', text: archiveText(i) }),
      ),
    );
    steward = await startServe({ claudeRoots: [claude] });
    browser = await launchChromium();
    await eventually('the start-up sweep imported the fixture (its short conversations, the nursery’s, long-1, long-2 and archive-1)', async () => ((await steward.rpc('Sessions.List', { limit: 200 })).sessions.length === SHORT_SESSIONS + 3 + NURSERY_SESSIONS ? true : undefined), 30_000);
    const projects = (await steward.rpc('Projects.List', {})).projects;
    greenhouse = projects.find((p) => p.name === 'greenhouse')!.projectKey;
    nursery = projects.find((p) => p.name === 'nursery')!.projectKey;
  });

  afterAll(async () => {
    await browser?.close();
    await steward?.stop({ check: false });
  });

  it('a double click on "More conversations" asks once: every conversation of the project is listed once', async () => {
    const { page, problems } = await openPanel(browser, steward);
    await page.evaluate((key) => (window.location.hash = `#/projects/${key}`), greenhouse);
    const links = page.locator('.project-sessions__link');
    await eventually('the first 25 conversations are listed', async () => ((await links.count()) === 25 ? true : undefined));
    const more = page.getByRole('button', { name: 'More conversations' });
    await more.dblclick();
    await eventually('the rest are listed', async () => ((await links.count()) >= SHORT_SESSIONS + 1 ? true : undefined));
    // A second request for the same page would append its conversations twice.
    await page.waitForTimeout(500);
    const hrefs = await links.evaluateAll((all) => all.map((a) => a.getAttribute('href')));
    expect(hrefs.length).toBe(SHORT_SESSIONS + 1);
    expect(new Set(hrefs).size).toBe(SHORT_SESSIONS + 1);
    expect(await more.count()).toBe(0);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('a long conversation shows its later messages on "Later messages"', async () => {
    const { page, problems } = await openPanel(browser, steward);
    await page.evaluate(() => (window.location.hash = '#/sessions/long-1'));
    const messages = page.locator('main[data-place="session"] article.message');
    await eventually('the first page of messages is shown', async () => ((await messages.count()) === 200 ? true : undefined));
    await page.getByRole('button', { name: 'Later messages' }).click();
    await eventually('every message is shown', async () => ((await messages.count()) === LONG_MESSAGES ? true : undefined));
    expect(await messages.last().innerText()).toContain(`Long talk line ${LONG_MESSAGES - 1}`);
    expect(await page.getByRole('button', { name: 'Later messages' }).count()).toBe(0);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('a long conversation keeps the reader\'s place in its address: reload and Back open it there', async () => {
    const { page, problems } = await openPanel(browser, steward);
    await page.evaluate(() => (window.location.hash = '#/sessions/long-1'));
    const messages = page.locator('main[data-place="session"] article.message');
    await eventually('the first page of messages is shown', async () => ((await messages.count()) === 200 ? true : undefined));
    await page.getByRole('button', { name: 'Later messages' }).click();
    await eventually('every message is shown', async () => ((await messages.count()) === LONG_MESSAGES ? true : undefined));
    const entries = await page.evaluate(() => window.history.length);
    // The reader scrolls to a message far down: the address follows (replaced, not a new entry).
    const target = messages.nth(LONG_MESSAGES - 3);
    await target.evaluate((el) => el.scrollIntoView({ block: 'start' }));
    const reading = `Long talk line ${LONG_MESSAGES - 3}`;
    expect(await target.innerText()).toContain(reading);
    // The address follows the scroll at most every so often: wait for it to name a message in view now,
    // not one an earlier scroll (Later messages landing on its first new message) left there.
    const namedInView = () =>
      page.evaluate(() => {
        const partId = new URLSearchParams(window.location.hash.split('?')[1] ?? '').get('at');
        const named = partId === null ? null : document.getElementById(`message-${partId.slice(0, partId.lastIndexOf(':'))}`);
        const box = named?.getBoundingClientRect();
        return box !== undefined && box.bottom > 0 && box.top < window.innerHeight;
      });
    await eventually('the address names the message in view', async () => ((await namedInView()) ? true : undefined));
    expect(await page.evaluate(() => window.history.length)).toBe(entries);
    const inView = (text: string) =>
      page.locator('main[data-place="session"] article.message', { hasText: text }).first().evaluate((el) => {
        const box = el.getBoundingClientRect();
        return box.bottom > 0 && box.top < window.innerHeight;
      });
    await page.reload();
    await eventually('after a reload the conversation opens at that message', async () => ((await inView(reading).catch(() => false)) ? true : undefined));
    await page.evaluate(() => (window.location.hash = '#/projects'));
    await page.locator('main[data-place="projects"]').waitFor();
    await page.goBack();
    await eventually('after Back the conversation opens at that message again', async () => ((await inView(reading).catch(() => false)) ? true : undefined));
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('a very long conversation holds at most 600 messages at once: "Later messages" lets the earliest go, "Earlier messages" brings them back', async () => {
    const { page, problems } = await openPanel(browser, steward);
    await page.evaluate(() => (window.location.hash = '#/sessions/long-2'));
    const messages = page.locator('main[data-place="session"] article.message');
    await eventually('the first page of messages is shown', async () => ((await messages.count()) === 200 ? true : undefined));
    // Each click adds a page of 200; the third goes past 600, and the earliest page goes.
    for (const [shown, first] of [[400, 'Window line 0'], [600, 'Window line 0'], [600, 'Window line 200']] as const) {
      await page.getByRole('button', { name: 'Later messages' }).click();
      await eventually(`${shown} messages are held, from ${first}`, async () => ((await messages.count()) === shown && (await messages.first().innerText()).includes(first) ? true : undefined));
    }
    expect(await messages.first().innerText()).toContain('Window line 200');
    expect(await messages.last().innerText()).toContain('Window line 799');
    // The reader lands on the first message that came, in view.
    expect(await page.evaluate(() => document.activeElement?.closest('article.message')?.textContent ?? '')).toContain('Window line 600');
    await page.getByRole('button', { name: 'Earlier messages' }).click();
    await eventually('the earliest messages are back, 600 held', async () => ((await messages.count()) === 600 && (await messages.first().innerText()).includes('Window line 0') ? true : undefined));
    expect(await page.getByRole('button', { name: 'Later messages' }).isVisible()).toBe(true);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('"Latest messages" opens a long conversation at its end in one click, and "Earlier messages" goes back from there', async () => {
    const { page, problems } = await openPanel(browser, steward);
    await page.evaluate(() => (window.location.hash = '#/sessions/long-2'));
    const messages = page.locator('main[data-place="session"] article.message');
    await eventually('the first page of messages is shown', async () => ((await messages.count()) === 200 ? true : undefined));
    await page.getByRole('button', { name: 'Latest messages' }).click();
    await eventually('the last 200 messages are shown', async () => ((await messages.count()) === 200 && (await messages.last().innerText()).includes('Window line 804') ? true : undefined));
    expect(await messages.first().innerText()).toContain('Window line 605');
    expect(await page.getByRole('button', { name: 'Later messages' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Latest messages' }).count()).toBe(0);
    expect(await page.evaluate(() => document.activeElement?.closest('article.message')?.textContent ?? '')).toContain('Window line 804');
    await eventually('the address names where the reader is', async () => (page.url().includes('?at=') ? true : undefined));
    await page.getByRole('button', { name: 'Earlier messages' }).click();
    await eventually('the page before is added', async () => ((await messages.count()) === 400 ? true : undefined));
    expect(await messages.first().innerText()).toContain('Window line 405');
    expect(problems).toEqual([]);
    await page.context().close();
  });

  // QA: a reload after "Latest messages" showed the message the address kept expanded with the hit's outline, as if opened from a search.
  it('a reload after "Latest messages" opens where the reader was, plainly: no hit outlined; a link naming a message still outlines it', async () => {
    const { page, problems } = await openPanel(browser, steward);
    await page.evaluate(() => (window.location.hash = '#/sessions/long-2'));
    const messages = page.locator('main[data-place="session"] article.message');
    await eventually('the first page of messages is shown', async () => ((await messages.count()) === 200 ? true : undefined));
    await page.getByRole('button', { name: 'Latest messages' }).click();
    await eventually('the last 200 messages are shown', async () => ((await messages.count()) === 200 && (await messages.last().innerText()).includes('Window line 804') ? true : undefined));
    await eventually('the address keeps where the reader is', async () => (page.url().includes('?at=') ? true : undefined));
    const kept = new URLSearchParams(page.url().split('?')[1]).get('at')!;
    expect(page.url()).not.toContain('message=');
    await page.reload();
    const held = page.locator(`main[data-place="session"] [data-part="${kept}"]`);
    await held.waitFor();
    await eventually('the reload opens at the message kept, in view', async () =>
      (await held.evaluate((el) => {
        const box = el.getBoundingClientRect();
        return box.bottom > 0 && box.top < window.innerHeight;
      }))
        ? true
        : undefined,
    );
    await page.waitForTimeout(300);
    expect(await page.locator('.part--hit').count()).toBe(0);
    // The message kept is focused as a message, not as a hit.
    expect(await page.evaluate(() => document.activeElement?.matches('article.message') ?? false)).toBe(true);
    // The tab says which conversation it is.
    expect(await page.title()).toMatch(/^Window line 0 · Steward/);
    // A link naming that message (a search hit, an old bookmark) opens it outlined, as before.
    await page.evaluate((id) => (window.location.hash = `#/sessions/long-2?message=${encodeURIComponent(id)}`), kept);
    await page.locator(`.part--hit[data-part="${kept}"]`).waitFor();
    expect(problems).toEqual([]);
    await page.context().close();
  });

  // QA: a project's conversations paged with "More conversations" were in no address: Back from the oldest, or a reload, showed the first 25 at the top.
  it('a project keeps the conversations paged in its address: Back from the oldest and a reload show them again, the one opened focused and in view', async () => {
    const { page, problems } = await openPanel(browser, steward);
    await page.evaluate((key) => (window.location.hash = `#/projects/${key}`), nursery);
    const links = page.locator('.project-sessions__link');
    await eventually('the first 25 conversations are listed', async () => ((await links.count()) === 25 ? true : undefined));
    const entries = await page.evaluate(() => window.history.length);
    const more = page.getByRole('button', { name: 'More conversations' });
    for (let shown = 2; shown <= 4; shown += 1) {
      await more.click();
      await eventually(`page ${shown} is added`, async () => ((await links.count()) === Math.min(25 * shown, NURSERY_SESSIONS) ? true : undefined));
      await eventually(`the address says ${shown} pages`, async () => ((await page.evaluate(() => window.location.hash)) === `#/projects/${nursery}?pages=${shown}` ? true : undefined));
    }
    // Replaced, not an entry per page: Back still leaves the project.
    expect(await page.evaluate(() => window.history.length)).toBe(entries);
    expect(await page.title()).toMatch(/^nursery · Projects · Steward/);
    const focusedSession = () => page.evaluate(() => document.activeElement?.getAttribute('data-session'));
    const inView = (sessionId: string) =>
      page.locator(`.project-sessions__link[data-session="${sessionId}"]`).evaluate((el) => {
        const box = el.getBoundingClientRect();
        return box.top >= 0 && box.bottom <= window.innerHeight;
      });
    // The browser's Back, and the browser's after the conversation was reloaded (which empties the page's script).
    for (const back of ['browser', 'reload'] as const) {
      const oldest = links.last();
      await oldest.scrollIntoViewIfNeeded();
      const sessionId = (await oldest.getAttribute('data-session'))!;
      expect(sessionId).toBe('nursery-0');
      await oldest.click();
      await page.locator('main[data-place="session"] .conversation').waitFor();
      if (back === 'reload') {
        await page.reload();
        await page.locator('main[data-place="session"] .conversation').waitFor();
      }
      await page.goBack();
      await eventually(`after the ${back}'s Back every page is listed`, async () => ((await links.count()) === NURSERY_SESSIONS ? true : undefined));
      await eventually(`after the ${back}'s Back the conversation opened has the focus`, async () => ((await focusedSession()) === sessionId ? true : undefined));
      expect(await inView(sessionId)).toBe(true);
      expect(await page.evaluate(() => window.location.hash)).toBe(`#/projects/${nursery}?pages=4`);
    }
    await page.reload();
    await eventually('a reload lists every page again', async () => ((await links.count()) === NURSERY_SESSIONS ? true : undefined));
    expect(await more.count()).toBe(0);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('a conversation opened at a hit stays where the reader is when "Later messages" loads more', async () => {
    // The third message: the page opens at it and holds 200 messages from it, so later ones remain.
    const partId = (await steward.rpc('Sessions.Get', { sessionId: 'long-1', limit: 3 })).messages[2]!.parts[0]!.partId;
    const { page, problems } = await openPanel(browser, steward);
    await page.evaluate((id) => (window.location.hash = `#/sessions/long-1?part=${encodeURIComponent(id)}`), partId);
    const hit = page.locator('.part--hit');
    await hit.waitFor();
    const hitFocused = () => page.evaluate(() => document.activeElement?.classList.contains('part--hit') ?? false);
    await eventually('the hit takes the focus when the conversation opens', async () => ((await hitFocused()) ? true : undefined));
    const inView = () => hit.evaluate((el) => {
      const box = el.getBoundingClientRect();
      return box.bottom > 0 && box.top < window.innerHeight;
    });
    expect(await inView()).toBe(true);

    const messages = page.locator('main[data-place="session"] article.message');
    await page.getByRole('button', { name: 'Later messages' }).click();
    await eventually('the later messages are shown', async () => ((await messages.count()) === LONG_MESSAGES ? true : undefined));
    // Give a late effect the chance to run: the hit must not take the view or the focus back.
    await page.waitForTimeout(300);
    expect(await inView()).toBe(false);
    expect(await hitFocused()).toBe(false);
    expect(await messages.last().innerText()).toContain(`Long talk line ${LONG_MESSAGES - 1}`);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('a search shows further matches on "More matches"', async () => {
    const { page, problems } = await openPanel(browser, steward);
    await page.evaluate(() => (window.location.hash = '#/search?q=seedling'));
    const hits = page.locator('.search-hit');
    await eventually('the first page of matches is shown', async () => ((await hits.count()) === 20 ? true : undefined));
    await page.getByRole('button', { name: 'More matches' }).click();
    await eventually('the next page of matches is added', async () => ((await hits.count()) === 40 ? true : undefined));
    expect(problems).toEqual([]);
    await page.context().close();
  });

  // QA: matches loaded with More matches were in no address: a reload, or Back from a conversation, showed the first page.
  it('the matches shown with "More matches" are in the address: a reload and Back from a conversation show them all again', async () => {
    const { page, problems } = await openPanel(browser, steward);
    const hits = await seedlingPages(page, 2);
    await page.reload({ waitUntil: 'load' });
    await eventually('the reload shows both pages', async () => ((await hits.count()) === 40 ? true : undefined));
    // Each hit is itself the link to its conversation (an `a.search-hit`).
    await hits.nth(30).click();
    await page.locator('main[data-place="session"]').waitFor();
    await page.goBack();
    await eventually('Back shows both pages', async () => ((await hits.count()) === 40 ? true : undefined));
    expect(await page.evaluate(() => window.location.hash)).toBe('#/search?q=seedling&pages=2');
    expect(problems).toEqual([]);
    await page.context().close();
  });

  // QA: Back from a match on the third page of a search showed its three pages at their top, the focus on the page's body.
  it('Back from a match loaded with "More matches" lands on that match, focused and in view, by the page’s Back and the browser’s, after a reload too', async () => {
    const { page, problems } = await openPanel(browser, steward);
    const hits = await seedlingPages(page, 3);
    const focusedPart = () => page.evaluate(() => document.activeElement?.getAttribute('data-part') ?? document.activeElement?.tagName);
    const inView = (part: string) =>
      page.locator(`.search-hit[data-part="${part}"]`).evaluate((el) => {
        const box = el.getBoundingClientRect();
        return box.top >= 0 && box.bottom <= window.innerHeight;
      });
    // The page's own Back, the browser's, and the browser's after the conversation was reloaded (which empties the page's script).
    for (const back of ['page', 'browser', 'reload'] as const) {
      const opened = hits.nth(44);
      await opened.scrollIntoViewIfNeeded();
      const part = (await opened.getAttribute('data-part'))!;
      await opened.click();
      await page.locator('main[data-place="session"] .part--hit').waitFor();
      if (back === 'reload') {
        await page.reload();
        await page.locator('main[data-place="session"] .part--hit').waitFor();
      }
      if (back !== 'page') await page.goBack();
      else await page.getByRole('button', { name: '← Back' }).click();
      await eventually(`after the ${back}'s Back all three pages are shown`, async () => ((await hits.count()) === 60 ? true : undefined));
      await eventually(`after the ${back}'s Back the match opened has the focus`, async () => ((await focusedPart()) === part ? true : undefined));
      expect(await inView(part)).toBe(true);
      expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
    }
    expect(problems).toEqual([]);
    await page.context().close();
  });

  // QA: a filter that matched nothing showed "0 of 7 projects" above an empty table.
  it('a Projects filter matching nothing says so, with Clear filter back to the whole list', async () => {
    const { page, problems } = await openPanel(browser, steward);
    await page.evaluate(() => (window.location.hash = '#/projects'));
    const filter = page.getByLabel('Filter');
    await filter.fill('zzzz');
    await page.getByText('No project matches “zzzz”.').waitFor();
    // The table stays (hidden) under the sentence, so it keeps the column it was sorted by.
    expect(await page.locator('.project-table').isHidden()).toBe(true);
    await page.getByRole('button', { name: 'Clear filter' }).click();
    expect(await page.evaluate(() => window.location.hash)).toBe('#/projects');
    expect(await filter.inputValue()).toBe('');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('type'))).toBe('search');
    expect(await page.locator('.project-link').count()).toBeGreaterThan(1);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  // QA: after scrolling Projects a little, Settings chosen in the side menu sat 40 px down.
  it('a place chosen in the side menu opens at its top, wherever the page before was scrolled', async () => {
    const { page, problems } = await openPanel(browser, steward);
    await page.setViewportSize({ width: 1000, height: 500 });
    await page.evaluate(() => (window.location.hash = '#/projects'));
    await page.locator('.project-link').first().waitFor();
    await page.evaluate(() => window.scrollTo(0, 120));
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
    await page.getByRole('navigation', { name: 'Places' }).getByRole('link', { name: 'Settings' }).click();
    await page.locator('main[data-place="settings"]').waitFor();
    await eventually('the heading has the focus', async () => ((await page.evaluate(() => document.activeElement?.matches('main h1') ?? false)) ? true : undefined));
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  // QA: the Projects filter was lost after Ctrl-K and Back.
  it('the Projects filter is in the address: Ctrl-K then Back shows the list filtered as it was', async () => {
    const { page, problems } = await openPanel(browser, steward);
    await page.evaluate(() => (window.location.hash = '#/projects'));
    const filter = page.getByLabel('Filter');
    await filter.fill('orch');
    expect(await page.evaluate(() => window.location.hash)).toBe('#/projects?filter=orch');
    await page.keyboard.press('Control+k');
    await page.locator('main[data-place="search"]').waitFor();
    await page.goBack();
    await page.locator('main[data-place="projects"]').waitFor();
    await eventually('the filter is back', async () => ((await page.getByLabel('Filter').inputValue()) === 'orch' ? true : undefined));
    expect(await page.locator('.project-link').allInnerTexts()).toEqual(['orchard']);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  // QA: after a place was chosen in the side menu the focus stayed on the menu.
  it('a place chosen in the side menu has its heading focused; the first load moves no focus', async () => {
    const { page, problems } = await openPanel(browser, steward);
    const focusedTag = () => page.evaluate(() => document.activeElement?.tagName);
    expect(await focusedTag()).toBe('BODY');
    // The link itself: its label's span takes no focus, and Enter on it would follow nothing.
    await page.getByRole('navigation', { name: 'Places' }).getByRole('link', { name: 'Telemetry' }).focus();
    await page.keyboard.press('Enter');
    await page.locator('main[data-place="telemetry"]').waitFor();
    await eventually('the heading has the focus', async () => ((await page.evaluate(() => document.activeElement?.matches('main h1') && document.activeElement.textContent)) === 'Telemetry' ? true : undefined));
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('a search narrowed to the past week shows further matches on "More matches"', async () => {
    const { page, problems } = await openPanel(browser, steward);
    await page.evaluate(() => (window.location.hash = '#/search?q=seedling&when=7d'));
    const hits = page.locator('.search-hit');
    await eventually('the first page of matches is shown', async () => ((await hits.count()) === 20 ? true : undefined));
    expect(await page.getByRole('radiogroup', { name: 'When' }).getByRole('radio', { name: 'Past week' }).getAttribute('aria-checked')).toBe('true');
    // The week counts back from when the search ran; "More matches", asked for later, continues that same search.
    await page.getByRole('button', { name: 'More matches' }).click();
    await eventually('the next page of matches is added', async () => ((await hits.count()) === 40 ? true : undefined));
    expect(await page.getByRole('alert').filter({ hasText: 'The search could not be run.' }).count()).toBe(0);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('a long conversation exports in pieces, joined into one file the browser downloads', async () => {
    const { page, problems } = await openPanel(browser, steward);
    await page.evaluate(() => (window.location.hash = '#/sessions/archive-1'));
    await page.locator('main[data-place="session"] .conversation').waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export Markdown' }).click()]);
    const file = readFileSync((await download.path())!, 'utf8');
    // More than two pieces' worth, every message once and in order, and the whole file's end.
    expect(file.length).toBeGreaterThan(2 * 1024 * 1024);
    expect([...file.matchAll(/\n\nArchive entry (\d+): /g)].map((m) => Number(m[1]))).toEqual(Array.from({ length: ARCHIVE_MESSAGES }, (_, i) => i));
    expect(file.endsWith(`${archiveText(ARCHIVE_MESSAGES - 1)}\n`)).toBe(true);
    expect(await page.getByRole('status').filter({ hasText: 'Exported' }).innerText()).toBe('Exported archive-entry-0-the-ledger-of-every-graft-archive.md, with secrets redacted.');
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
