import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendJsonl, claudeLine, writeJsonl } from '../support/transcripts.js';
import { eventually, launchChromium, makeTempDir, openPanel, runSteward, startServe, type ServedSteward } from './harness.js';

const QUARRY = '/work/quarry';
const HOUR_MS = 3_600_000;
/** A conversation read to its end, and longer than the window, so the reader scrolls to reach its end. */
const GROWING = { id: 'growing-1', messages: 30 } as const;
/** A conversation whose export comes in two pieces (the owner's pieces are 1 MiB): 40 messages of about 30,000 characters. */
const ARCHIVE = { id: 'archive-1', messages: 40 } as const;
/** One whose transcript the agent deletes (Claude Code's clean-up), and one whose transcript stays. */
const VANISHING = 'vanishing-1';
const STAYING = 'staying-1';

const growingText = (i: number) => `Quarry survey line ${i}`;
const archiveText = (i: number) => `Archive entry ${i}: ${'the ledger of every cut stone. '.repeat(1000)}`;

const messageLines = (sessionId: string, start: number, texts: readonly string[]) =>
  texts.map((text, i) => claudeLine({ sessionId, cwd: QUARRY, ts: new Date(start + i * 1000), type: i % 2 === 0 ? 'user' : 'assistant', text }));

/** The message the focus is in, by its text. */
const focusedMessage = (page: Page) => page.evaluate(() => document.activeElement?.closest('article.message')?.textContent ?? '');

/**
 * An open conversation while things change under it, seen as a person sees it: an import adds messages
 * after what they read, an export is cancelled while it runs, and a transcript the agent deleted
 * makes Forget say that Steward holds the only copy.
 */
