import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claudeLine, writeJsonl } from '../support/transcripts.js';
import { eventually, launchChromium, makeTempDir, openPanel, REPO_ROOT, screenshotPath, startServe, type ServedSteward } from './harness.js';

/** A real 64×40 PNG (2,901 bytes: "2.8 KB"), as a browser tool's screenshot returns it. */
const SCREENSHOT = readFileSync(join(REPO_ROOT, 'test', 'fixtures', 'images', 'dialog-screenshot.png')).toString('base64');
/** A real 1×1 PNG (70 bytes), as Read returns an image file. */
const ICON = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
const SESSION = '5ee1a9e0-4c1b-4d2a-9e3f-7b6c5d4e3f21';
const CWD = '/work/dash';

const png = (data: string) => ({ type: 'image', source: { type: 'base64', media_type: 'image/png', data } });

/**
 * A Claude Code session in the shapes it writes (reference/transcript-formats.md): a browser tool's
 * screenshot answered with a line of text and the image, and Read of a .png answered with the image alone
 * (its `toolUseResult` carrying the base64 once more, as Claude Code stores it).
 */
function writeSession(claudeRoot: string): void {
  const start = Date.now() - 3_600_000;
  let n = 0;
  const line = (o: Omit<Parameters<typeof claudeLine>[0], 'sessionId' | 'cwd' | 'ts' | 'uuid'>) =>
    claudeLine({ sessionId: SESSION, cwd: CWD, ts: new Date(start + n * 1000), uuid: `5ee1a9e0-0000-4000-8000-${(++n).toString(16).padStart(12, '0')}`, ...o });
  const screenshotResult = [{ type: 'text', text: 'Took the viewport screenshot.\nThe dialog reads: Export failed.' }, png(SCREENSHOT)];
  writeJsonl(join(claudeRoot, 'projects', '-work-dash', `${SESSION}.jsonl`), [
    line({ text: 'Open the dashboard and show me the error dialog, then check the favicon.' }),
    line({ type: 'assistant', model: 'claude-sonnet-4-5-20250929', content: [{ type: 'tool_use', id: 'toolu_01Shot', name: 'mcp__playwright__browser_take_screenshot', input: { fullPage: false } }] }),
    line({ content: [{ tool_use_id: 'toolu_01Shot', type: 'tool_result', content: screenshotResult }], extra: { toolUseResult: screenshotResult } }),
    line({ type: 'assistant', model: 'claude-sonnet-4-5-20250929', content: [{ type: 'tool_use', id: 'toolu_02Read', name: 'Read', input: { file_path: '/work/dash/public/favicon.png' } }] }),
    line({
      content: [{ tool_use_id: 'toolu_02Read', type: 'tool_result', content: [png(ICON)] }],
      extra: { toolUseResult: { type: 'image', file: { base64: ICON, type: 'image/png', originalSize: 70, dimensions: { originalWidth: 1, originalHeight: 1, displayWidth: 1, displayHeight: 1 } } } },
    }),
    line({ type: 'assistant', model: 'claude-sonnet-4-5-20250929', text: 'The dialog says the export failed; the favicon is a single pixel.' }),
  ]);
}

/**
 * Images a tool returned, read in the panel: each a placeholder with its type and size under its
 * result (part-words' "Image · PNG, 2.8 KB"), the image-only result's folded line saying them, and
 * never the image itself: no bytes, no `data:` URL, in the page or in what the panel was sent.
 */
