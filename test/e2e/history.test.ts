import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { IDS, SECRET, writeHistoryFixture, type HistoryFixture } from '../support/history.js';
import { claudeLine, writeJsonl } from '../support/transcripts.js';
import { eventually, goToPlace, launchChromium, makeTempDir, openPanel, screenshotPath, startServe, type ServedSteward } from './harness.js';

/** A project with a conversation longer than a page (240 messages) and more conversations than a page of its list (27). */
const LEDGER = { cwd: '/work/ledger', long: 'c0ffee00-1111-4222-8333-444455556666', conversations: 27, turns: 80 } as const;
const ledgerUuid = (n: number) => `c0ffee00-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
/** The part of the long conversation's last question, a page after its first. */
const LEDGER_LATE_PART = `cc:${ledgerUuid(3 * (LEDGER.turns - 1) + 1)}:0`;

function writeLedgerProject(claudeRoot: string): void {
  const dir = join(claudeRoot, 'projects', '-work-ledger');
  const start = Date.now() - 86_400_000;
  const lines: unknown[] = [];
  for (let turn = 0, n = 0; turn < LEDGER.turns; turn++) {
    const at = () => new Date(start + n * 10_000);
    const line = (o: Omit<Parameters<typeof claudeLine>[0], 'sessionId' | 'cwd' | 'ts' | 'uuid'>) => claudeLine({ sessionId: LEDGER.long, cwd: LEDGER.cwd, ts: at(), uuid: ledgerUuid(++n), ...o });
    lines.push(line({ text: `Check ledger entry ${turn}` }));
    lines.push(line({ type: 'assistant', content: [{ type: 'text', text: `Entry ${turn} balances.` }, { type: 'tool_use', id: `toolu_l${turn}`, name: 'Bash', input: { command: `npm test -- ledger-${turn}` } }] }));
    lines.push(line({ content: [{ type: 'tool_result', tool_use_id: `toolu_l${turn}`, content: 'ok' }] }));
  }
  writeJsonl(join(dir, `${LEDGER.long}.jsonl`), lines);
  for (let i = 1; i < LEDGER.conversations; i++) {
    const sessionId = `c0ffee00-2222-4333-8444-${i.toString(16).padStart(12, '0')}`;
    writeJsonl(join(dir, `${sessionId}.jsonl`), [claudeLine({ sessionId, cwd: LEDGER.cwd, ts: new Date(start - i * 3_600_000), uuid: `c0ffee00-3333-4000-8000-${i.toString(16).padStart(12, '0')}`, text: `Ledger question ${i}` })]);
  }
}

/**
 * History in the panel, driven as a person would: search from any place with the keyboard, open a
 * hit, read the conversation with its tools folded, go Back, and forget a conversation.
 */
describe('search and read conversations in the panel', () => {
  let steward: ServedSteward;
  let browser: Browser;
  let fixture: HistoryFixture;

  beforeAll(async () => {
    const roots = makeTempDir('steward-e2e-history-');
    fixture = writeHistoryFixture(roots.dir);
    writeLedgerProject(fixture.claudeRoot);
    steward = await startServe({ claudeRoots: [fixture.claudeRoot], openclawRoots: [fixture.openclawRoot] });
    browser = await launchChromium();
    // The owner's start-up sweep imports the fixture (it is inside the default window).
    await eventually('the start-up sweep imported the fixture', async () => ((await steward.rpc('Sessions.List', { limit: 200 })).sessions.length === 4 + LEDGER.conversations ? true : undefined), 30_000);
  });

  afterAll(async () => {
    await browser?.close();
    await steward?.stop({ check: false });
  });

  const focusedId = (page: Page) => page.evaluate(() => document.activeElement?.id ?? '');

  async function searchFor(page: Page, query: string): Promise<void> {
    await page.keyboard.press('/');
    await page.locator('main[data-place="search"]').waitFor();
    await eventually('the search box takes the focus', async () => ((await focusedId(page)) === 'search-box' ? true : undefined));
    await page.keyboard.press('Control+A');
    await page.keyboard.type(query);
    await page.keyboard.press('Enter');
    await page.locator('.search-results').waitFor();
  }

  it('reaches the search box from any place with /, Ctrl-K or Cmd-K', async () => {
    const { page, problems } = await openPanel(browser, steward);
    for (const [place, key] of [
      ['Settings', '/'],
      ['Telemetry', 'Control+k'],
      ['Maintenance', 'Meta+k'],
      ['Projects', '/'],
    ] as const) {
      await goToPlace(page, place);
      await page.keyboard.press(key);
      await page.locator('main[data-place="search"]').waitFor();
      await eventually(`the box is focused after ${key} in ${place}`, async () => ((await focusedId(page)) === 'search-box' ? true : undefined));
    }
    // Typing "/" in the box is text, not a shortcut.
    await page.keyboard.type('src/config');
    expect(await page.locator('#search-box').inputValue()).toBe('src/config');
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('searches with the keyboard, opens a hit, reads it with tools folded, and goes Back to the results', async () => {
    const { page, problems } = await openPanel(browser, steward);
    await searchFor(page, 'frost');
    expect(await page.evaluate(() => window.location.hash)).toBe('#/search?q=frost');
    const groups = page.locator('.search-group');
    expect(await groups.count()).toBe(2);
    expect(await groups.first().locator('.search-group__title').innerText()).toMatch(/Winter pruning plan|Find the first frost dates/);
    expect(await page.locator('.search-hit mark').first().innerText()).toMatch(/^frost$/i);
    // How many matched is there for everyone to read, in messages and conversations.
    const count = page.locator('.search-results__count');
    expect(await count.isVisible()).toBe(true);
    expect(await count.innerText()).toMatch(/^Showing \d+ match(es)? in 2 conversations\.$/);
    // A subagent's prompt was written by the main agent, not by the person.
    const subagentHits = groups.filter({ has: page.locator('.search-group__meta', { hasText: 'subagent' }) }).locator('.search-hit__who');
    expect(await subagentHits.allInnerTexts()).toContainEqual(expect.stringMatching(/^Main agent · /));
    expect(await subagentHits.allInnerTexts()).not.toContainEqual(expect.stringMatching(/^You/));
    await page.screenshot({ path: screenshotPath('search-results.png') });

    // Down from the box walks the hits; Enter opens the focused one.
    await page.locator('#search-box').focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    const chosen = await page.evaluate(() => document.activeElement?.getAttribute('data-part'));
    expect(chosen).toBeTruthy();
    await page.keyboard.press('Enter');
    await page.locator('main[data-place="session"]').waitFor();
    expect(await page.evaluate(() => decodeURIComponent(window.location.hash))).toContain(`?message=${chosen}`);
    const hit = page.locator('.part--hit');
    await hit.waitFor();
    expect(await hit.getAttribute('data-part')).toBe(chosen);
    expect(await hit.isVisible()).toBe(true);
    expect((await hit.innerText()).toLowerCase()).toContain('frost');
    // A keyboard reader reads on from the hit: it has the focus, not the top of the window.
    await eventually('the opened hit has the focus', async () => ((await page.evaluate(() => document.activeElement?.getAttribute('data-part'))) === chosen ? true : undefined));

    // Back to the search, then open the parent conversation: thinking and tools are folded to one line.
    await page.goBack();
    await page.locator('main[data-place="search"] .search-results').waitFor();
    await eventually('the opened hit has the focus again', async () => ((await page.evaluate(() => document.activeElement?.getAttribute('data-part'))) === chosen ? true : undefined));
    await page.locator(`.search-group__link[href="#/sessions/${IDS.pruning}"]`).click();
    await page.locator('main[data-place="session"] .conversation').waitFor();
    expect(await page.locator('main h1').innerText()).toBe('Winter pruning plan');
    // Opened at its start, its heading takes the focus.
    await eventually('the heading has the focus', async () => ((await page.evaluate(() => document.activeElement?.tagName)) === 'H1' ? true : undefined));
    const tool = page.locator('details.fold--tool').filter({ hasText: 'Bash: npm run build:calendar' });
    expect(await tool.getAttribute('open')).toBeNull();
    const failed = page.locator('details.fold--result.fold--error');
    expect(await failed.locator('summary').innerText()).toContain('exit code 2');
    expect(await failed.locator('.fold__body').isVisible()).toBe(false);
    await failed.locator('summary').click();
    expect(await failed.locator('.fold__body').innerText()).toContain('TS2345');
    // A thought and an image read in core/api/part-words.ts's words, as `steward sessions show` and MCP say them.
    expect(await page.locator('details.fold--thinking summary').innerText()).toBe('Thinking The person wants a pruning schedule; dormant season is best.');
    // An image is a placeholder with its type and size, never its bytes.
    const image = page.locator('.part__image');
    expect(await image.innerText()).toBe('Image · PNG, 27 bytes');
    expect(await image.getAttribute('aria-label')).toBe('Image, PNG, 27 bytes');
    // The subagent is nested after the Task call that started it, and loads when opened.
    const subagent = page.locator('article').filter({ hasText: 'Task: Survey frost dates' }).locator('details.subagent');
    await subagent.locator('summary').click();
    await subagent.locator('.conversation').waitFor();
    expect(await subagent.innerText()).toContain('The first frost usually arrives in late October.');
    expect(await subagent.locator('.message__who').first().innerText()).toBe('Main agent');
    await page.screenshot({ path: screenshotPath('session-viewer.png'), fullPage: true });

    // Export: a Markdown file of the conversation, and the result said where the person looks.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export Markdown' }).click()]);
    // Named from its title, with the start of its id (QA: `session-<id>.md` said nothing of what is in it).
    expect(download.suggestedFilename()).toBe('winter-pruning-plan-3f2b9c1e.md');
    expect(readFileSync((await download.path())!, 'utf8')).toMatch(/^# Winter pruning plan\n/);
    expect(await page.getByRole('status').filter({ hasText: 'Exported' }).innerText()).toBe('Exported winter-pruning-plan-3f2b9c1e.md, with secrets redacted.');

    // The address is the conversation's: a reload (or a bookmark) opens it again.
    await page.reload();
    await page.locator('main[data-place="session"] .conversation').waitFor();
    expect(await page.locator('main h1').innerText()).toBe('Winter pruning plan');
    await page.goBack();
    await page.locator('main[data-place="search"] .search-results').waitFor();
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('leaves no emptied search box behind for Back: type, clear, type, clear, then Back leaves Search', async () => {
    const { page, problems } = await openPanel(browser, steward);
    await goToPlace(page, 'Projects');
    await searchFor(page, 'frost');
    await page.keyboard.press('Escape');
    await eventually('the emptied box empties the address', async () => ((await page.evaluate(() => window.location.hash)) === '#/search' ? true : undefined));
    await page.keyboard.type('pruning');
    await page.keyboard.press('Enter');
    await eventually('the new search is in the address', async () => ((await page.evaluate(() => window.location.hash)) === '#/search?q=pruning' ? true : undefined));
    await page.keyboard.press('Escape');
    await eventually('the emptied box empties the address', async () => ((await page.evaluate(() => window.location.hash)) === '#/search' ? true : undefined));
    await page.goBack();
    await page.locator('main[data-place="projects"]').waitFor();
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('Import earlier history’s address lands on that section of Projects, its heading focused', async () => {
    const { page, problems } = await openPanel(browser, steward);
    await page.evaluate(() => (window.location.hash = '#/projects?section=import-history'));
    const section = page.locator('section#import-history');
    await section.waitFor();
    await eventually('the section’s heading has the focus', async () => ((await page.evaluate(() => document.activeElement?.closest('section')?.id)) === 'import-history' ? true : undefined));
    expect(await section.locator('h2').innerText()).toMatch(/Import (earlier )?history/);
    expect(await section.evaluate((el) => el.getBoundingClientRect().top < window.innerHeight)).toBe(true);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('narrows with chips: only what I said, only tool calls (commands)', async () => {
    const { page, problems } = await openPanel(browser, steward);
    await searchFor(page, 'calendar');
    await page.getByRole('radiogroup', { name: 'Kind' }).getByRole('radio', { name: 'Tool calls' }).click();
    await eventually('the address carries the chip', async () => ((await page.evaluate(() => window.location.hash)).includes('kind=tool_use') ? true : undefined));
    await eventually('only the Bash call is left', async () => {
      const hits = await page.locator('.search-hit').allInnerTexts();
      return hits.length === 1 && hits[0]!.includes('Tool call Bash') ? true : undefined;
    });
    expect(await page.getByRole('radiogroup', { name: 'Kind' }).getByRole('radio', { name: 'Tool calls' }).getAttribute('aria-checked')).toBe('true');
    // An app of a provider is a chip of its own: Claude Desktop's sessions alone (the fixture has none).
    await page.getByRole('radiogroup', { name: 'Agent' }).getByRole('radio', { name: 'Claude Desktop' }).click();
    await eventually('the address carries the app', async () => ((await page.evaluate(() => window.location.hash)).includes('provider=claude-desktop') ? true : undefined));
    await eventually('Claude Desktop wrote none of them', async () => ((await page.locator('.search-hit').count()) === 0 && (await page.locator('main').innerText()).includes('No conversation matches that.') ? true : undefined));
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('exports with secrets redacted, and as written only when the person asks', async () => {
    const { page, problems } = await openPanel(browser, steward);
    await page.goto(`${steward.baseUrl}#/sessions/${encodeURIComponent(IDS.config)}`);
    await page.locator('main[data-place="session"] .conversation').waitFor();
    const exported = async () => {
      const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export Markdown' }).click()]);
      await page.getByRole('status').filter({ hasText: 'Exported' }).waitFor();
      return { text: readFileSync((await file.path())!, 'utf8'), notice: await page.getByRole('status').filter({ hasText: 'Exported' }).innerText() };
    };
    const redacted = await exported();
    expect(redacted.text).toContain('GITHUB_TOKEN');
    expect(redacted.text).not.toContain(SECRET);
    expect(redacted.notice).toBe('Exported why-does-parseconfig-throw-err_module_not_found-when-8c1f2a9e.md, with secrets redacted.');
    const keep = page.getByRole('checkbox', { name: 'Keep secrets in the export (not redacted)' });
    expect(await keep.isChecked()).toBe(false);
    await keep.check();
    const raw = await exported();
    expect(raw.text).toContain(SECRET);
    expect(raw.text.split('\n')[0]).toMatch(/^> \*\*Not redacted\.\*\* /);
    expect(redacted.text).not.toContain('Not redacted');
    expect(raw.notice).toBe('Exported why-does-parseconfig-throw-err_module_not_found-when-8c1f2a9e.md, with secrets as they were written.');
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('shows a secret as [REDACTED] in a search hit and in the conversation, and as written once the person ticks "Show secrets"', async () => {
    const { page, problems } = await openPanel(browser, steward);
    // The fixture's token is in a tool result that read a file (the config conversation).
    await searchFor(page, 'GITHUB_TOKEN');
    const hit = page.locator('.search-hit').first();
    expect(await hit.locator('.search-hit__snippet').innerText()).toContain('[REDACTED]');
    const mainText = () => page.locator('main').evaluate((main) => main.textContent ?? '');
    expect(await mainText()).not.toContain(SECRET);
    await hit.click();
    await page.locator('main[data-place="session"] .conversation').waitFor();
    // Folded results too: the text in the page, shown or not, holds no secret.
    expect(await mainText()).toContain('[REDACTED]');
    expect(await mainText()).not.toContain(SECRET);
    const show = page.getByRole('checkbox', { name: 'Show secrets' });
    expect(await show.isChecked()).toBe(false);
    await show.check();
    await eventually('the conversation is shown as written', async () => ((await mainText()).includes(SECRET) ? true : undefined));
    // Not kept: the next conversation opened is redacted again.
    await page.goto(`${steward.baseUrl}#/sessions/${encodeURIComponent(IDS.pruning)}`);
    await page.locator('main[data-place="session"] .conversation').waitFor();
    expect(await page.getByRole('checkbox', { name: 'Show secrets' }).isChecked()).toBe(false);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('takes one Tab stop per filter, and the arrow keys choose within it', async () => {
    const { page, problems } = await openPanel(browser, steward);
    await searchFor(page, 'calendar');
    await page.locator('#search-box').focus();
    const focused = () => page.evaluate(() => ({ group: document.activeElement?.closest('[role="radiogroup"]')?.getAttribute('aria-label') ?? null, text: document.activeElement?.textContent ?? '' }));
    // Past the Search button, each filter is one stop, at its chosen chip: five presses cross all five.
    await page.keyboard.press('Tab');
    expect(await focused()).toEqual({ group: null, text: 'Search' });
    const stops = [];
    for (let i = 0; i < 5; i++) {
      await page.keyboard.press('Tab');
      stops.push(await focused());
    }
    expect(stops).toEqual([
      { group: 'Said by', text: 'Anyone' },
      { group: 'Kind', text: 'Everything' },
      { group: 'When', text: 'Any time' },
      { group: 'Agent', text: 'All agents' },
      { group: 'Order', text: 'Best match' },
    ]);
    // Back to Kind; the arrow keys move to the next chip and choose it, and the focus stays on it.
    for (let i = 0; i < 3; i++) await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('ArrowRight');
    await eventually('the address carries the chosen kind', async () => ((await page.evaluate(() => window.location.hash)).includes('kind=text') ? true : undefined));
    expect(await focused()).toEqual({ group: 'Kind', text: 'Messages' });
    expect(await page.getByRole('radiogroup', { name: 'Kind' }).getByRole('radio', { name: 'Messages' }).getAttribute('aria-checked')).toBe('true');
    await page.keyboard.press('End');
    await eventually('the last kind is chosen', async () => ((await page.evaluate(() => window.location.hash)).includes('kind=thinking') ? true : undefined));
    expect(await focused()).toEqual({ group: 'Kind', text: 'Thinking' });
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('with chips and no words, shows the messages they select, newest first, instead of asking for words', async () => {
    const { page, problems } = await openPanel(browser, steward);
    await page.keyboard.press('/');
    await page.locator('main[data-place="search"]').waitFor();
    await page.getByRole('heading', { name: 'Search your conversations' }).waitFor();
    await page.getByRole('radiogroup', { name: 'Said by' }).getByRole('radio', { name: 'What I said' }).click();
    await page.locator('.search-results').waitFor();
    // Newest first: the long ledger conversation's last question leads.
    await eventually('the person’s own words are listed, newest first', async () => ((await page.locator('.search-hit').first().innerText()).includes('Check ledger entry 79') ? true : undefined));
    await page.locator('.search-chips__project select').selectOption({ label: 'kitchen' });
    await eventually('only the kitchen’s own words are left, not its /clear echo', async () => {
      const hits = await page.locator('.search-hit').allInnerTexts();
      return hits.length === 1 && hits[0]!.includes('Write a recipe for apple crumble with winter spices.') ? true : undefined;
    });
    expect(await page.locator('.search-note').allInnerTexts()).toContain('There are no words to rank by, so the matching messages are shown newest first.');
    expect(await page.getByRole('heading', { name: 'Search your conversations' }).count()).toBe(0);
    expect(await page.locator('#search-box').inputValue()).toBe('');
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('says a query with no word to find is nothing to search for, with no Try again that would be refused again', async () => {
    const { page, problems } = await openPanel(browser, steward);
    await page.keyboard.press('/');
    await page.locator('#search-box').fill('*');
    await page.keyboard.press('Enter');
    const banner = page.getByRole('alert');
    await banner.waitFor();
    expect(await banner.innerText()).toContain('Nothing to search for.');
    expect(await banner.innerText()).toContain('has no words to search for');
    expect(await banner.getByRole('button', { name: 'Try again' }).count()).toBe(0);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('lists a project’s conversations with their titles, dates, agents and lengths', async () => {
    // A fixed locale: the dates read as relative times ("10 days ago").
    const { page, problems } = await openPanel(browser, steward, { context: { locale: 'en-US' } });
    await goToPlace(page, 'Projects');
    await page.getByRole('link', { name: 'orchard', exact: true }).click();
    const list = page.getByRole('region', { name: 'Conversations' });
    await list.locator('.project-sessions__link').first().waitFor();
    expect(await list.locator('.project-sessions__link').allInnerTexts()).toEqual(['Why does parseConfig throw ERR_MODULE_NOT_FOUND when loading src/config/load_settings.ts?', 'Winter pruning plan']);
    // When each was last active (the machine-readable time too), how many messages, and how long it ran.
    const { config, pruning } = fixture.times;
    expect(await list.locator('.project-sessions__meta time').evaluateAll((times) => times.map((t) => t.getAttribute('datetime')))).toEqual([
      new Date(config + 3 * 60_000).toISOString(),
      new Date(pruning + 6 * 60_000).toISOString(),
    ]);
    expect(await list.locator('.project-sessions__meta').allInnerTexts()).toEqual(['10 days ago · Claude Code · 3 messages · 3 min', '20 days ago · Claude Code · 4 messages · 6 min · 1 subagent']);
    await list.getByRole('link', { name: 'Winter pruning plan' }).click();
    await page.locator('main[data-place="session"] .conversation').waitFor();
    // Back to the project: the conversation that was opened has the focus, not the project's heading.
    await page.goBack();
    await eventually('the opened conversation’s link has the focus again', async () => ((await page.evaluate(() => document.activeElement?.getAttribute('data-session'))) === IDS.pruning ? true : undefined));
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('loads more of a long conversation, of a search and of a project’s list, and the focus goes on from where the reader was', async () => {
    const { page, problems } = await openPanel(browser, steward);
    const focusedIndex = (selector: string) => page.evaluate((s) => [...document.querySelectorAll(s)].indexOf(document.activeElement as Element), selector);

    // Later messages: the first new message has the focus (the button is disabled while it loads).
    await page.goto(`${steward.baseUrl}#/sessions/${LEDGER.long}`);
    await page.locator('main[data-place="session"] .conversation').waitFor();
    expect(await page.locator('main .conversation > article').count()).toBe(200);
    await page.getByRole('button', { name: 'Later messages' }).focus();
    await page.keyboard.press('Enter');
    await eventually('the first later message has the focus', async () => ((await focusedIndex('main .conversation > article')) === 200 ? true : undefined));
    expect(await page.locator('main .conversation > article').count()).toBe(3 * LEDGER.turns);

    // Earlier messages: the one right before where the reader was has the focus.
    await page.goto(`${steward.baseUrl}#/sessions/${LEDGER.long}?part=${encodeURIComponent(LEDGER_LATE_PART)}`);
    await page.getByRole('button', { name: 'Earlier messages' }).waitFor();
    const firstShown = await page.locator('main .conversation > article').first().getAttribute('id');
    await page.getByRole('button', { name: 'Earlier messages' }).focus();
    await page.keyboard.press('Enter');
    await eventually('the message before the first one shown has the focus', async () =>
      (await page.evaluate(() => (document.activeElement?.tagName === 'ARTICLE' ? (document.activeElement.nextElementSibling?.id ?? '') : ''))) === firstShown ? true : undefined,
    );

    // More matches: the first new match has the focus.
    await page.goto(`${steward.baseUrl}#/search?q=ledger`);
    await page.locator('.search-hit').first().waitFor();
    const firstPage = await page.locator('.search-hit').evaluateAll((links) => links.map((link) => link.getAttribute('data-part')));
    await page.getByRole('button', { name: 'More matches' }).focus();
    await page.keyboard.press('Enter');
    await eventually('a new match has the focus', async () => {
      const part = await page.evaluate(() => document.activeElement?.getAttribute('data-part'));
      return part && !firstPage.includes(part) ? true : undefined;
    });

    // More conversations: the first new conversation has the focus.
    await goToPlace(page, 'Projects');
    await page.getByRole('link', { name: 'ledger', exact: true }).click();
    await page.locator('.project-sessions__link').nth(24).waitFor();
    await page.getByRole('button', { name: 'More conversations' }).focus();
    await page.keyboard.press('Enter');
    await eventually('the first new conversation has the focus', async () => ((await focusedIndex('.project-sessions__link')) === 25 ? true : undefined));
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('forgets a conversation: gone from search and its project, and still gone after a tick', async () => {
    const { page, problems } = await openPanel(browser, steward);
    // This time the search is opened by its address (a bookmark), not with the keyboard.
    await page.goto(`${steward.baseUrl}#/search?q=crumble`);
    // The same search open in another tab: it is asked again when the conversation is forgotten.
    const other = await page.context().newPage();
    await other.goto(`${steward.baseUrl}#/search?q=crumble`);
    await other.locator('.search-hit').first().waitFor();
    await page.locator('.search-hit').first().click();
    await page.locator('main[data-place="session"] .conversation').waitFor();
    // The /clear echo Claude Code wrote in the person's name is said for what it is, folded, not as their turn.
    const echo = page.locator('article').filter({ has: page.locator('details.fold--harness') });
    expect(await echo.locator('.message__who').innerText()).toBe('Claude Code');
    const echoSummary = echo.locator('details.fold--harness summary');
    expect(await echoSummary.innerText()).toBe('Command /clear');
    expect(await page.locator('.conversation').innerText()).not.toContain('<command-name>');
    await echoSummary.focus();
    await page.keyboard.press('Enter');
    expect(await echo.locator('.fold__body').innerText()).toBe('<command-name>/clear</command-name>');
    const ask = page.getByRole('button', { name: 'Forget…' });
    await ask.click();
    const confirm = page.getByTestId('forget-confirm');
    await confirm.waitFor();
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Cancel');
    // The question takes a line of its own below the buttons; it does not stretch them.
    const exportBox = (await page.getByRole('button', { name: 'Export Markdown' }).boundingBox())!;
    expect(exportBox.height).toBeLessThan(60);
    expect((await confirm.boundingBox())!.y).toBeGreaterThanOrEqual(exportBox.y + exportBox.height);
    // Escape puts the question away, and the button that asked has the focus again.
    await page.keyboard.press('Escape');
    expect(await confirm.count()).toBe(0);
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Forget…');
    await page.keyboard.press('Enter');
    await confirm.getByRole('button', { name: 'Yes, forget it' }).click();
    await page.getByRole('status').filter({ hasText: 'It was deleted from Steward' }).waitFor();
    await eventually('the other tab no longer shows its hit', async () => ((await other.locator('.search-results').innerText()).includes('No conversation matches that.') ? true : undefined));
    // The button is gone with the conversation: the heading that says what happened has the focus.
    await eventually('the heading has the focus', async () => ((await page.evaluate(() => document.activeElement?.textContent)) === 'Conversation forgotten' ? true : undefined));

    await page.goBack();
    await page.locator('main[data-place="search"] .search-results').waitFor();
    await eventually('the search no longer finds it', async () => ((await page.locator('.search-results').innerText()).includes('No conversation matches that.') ? true : undefined));
    // The hit that was opened is gone: the search box has the focus instead.
    expect(await focusedId(page)).toBe('search-box');

    // A sweep tick reads the transcript on disk again; the tombstone keeps it out.
    await steward.rpc('Sweep.Tick', {});
    await steward.rpc('Backfill.Run', { all: true });
    await page.reload();
    await page.locator('main[data-place="search"] .search-results').waitFor();
    expect(await page.locator('.search-results').innerText()).toContain('No conversation matches that.');
    expect((await steward.rpc('Sessions.List', {})).sessions.map((s) => s.sessionId)).not.toContain(IDS.kitchen);
    expect((await steward.rpc('Forget.List', {})).tombstones.map((t) => t.id)).toEqual([IDS.kitchen]);
    // Its address, bookmarked before, says the person forgot it, and offers the way back.
    await page.goto(`${steward.baseUrl}#/sessions/${IDS.kitchen}`);
    await page.getByText('You forgot this conversation').waitFor();
    expect(await page.getByRole('button', { name: 'Unforget' }).isVisible()).toBe(true);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('unforgets that conversation from its page: "Check now" brings it back there, without a reload', async () => {
    const { page, problems } = await openPanel(browser, steward);
    await page.goto(`${steward.baseUrl}#/sessions/${IDS.kitchen}`);
    await page.getByText('You forgot this conversation').waitFor();
    await page.getByRole('button', { name: 'Unforget' }).click();
    await page.getByRole('button', { name: 'Check now' }).click();
    await eventually('the check says what it did, where the person is looking', async () => ((await page.getByText(/^Checked now\./).count()) > 0 ? true : undefined));
    await page.locator('main[data-place="session"] .conversation').waitFor();
    expect(await page.locator('.conversation').innerText()).toContain('crumble');
    expect((await steward.rpc('Forget.List', {})).tombstones.map((t) => t.id)).not.toContain(IDS.kitchen);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('forgets a project after asking in place: Cancel takes the focus, and the list no longer has it', async () => {
    const { page, problems } = await openPanel(browser, steward);
    await goToPlace(page, 'Projects');
    await page.getByRole('link', { name: 'orchard', exact: true }).click();
    await page.getByRole('button', { name: 'Forget project…' }).click();
    const confirm = page.getByRole('group', { name: 'Forget orchard' });
    await confirm.waitFor();
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Cancel');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    expect(await confirm.count()).toBe(0);
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Forget project…');
    expect((await steward.rpc('Projects.List', {})).projects.map((p) => p.name)).toContain('orchard');

    await page.getByRole('button', { name: 'Forget project…' }).click();
    await confirm.getByRole('button', { name: 'Yes, forget the project' }).click();
    await eventually('back on the list, without orchard', async () => {
      if ((await page.evaluate(() => window.location.hash)) !== '#/projects') return undefined;
      return (await page.getByRole('link', { name: 'orchard', exact: true }).count()) === 0 ? true : undefined;
    });
    // The row is gone, so the list says what happened, where the focus is.
    const notice = page.getByRole('status').filter({ hasText: 'Forgot orchard' });
    expect(await notice.innerText()).toMatch(/^Forgot orchard: its conversations and notes were deleted from Steward/);
    expect(await notice.evaluate((element) => element === document.activeElement)).toBe(true);
    expect((await steward.rpc('Projects.List', {})).projects.map((p) => p.name)).not.toContain('orchard');
    expect((await steward.rpc('Forget.List', {})).tombstones.some((t) => t.kind === 'project')).toBe(true);
    // Its address by name, bookmarked before, says the person forgot it, with the way back.
    await page.goto(`${steward.baseUrl}#/projects/orchard`);
    await page.getByText('You forgot the project orchard').waitFor();
    expect(await page.getByRole('button', { name: 'Unforget the project' }).isVisible()).toBe(true);
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