describe('an open conversation while things change under it', () => {
  let steward: ServedSteward;
  let browser: Browser;
  let projectDir: string;
  const base = Date.now() - 6 * HOUR_MS;

  beforeAll(async () => {
    const roots = makeTempDir('steward-e2e-live-');
    const claude = join(roots.dir, 'claude');
    projectDir = join(claude, 'projects', '-work-quarry');
    writeJsonl(join(projectDir, `${GROWING.id}.jsonl`), messageLines(GROWING.id, base, Array.from({ length: GROWING.messages }, (_, i) => growingText(i))));
    writeJsonl(join(projectDir, `${ARCHIVE.id}.jsonl`), messageLines(ARCHIVE.id, base - HOUR_MS, Array.from({ length: ARCHIVE.messages }, (_, i) => archiveText(i))));
    writeJsonl(join(projectDir, `${VANISHING}.jsonl`), messageLines(VANISHING, base - 2 * HOUR_MS, ['Where did the granite go?', 'To the east wall.']));
    writeJsonl(join(projectDir, `${STAYING}.jsonl`), messageLines(STAYING, base - 3 * HOUR_MS, ['Which chisel for marble?', 'The point chisel first.']));
    steward = await startServe({ claudeRoots: [claude] });
    browser = await launchChromium();
    await eventually('the start-up sweep imported the fixture', async () => ((await steward.rpc('Sessions.List', { limit: 50 })).sessions.length === 4 ? true : undefined), 30_000);
  });

  afterAll(async () => {
    await browser?.close();
    await steward?.stop({ check: false });
  });

  async function openConversation(page: Page, sessionId: string): Promise<void> {
    await page.evaluate((id) => (window.location.hash = `#/sessions/${id}`), sessionId);
    await page.locator('main[data-place="session"] .conversation').waitFor();
  }

  it('says what an import added below the last message, without moving the reader; Show brings them, the focus on the first', async () => {
    const { page, problems } = await openPanel(browser, steward);
    await openConversation(page, GROWING.id);
    // The sweep's ticks come as events: the stream is open before the import.
    await page.locator('[data-testid="status-bar"][data-connection="open"]').waitFor();
    const messages = page.locator('main[data-place="session"] article.message');
    await eventually('the whole conversation is shown', async () => ((await messages.count()) === GROWING.messages ? true : undefined));
    expect(await page.getByRole('button', { name: 'Later messages' }).count()).toBe(0);
    // The reader reads at the very end. Chromium's scroll anchoring once picked the sidebar's version line
    // (pinned to the sidebar's foot, which stretches with the page) and scrolled by what was added below.
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight - window.innerHeight));
    const scrolled = await page.evaluate(() => window.scrollY);
    expect(scrolled).toBeGreaterThan(0);
    const lastShown = messages.nth(GROWING.messages - 2);
    const reading = await lastShown.boundingBox();

    // The agent writes three more messages; the next check imports them.
    appendJsonl(join(projectDir, `${GROWING.id}.jsonl`), messageLines(GROWING.id, base + GROWING.messages * 1000, ['New line A', 'New line B', 'New line C']));
    await steward.rpc('Sweep.Tick', {});
    const news = page.locator('main[data-place="session"] .session-more__news');
    await eventually('the page says what is new', async () => ((await news.count()) === 1 ? true : undefined));
    expect(await news.innerText()).toBe('3 new messages');
    // Said below the last message, with its button; nothing was added to what the reader reads, nor did the view move.
    const [lastBottom, newsTop] = [(await messages.last().boundingBox())!, (await news.boundingBox())!];
    expect(newsTop.y).toBeGreaterThanOrEqual(lastBottom.y + lastBottom.height);
    expect(await messages.count()).toBe(GROWING.messages);
    expect(await page.evaluate(() => window.scrollY)).toBe(scrolled);
    expect(await lastShown.boundingBox()).toEqual(reading);

    await page.locator('main[data-place="session"] .session-more', { has: page.locator('.session-more__news') }).getByRole('button', { name: 'Show', exact: true }).click();
    await eventually('the new messages are shown', async () => ((await messages.count()) === GROWING.messages + 3 ? true : undefined));
    expect(await messages.last().innerText()).toContain('New line C');
    expect(await news.count()).toBe(0);
    // A keyboard reader goes on from the first new message.
    await eventually('the first new message has the focus', async () => ((await focusedMessage(page)).includes('New line A') ? true : undefined));
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('a long export cancelled while it runs says so and downloads nothing', async () => {
    const { page, problems } = await openPanel(browser, steward);
    await openConversation(page, ARCHIVE.id);
    // The owner's second piece is held until the person has clicked Cancel: on this machine the whole
    // export could otherwise end before the click.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let held = false;
    await page.route('**/rpc', async (route: Route) => {
      if (route.request().postData()?.includes('"Sessions.ExportNext"')) {
        held = true;
        await released;
      }
      await route.continue();
    });
    const downloads: string[] = [];
    page.on('download', (download) => downloads.push(download.suggestedFilename()));

    await page.getByRole('button', { name: 'Export Markdown' }).click();
    await eventually('the second piece is asked for', async () => (held ? true : undefined));
    const progress = page.locator('main[data-place="session"] .session-notice');
    expect(await progress.innerText()).toMatch(/^Exporting archive-entry-0-the-ledger-of-every-cut-stone-archive\.md: \d+ MB so far…$/);
    await page.getByRole('button', { name: 'Cancel export' }).click();
    release();

    await eventually('the export is said cancelled', async () => ((await progress.innerText().catch(() => '')) === 'Export cancelled.' ? true : undefined));
    expect(await page.getByRole('button', { name: 'Cancel export' }).count()).toBe(0);
    // The focus waits where the export started.
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Export Markdown');
    // A download would come right after the last piece: give it the time it would take.
    await page.waitForTimeout(500);
    expect(downloads).toEqual([]);
    await page.unroute('**/rpc');
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('Forget says Steward holds the only copy of a conversation whose transcript is gone, and not of one on disk; Cancel keeps it', async () => {
    rmSync(join(projectDir, `${VANISHING}.jsonl`));
    // The next check's walk finds the file gone.
    await steward.rpc('Sweep.Tick', {});
    const { page, problems } = await openPanel(browser, steward);
    const warning = "This conversation's transcript is no longer on disk: Steward holds the only copy. Forgetting it deletes it for good.";

    await openConversation(page, VANISHING);
    await page.getByRole('button', { name: 'Forget…' }).click();
    const confirm = page.getByTestId('forget-confirm');
    await eventually('the question says the transcript is gone', async () => ((await confirm.innerText()).includes(warning) ? true : undefined));
    expect(await confirm.innerText()).toContain('Forget this conversation?');
    // Unforget could not bring it back: the question does not say it stays out while on disk.
    expect(await confirm.innerText()).not.toContain('while its transcript stays on disk');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    expect(await confirm.count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Forget…' }).isVisible()).toBe(true);
    expect(await page.locator('main[data-place="session"]').innerText()).toContain('Where did the granite go?');
    expect((await steward.rpc('Sessions.Get', { sessionId: VANISHING })).messages.length).toBe(2);

    await openConversation(page, STAYING);
    await page.getByRole('button', { name: 'Forget…' }).click();
    // The question is whole once Forget.Lost answered: the button waits for it.
    await eventually('the forget button is ready', async () => ((await confirm.getByRole('button', { name: 'Yes, forget it' }).isEnabled()) ? true : undefined));
    expect(await confirm.innerText()).toContain('Forget this conversation? Its messages are deleted from Steward, and it is not imported again while its transcript stays on disk.');
    expect(await confirm.innerText()).not.toContain('no longer on disk');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    expect(await confirm.count()).toBe(0);
    expect(problems).toEqual([]);
    await page.context().close();
  });
});

/**
 * A tab refused after `steward token rotate` lets the person in when the new link is pasted into it:
 * only the fragment changes, so no page load takes the token; the panel takes it, clears it from the
 * address bar and connects. Its own owner: a rotation refuses every other test's token.
 */
describe('a new token link pasted into a refused tab', () => {
  let steward: ServedSteward;
  let browser: Browser;

  beforeAll(async () => {
    steward = await startServe();
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await steward?.stop({ check: false });
  });

  it('after a rotation the open tab says the link is no longer valid; the new link pasted in lets it in, the token gone from the address', async () => {
    const { page, problems } = await openPanel(browser, steward);
    await page.locator('[data-testid="status-bar"][data-connection="open"]').waitFor();
    const rotated = await runSteward(['token', 'rotate', '--json'], steward.env);
    expect(rotated.code, rotated.stderr).toBe(0);
    const url = (JSON.parse(rotated.stdout) as { url: string }).url;
    const token = new URLSearchParams(new URL(url).hash.slice(1)).get('token')!;
    expect(token).not.toBe(steward.token);

    const gate = page.getByTestId('no-token');
    await gate.waitFor({ timeout: 15_000 });
    expect(await gate.innerText()).toContain('This link is no longer valid');

    // The refusal is the only error said (the owner answered 401); nothing more is said once let in.
    const refusal = 'console: Failed to load resource: the server responded with a status of 401 (Unauthorized)';
    expect(problems.filter((p) => p !== refusal)).toEqual([]);
    const saidBefore = problems.length;

    // The person pastes the new link into this tab: the same page, only its fragment changes.
    const loads: string[] = [];
    page.on('load', () => loads.push(page.url()));
    await page.evaluate((t) => (window.location.hash = `#token=${t}`), token);
    await page.getByTestId('status-bar').waitFor();
    await page.locator('[data-testid="status-bar"][data-connection="open"]').waitFor();
    expect(await gate.count()).toBe(0);
    expect(await page.locator('main[data-place="home"]').count()).toBe(1);
    expect(page.url()).not.toContain('token=');
    expect(page.url()).toBe(steward.baseUrl);
    expect(loads).toEqual([]);
    expect(await page.evaluate(() => window.localStorage.getItem('steward.token'))).toBe(token);
    expect(problems.slice(saidBefore)).toEqual([]);
    await page.context().close();
  });
});
