import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claudeLine, writeJsonl } from '../support/transcripts.js';
import { eventually, goToPlace, launchChromium, makeTempDir, openPanel, screenshotPath, startServe, type ServedSteward } from './harness.js';

const CWD = '/work/wipe-e2e';
const FORGET_ID = 'dddddddd-0000-4000-8000-000000000001';
/** Conversations kept beside it: an index of many pages, so the wipe takes pieces the panel can follow. */
const KEPT = 30;
const LINES = 24;

/** Words from a fixed seed, so every run writes the same transcripts. */
function writeStore(root: string): void {
  let state = 5;
  const word = () => {
    let w = '';
    const letters = 3 + (state % 6);
    for (let i = 0; i < letters; i += 1) {
      state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0;
      w += 'etaoinshrdlucmfwypvbgk'[Math.floor((state / 2 ** 32) * 22)];
    }
    return w;
  };
  const session = (sessionId: string, n: number, title: string) => {
    const start = Date.now() - 2 * 86_400_000 + n * 60_000;
    const lines = Array.from({ length: LINES }, (_, i) =>
      claudeLine({ sessionId, cwd: CWD, type: i % 2 === 0 ? 'user' : 'assistant', text: `${i === 0 ? title : ''} ${Array.from({ length: 150 }, word).join(' ')}`, ts: new Date(start + i * 1000) }),
    );
    writeJsonl(join(root, 'projects', '-work-wipe-e2e', `${sessionId}.jsonl`), lines);
  };
  for (let n = 0; n < KEPT; n += 1) session(`dddddddd-1111-4000-8000-${String(n).padStart(12, '0')}`, n, `Kept conversation ${n}`);
  session(FORGET_ID, KEPT, 'The conversation to forget');
}

/** Every text the wipe's lines showed, in order, kept by the page itself: a line can come and go between two polls. */
async function recordWipeLines(page: Page): Promise<void> {
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { wipeLines: string[] }).wipeLines = seen;
    const look = () => {
      for (const el of document.querySelectorAll('.confirm-in-place [role="status"], [data-testid="wipe-status"] p')) {
        const text = el.textContent ?? '';
        if (text !== '' && seen.at(-1) !== text) seen.push(text);
      }
    };
    new MutationObserver(look).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
}

const wipeLines = (page: Page) => page.evaluate(() => (window as unknown as { wipeLines: string[] }).wipeLines);

/**
 * Forgetting with "Also wipe it from the disk now" ticked: the person sees the wipe under way, then that
 * it was done (on the forgotten conversation's page and in Settings' Forgotten list), never nothing.
 */