describe('images in tool results, in the session viewer', () => {
  let steward: ServedSteward;
  let browser: Browser;
  let roots: { dir: string; remove: () => void };

  beforeAll(async () => {
    roots = makeTempDir('steward-e2e-result-images-');
    writeSession(join(roots.dir, 'claude'));
    steward = await startServe({ claudeRoots: [join(roots.dir, 'claude')] });
    browser = await launchChromium();
    await eventually('the start-up sweep imported the session', async () => ((await steward.rpc('Sessions.List', { limit: 10 })).sessions.length === 1 ? true : undefined), 30_000);
  });

  afterAll(async () => {
    await browser?.close();
    await steward?.stop({ check: false });
    roots?.remove();
  });

  it('shows each image as its type and size under its result, and never its data', async () => {
    const { page, problems } = await openPanel(browser, steward);
    // Everything the owner sent the panel, to find no image data in it.
    const bodies: Promise<string>[] = [];
    page.on('response', (response) => {
      if (!response.url().endsWith('/events')) bodies.push(response.text().catch(() => ''));
    });
    await page.goto(`${steward.baseUrl}#/sessions/${SESSION}`);
    await page.locator('main[data-place="session"] .conversation').waitFor();

    const results = page.locator('details.fold--result');
    expect(await results.count()).toBe(2);
    const [shot, read] = [results.nth(0), results.nth(1)];

    // Folded, the screenshot's result says its text (its lines, the first one); its image waits under it, unseen.
    expect(await shot.locator('summary').innerText()).toBe('Result 2 lines: Took the viewport screenshot. · 1 image');
    expect(await shot.locator('.part__image').isVisible()).toBe(false);
    // The result of only an image says it on its folded line: how many, their type and size.
    expect(await read.locator('summary').innerText()).toBe('Result 1 image: PNG, 70 bytes');
    expect(await read.locator('.part__image').isVisible()).toBe(false);

    // Unfolded: the text, then the image as its placeholder, read aloud as its words.
    await shot.locator('summary').click();
    expect(await shot.locator('.fold__body').innerText()).toBe('Took the viewport screenshot.\nThe dialog reads: Export failed.');
    const shotImage = shot.getByRole('img', { name: 'Image, PNG, 2.8 KB' });
    expect(await shotImage.isVisible()).toBe(true);
    expect(await shotImage.innerText()).toBe('Image · PNG, 2.8 KB');
    // Under the output, not above it.
    expect(await shot.evaluate((fold) => fold.querySelector('.fold__body')!.compareDocumentPosition(fold.querySelector('.part__image')!) & Node.DOCUMENT_POSITION_FOLLOWING)).toBeTruthy();

    // The image-only result has no empty output above its placeholder.
    await read.locator('summary').click();
    const readImage = read.getByRole('img', { name: 'Image, PNG, 70 bytes' });
    expect(await readImage.isVisible()).toBe(true);
    expect(await readImage.innerText()).toBe('Image · PNG, 70 bytes');
    expect(await read.locator('.fold__body').count()).toBe(0);
    // Two placeholders in the whole conversation, each where its result is.
    expect(await page.locator('main .part__image').allInnerTexts()).toEqual(['Image · PNG, 2.8 KB', 'Image · PNG, 70 bytes']);
    await page.screenshot({ path: screenshotPath('result-images.png'), fullPage: true });

    // No image anywhere: no <img>, no data: URL in any attribute or style, no base64 in the page or its responses.
    const shown = await page.evaluate(() => ({
      html: document.documentElement.outerHTML,
      imgs: document.querySelectorAll('main img, main picture, main canvas, main svg image').length,
      dataUrls: [...document.querySelectorAll('*')].flatMap((el) => [...el.attributes].map((a) => a.value).filter((v) => /(^|[\s("'])data:/i.test(v))),
    }));
    expect(shown.imgs).toBe(0);
    expect(shown.dataUrls).toEqual([]);
    expect(shown.html).not.toMatch(/data:image/i);
    const sent = await Promise.all(bodies);
    expect(sent.length).toBeGreaterThan(0);
    for (const text of [shown.html, ...sent]) {
      expect(text).not.toContain(SCREENSHOT.slice(0, 200));
      expect(text).not.toContain(SCREENSHOT.slice(-200));
      expect(text).not.toContain(ICON);
    }
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