describe('wiping forgotten text from the disk, seen in the panel', () => {
  let steward: ServedSteward;
  let browser: Browser;

  beforeAll(async () => {
    const roots = makeTempDir('steward-e2e-wipe-');
    const claudeRoot = join(roots.dir, 'claude');
    writeStore(claudeRoot);
    steward = await startServe({ claudeRoots: [claudeRoot] });
    browser = await launchChromium();
    await eventually('the start-up sweep imported the fixture', async () => ((await steward.rpc('Sessions.List', { limit: 200 })).sessions.length === KEPT + 1 ? true : undefined), 60_000);
  });

  afterAll(async () => {
    await browser?.close();
    await steward?.stop({ check: false });
  });

  it('forgets a conversation with the wipe ticked: the wipe is followed while it runs, and ends said as done', async () => {
    expect(await steward.rpc('Forget.ScrubStatus', {})).toMatchObject({ pending: false, running: false, lastWipedAt: null });
    const { page, problems } = await openPanel(browser, steward);
    // Settings' Forgotten list says nothing of wiping before any wipe was asked for.
    await goToPlace(page, 'Settings');
    const forgottenPanel = page.locator('section, div').filter({ has: page.getByRole('heading', { name: 'Forgotten conversations and projects' }) }).last();
    await forgottenPanel.getByText('Nothing is forgotten.').waitFor();
    expect(await page.getByTestId('wipe-status').count()).toBe(0);

    await page.goto(`${steward.baseUrl}#/sessions/${FORGET_ID}`);
    await page.locator('main[data-place="session"] .conversation').waitFor();
    // The wipe's progress comes as events: the stream is open before the forget is asked.
    await page.locator('[data-testid="status-bar"][data-connection="open"]').waitFor();
    await page.getByRole('button', { name: 'Forget…' }).click();
    const confirm = page.getByTestId('forget-confirm');
    await confirm.getByRole('checkbox', { name: /Also wipe it from the disk now/ }).check();
    await recordWipeLines(page);
    await confirm.getByRole('button', { name: 'Yes, forget it' }).click();

    // The page that says it was forgotten says how the wipe went: done, just now.
    await page.getByRole('heading', { name: 'Conversation forgotten' }).waitFor();
    const line = page.getByTestId('wipe-status');
    await eventually('the wipe is said done', async () => ((await line.getAttribute('data-tone')) === 'done' ? true : undefined));
    expect(await line.innerText()).toBe('Forgotten text was wiped from the disk just now.');
    const status = await steward.rpc('Forget.ScrubStatus', {});
    expect(status).toMatchObject({ pending: false, running: false, progress: null, failed: null });
    expect(status.lastWipedAt).toBeGreaterThan(Date.now() - 60_000);

    // While it ran, the forget's own line said the wipe was under way; the last line said it was done.
    const seen = await wipeLines(page);
    expect(seen.some((text) => text.startsWith('Wiping it from the disk') || text.includes('waiting for the disk'))).toBe(true);
    expect(seen.at(-1)).toBe('Forgotten text was wiped from the disk just now.');

    // Settings' Forgotten list says it too, beside the conversation forgotten.
    await goToPlace(page, 'Settings');
    // Named by its app, day and project: a wiped conversation's first request stays nowhere, its forget record included.
    await forgottenPanel.getByText(/^Claude Code conversation of \d{1,2} [A-Z][a-z]{2} \d{4} in wipe-e2e$/).waitFor();
    expect(await forgottenPanel.getByText('The conversation to forget').count()).toBe(0);
    await eventually('the list says the wipe is done', async () => ((await page.getByTestId('wipe-status').getAttribute('data-tone')) === 'done' ? true : undefined));
    expect(await page.getByTestId('wipe-status').innerText()).toBe('Forgotten text was wiped from the disk just now.');
    await page.screenshot({ path: screenshotPath('forgotten-list-wiped.png'), fullPage: true });
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('a wipe asked elsewhere (steward forget --scrub) is followed in the Forgotten list, to its end', async () => {
    const before = (await steward.rpc('Forget.ScrubStatus', {})).lastWipedAt!;
    const { page, problems } = await openPanel(browser, steward);
    await goToPlace(page, 'Settings');
    const line = page.getByTestId('wipe-status');
    await line.waitFor();
    await page.locator('[data-testid="status-bar"][data-connection="open"]').waitFor();
    await recordWipeLines(page);
    let asked = false;
    let followed = 0;
    page.on('response', (response) => {
      if (asked && response.request().postData()?.includes('"Forget.ScrubStatus"')) followed += 1;
    });
    asked = true;
    expect(await steward.rpc('Forget.Scrub', {})).toMatchObject({ complete: true });
    expect((await steward.rpc('Forget.ScrubStatus', {})).lastWipedAt).toBeGreaterThan(before);
    // The list asked again as the wipe went (its events), and its line ends as done.
    await eventually('the list asked how the wipe went', async () => (followed > 0 ? true : undefined));
    // Its words and tone were 'done' from the last wipe before this one began, and this wipe's events can
    // reach the page after its answer: the line is done when both say so, and ends so.
    const doneNow = async () => (await line.innerText()) === 'Forgotten text was wiped from the disk just now.' && (await line.getAttribute('data-tone')) === 'done';
    await eventually('the line is done again', async () => ((await doneNow()) ? true : undefined));
    const seen = await wipeLines(page);
    // A wipe this small can end before the list's first question: what it showed meanwhile was how far it had come, or done.
    for (const text of seen) expect(text).toMatch(/^(Wiping forgotten text from the disk… \d+%|Wiping forgotten text from the disk: waiting for the disk…|Forgotten text was wiped from the disk just now\.)$/);
    await eventually('the line ends done', async () => ((await doneNow()) ? true : undefined));
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
