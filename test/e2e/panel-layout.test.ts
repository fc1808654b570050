import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claudeLine, writeJsonl } from '../support/transcripts.js';
import { eventually, goToPlace, launchChromium, makeTempDir, openPanel, startServe, type ServedSteward } from './harness.js';

const HOUR = 3_600_000;

/**
 * A title as /rename leaves it when the person pastes a stack frame: 400 characters of which the
 * longest run has no place a browser may break a line (no space, no hyphen).
 */
const LONG_TITLE = `Why does ${[
  'GreenhouseIrrigationController.scheduleZoneWatering',
  'IrrigationScheduler.resolveOverlappingWindows',
  'ZoneWateringPlan.fromSoilMoistureReadings',
  'SoilMoistureSensorArray.readCalibratedValues',
  'CalibrationTable.interpolateBetweenReferencePoints',
  'ReferencePointStore.loadFromPersistentConfiguration',
  'PersistentConfiguration.readGreenhouseIrrigationSettings',
  'GreenhouseSettingsSchema.validateZoneOverrides',
].join('/')} throw`;

const IDS = {
  /** The greenhouse project's newest conversation: the long title. */
  longTitle: '5d1f0c7a-2b9e-4c3d-8a61-0e4f2b7c9d13',
  greenhouseFrost: '7a0c4e2b-91d3-4f6a-b85e-3c2d1f0e9a47',
  seedCsv: 'c3e8a1f0-6d2b-4a97-8e15-9b0f7c4d2e61',
  weatherFrost: 'e91b5d3c-0a7f-4e28-9c46-1d8b2f6a0c35',
  /** The one conversation of a project that is forgotten, leaving the project with none. */
  compost: '2f6d9b1e-4c0a-4e73-a852-7b3e0d9c1f48',
} as const;

interface Project {
  folder: string;
  /** The origin a `git clone` wrote in .git/config; none for a folder that is not a repository. */
  origin?: string;
}

const PROJECTS = {
  greenhouse: { folder: 'greenhouse-irrigation-controller', origin: 'git@github.com:northwind-labs/greenhouse-irrigation-controller.git' },
  seeds: { folder: 'seed-catalogue-importer', origin: 'https://github.com/northwind-labs/seed_catalogue_importer.git' },
  weather: { folder: 'orchard-weather-station', origin: 'https://gitlab.com/northwind-labs/firmware/orchard_weather_station.git' },
  compost: { folder: 'compost-ledger' },
} as const satisfies Record<string, Project>;

/** A project's folder, made real (Steward looks up the repository from .git), as Claude Code names its transcript folder. */
function projectFolder(base: string, project: Project): { cwd: string; transcripts: (claudeRoot: string) => string } {
  const cwd = join(base, 'src', project.folder);
  mkdirSync(cwd, { recursive: true });
  if (project.origin) {
    mkdirSync(join(cwd, '.git'), { recursive: true });
    writeFileSync(join(cwd, '.git', 'HEAD'), 'ref: refs/heads/main\n');
    writeFileSync(join(cwd, '.git', 'config'), `[core]\n\trepositoryformatversion = 0\n[remote "origin"]\n\turl = ${project.origin}\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n`);
  }
  return { cwd, transcripts: (claudeRoot) => join(claudeRoot, 'projects', cwd.replace(/[^A-Za-z0-9]/g, '-')) };
}

/** A question, the assistant's answer with a tool call, its result and a closing answer: a Claude Code session as written. */
function conversation(sessionId: string, cwd: string, start: number, ask: string, answer: string, command: string, output: string, done: string): unknown[] {
  const at = (i: number) => new Date(start + i * 45_000);
  const uuid = (i: number) => `${sessionId.slice(0, 8)}-0000-4000-8000-${i.toString(16).padStart(12, '0')}`;
  const tool = `toolu_${sessionId.slice(0, 8)}`;
  return [
    claudeLine({ sessionId, cwd, ts: at(0), uuid: uuid(1), text: ask }),
    claudeLine({
      sessionId,
      cwd,
      ts: at(1),
      uuid: uuid(2),
      type: 'assistant',
      model: 'claude-sonnet-4-5-20250929',
      content: [
        { type: 'text', text: answer },
        { type: 'tool_use', id: tool, name: 'Bash', input: { command, description: 'Run it' } },
      ],
    }),
    claudeLine({ sessionId, cwd, ts: at(2), uuid: uuid(3), content: [{ type: 'tool_result', tool_use_id: tool, content: output }] }),
    claudeLine({ sessionId, cwd, ts: at(3), uuid: uuid(4), type: 'assistant', model: 'claude-sonnet-4-5-20250929', text: done }),
  ];
}

interface Fixture {
  claudeRoot: string;
  firstAsk: Record<keyof typeof IDS, string>;
}

function writeFixture(base: string, now = Date.now()): Fixture {
  const claudeRoot = join(base, 'claude');
  const greenhouse = projectFolder(base, PROJECTS.greenhouse);
  const seeds = projectFolder(base, PROJECTS.seeds);
  const weather = projectFolder(base, PROJECTS.weather);
  const compost = projectFolder(base, PROJECTS.compost);
  const firstAsk = {
    longTitle: 'The watering schedule crashes when two zones overlap; find out why and fix it.',
    greenhouseFrost: 'Add a frost guard: skip watering when the greenhouse drops below 2 °C.',
    seedCsv:
      'The seed catalogue import reads the supplier’s CSV as Latin-1, so every variety with an accent (Reine des Glaces, Merveille des Quatre Saisons, Brune d’Hiver) comes out garbled in the catalogue, and the search for those varieties finds nothing; read the file as UTF-8 with a BOM check, keep the old behaviour behind a flag for the two suppliers who still send Latin-1, and add a test with one line from each of them.',
    weatherFrost: 'When does the weather station raise its frost alert, and can it warn an hour earlier?',
    compost: 'Start a ledger of what goes into each compost bay, one line per load.',
  } satisfies Record<keyof typeof IDS, string>;

  writeJsonl(join(greenhouse.transcripts(claudeRoot), `${IDS.longTitle}.jsonl`), [
    ...conversation(IDS.longTitle, greenhouse.cwd, now - 2 * HOUR, firstAsk.longTitle, 'I will run the scheduler tests first.', 'npm test -- scheduler', 'FAIL src/scheduler.test.ts\n  overlapping windows: TypeError: Cannot read properties of undefined', 'The overlap check reads a zone that was already removed; fixed.'),
    { type: 'custom-title', customTitle: LONG_TITLE, sessionId: IDS.longTitle },
  ]);
  writeJsonl(
    join(greenhouse.transcripts(claudeRoot), `${IDS.greenhouseFrost}.jsonl`),
    conversation(IDS.greenhouseFrost, greenhouse.cwd, now - 30 * HOUR, firstAsk.greenhouseFrost, 'The schedule reads the greenhouse thermometer already; I will add the guard there.', 'npm test -- frost', 'PASS src/frost-guard.test.ts', 'Watering now pauses below 2 °C, the frost guard.'),
  );
  writeJsonl(
    join(seeds.transcripts(claudeRoot), `${IDS.seedCsv}.jsonl`),
    conversation(IDS.seedCsv, seeds.cwd, now - 5 * HOUR, firstAsk.seedCsv, 'I will look at how the importer opens the file.', 'grep -rn "latin1" src/', 'src/import/read_catalogue.ts:12:  const text = readFileSync(path, "latin1");', 'The importer now reads UTF-8 and checks for a BOM; Latin-1 stays behind --legacy-encoding.'),
  );
  writeJsonl(
    join(weather.transcripts(claudeRoot), `${IDS.weatherFrost}.jsonl`),
    conversation(IDS.weatherFrost, weather.cwd, now - 50 * HOUR, firstAsk.weatherFrost, 'The alert threshold lives in the firmware config.', 'grep -n FROST firmware/config.h', '#define FROST_ALERT_C 1.5\n#define FROST_LEAD_MINUTES 20', 'The frost alert fires at 1.5 °C with 20 minutes lead; set FROST_LEAD_MINUTES to 60 for an hour.'),
  );
  writeJsonl(
    join(compost.transcripts(claudeRoot), `${IDS.compost}.jsonl`),
    conversation(IDS.compost, compost.cwd, now - 80 * HOUR, firstAsk.compost, 'A CSV per bay keeps it simple.', 'mkdir -p ledger && touch ledger/bay-1.csv', '', 'The ledger has one CSV per bay.'),
  );
  // Older than the 365-day window: the start-up sweep leaves it, so Projects offers to import history.
  writeJsonl(
    join(greenhouse.transcripts(claudeRoot), `${OLDER_ID}.jsonl`),
    conversation(OLDER_ID, greenhouse.cwd, now - 400 * 24 * HOUR, 'Sketch the first watering schedule for the greenhouse.', 'Two zones, mornings only.', 'ls zones/', 'north.yml\nsouth.yml', 'The schedule waters both zones at 6:00.'),
  );
  return { claudeRoot, firstAsk };
}

/** A conversation older than the window: imported only by an import of history on request. */
const OLDER_ID = '9e2d4b1a-3c5f-4e7a-9b8c-1d0f2a3b4c5d';

const activeElement = (page: Page) =>
  page.evaluate(() => {
    const active = document.activeElement;
    return { tag: active?.tagName ?? null, text: active?.textContent ?? null, testid: active?.getAttribute('data-testid') ?? null, className: active?.getAttribute('class') ?? null };
  });

/** Sideways overflow of the page and of the projects table's own scroll box. */
const widths = (page: Page) =>
  page.evaluate(() => {
    const box = document.querySelector<HTMLElement>('.project-table .data-table');
    return { page: document.documentElement.scrollWidth, viewport: window.innerWidth, tableScroll: box?.scrollWidth ?? -1, tableBox: box?.clientWidth ?? -1 };
  });

/**
 * Panel layout and keyboard focus, on one owner: a search group's title is a Tab stop, Export and Save
 * keep the focus, an import hands it to Cancel then to its result, a control reached with Tab is not
 * under the status bar, the projects table fits at 900 px and 800 px (its sort column in view) and keeps
 * its repository column at 1280 px, where it takes the window's width, and a long title wraps.
 */
describe('panel layout and keyboard focus', () => {
  let steward: ServedSteward;
  let browser: Browser;
  let fixture: Fixture;

  beforeAll(async () => {
    const roots = makeTempDir('steward-e2e-layout-');
    fixture = writeFixture(roots.dir);
    steward = await startServe({ claudeRoots: [fixture.claudeRoot] });
    browser = await launchChromium();
    await eventually('the start-up sweep imported the fixture', async () => ((await steward.rpc('Sessions.List', { limit: 50 })).sessions.length === Object.keys(IDS).length ? true : undefined), 30_000);
    // The compost ledger's one conversation is forgotten: its project stays, with no conversation left.
    await steward.rpc('Forget.Session', { sessionId: IDS.compost });
    await eventually('the compost project has no conversation left', async () => ((await steward.rpc('Projects.List', {})).projects.find((p) => p.name === PROJECTS.compost.folder)?.sessions === 0 ? true : undefined));
  });

  afterAll(async () => {
    await browser?.close();
    await steward?.stop({ check: false });
  });

  it('reaches a search group’s title with Tab, before its hits, and Enter opens the conversation at its start', async () => {
    const { page, problems } = await openPanel(browser, steward);
    await page.goto(`${steward.baseUrl}#/search?q=frost`);
    await page.locator('.search-hit').first().waitFor();
    await page.locator('#search-box').focus();
    // Tab from the box through the chips: the first stop in the results is the first group's title, not its first hit.
    let reached = await activeElement(page);
    for (let i = 0; i < 40 && !/search-group__link|search-hit/.test(reached.className ?? ''); i++) {
      await page.keyboard.press('Tab');
      reached = await activeElement(page);
    }
    expect(reached.className).toContain('search-group__link');
    const firstGroup = page.locator('.search-group').first();
    expect(reached.text).toBe(await firstGroup.locator('.search-group__title').innerText());
    const href = (await firstGroup.locator('.search-group__link').getAttribute('href'))!;
    expect(href).not.toContain('part=');
    const sessionId = decodeURIComponent(href.replace('#/sessions/', '')) as (typeof IDS)[keyof typeof IDS];
    const name = (Object.keys(IDS) as Array<keyof typeof IDS>).find((key) => IDS[key] === sessionId)!;
    expect(name).toBeDefined();
    // The next stop is that group's first hit.
    await page.keyboard.press('Tab');
    expect((await activeElement(page)).className).toContain('search-hit');
    await page.keyboard.press('Shift+Tab');

    await page.keyboard.press('Enter');
    await page.locator('main[data-place="session"] .conversation').waitFor();
    expect(await page.evaluate(() => window.location.hash)).toBe(href);
    // From its start: the first message is the first thing asked, and no part is marked as the hit.
    expect(await page.locator('main .conversation > article').first().innerText()).toContain(fixture.firstAsk[name]);
    expect(await page.locator('.part--hit').count()).toBe(0);
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('shows Home again when Back returns to the first address, the token link without its token', async () => {
    const { page, problems } = await openPanel(browser, steward);
    // The token has left the address: no fragment at all.
    expect(page.url()).toBe(steward.baseUrl);
    const current = page.locator('nav[aria-label="Places"] [aria-current="page"]');
    expect(await page.locator('main h1').innerText()).toBe('Home');
    await goToPlace(page, 'Projects');
    expect(await current.innerText()).toBe('Projects');
    await page.goBack();
    await page.locator('main[data-place="home"]').waitFor();
    expect(page.url()).toBe(steward.baseUrl);
    expect(await page.locator('main h1').innerText()).toBe('Home');
    expect(await current.innerText()).toBe('Home');
    // And forward again to Projects.
    await page.goForward();
    await page.locator('main[data-place="projects"]').waitFor();
    expect(await current.innerText()).toBe('Projects');
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('says a project whose conversations are all gone has none left, not 0', async () => {
    const { page, problems } = await openPanel(browser, steward);
    await goToPlace(page, 'Projects');
    const row = page.locator('.project-table tbody tr').filter({ has: page.getByRole('link', { name: PROJECTS.compost.folder, exact: true }) });
    await row.waitFor();
    const conversations = row.locator('td').nth(3);
    expect(await conversations.innerText()).toBe('none left');
    // The others still count theirs.
    const greenhouse = page.locator('.project-table tbody tr').filter({ has: page.getByRole('link', { name: PROJECTS.greenhouse.folder, exact: true }) });
    expect(await greenhouse.locator('td').nth(3).innerText()).toBe('2');
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('keeps the focus on Export when it is pressed with the keyboard, beside what it said', async () => {
    const { page, problems } = await openPanel(browser, steward);
    await page.goto(`${steward.baseUrl}#/sessions/${IDS.weatherFrost}`);
    await page.locator('main[data-place="session"] .conversation').waitFor();
    const button = page.getByRole('button', { name: 'Export Markdown' });
    await button.focus();
    const [download] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')]);
    expect(download.suggestedFilename()).toBe('when-does-the-weather-station-raise-its-frost-alert-and-e91b5d3c.md');
    await page.getByRole('status').filter({ hasText: 'Exported' }).waitFor();
    expect(await button.evaluate((element) => element === document.activeElement)).toBe(true);
    // Enter again exports again: the focus was never lost to the page.
    const [again] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')]);
    expect(again.suggestedFilename()).toBe('when-does-the-weather-station-raise-its-frost-alert-and-e91b5d3c.md');
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('keeps the focus on Save once the save is done', async () => {
    const { page, problems } = await openPanel(browser, steward);
    await goToPlace(page, 'Settings');
    const form = page.getByRole('form', { name: 'Log level' });
    await form.locator('select[data-setting="log.level"]').selectOption('warn');
    const save = form.getByRole('button', { name: 'Save log level' });
    await save.focus();
    // Save is disabled while it saves, and Chromium takes the focus off a button the moment it is disabled.
    await page.keyboard.press('Enter');
    await form.getByRole('status').filter({ hasText: 'Saved to config.json' }).waitFor();
    await eventually('Save has the focus again', async () => ((await save.evaluate((element) => element === document.activeElement)) ? true : undefined), 3_000);
    expect((await steward.rpc('Settings.Config', {})).saved.logLevel).toBe('warn');
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('never leaves a control reached with Tab under the status bar', async () => {
    // A short window, so the projects page scrolls and its last controls start below the fold.
    const { page, problems } = await openPanel(browser, steward, { context: { viewport: { width: 1280, height: 560 } } });
    await goToPlace(page, 'Projects');
    await page.locator('.project-table tbody tr').first().waitFor();
    await page.getByTestId('import-history').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollHeight > window.innerHeight + 200)).toBe(true);
    const hidden: string[] = [];
    let stops = 0;
    for (let i = 0; i < 80; i++) {
      await page.keyboard.press('Tab');
      const stop = await page.evaluate(() => {
        const active = document.activeElement as HTMLElement | null;
        const bar = document.querySelector('[data-testid="status-bar"]')!;
        if (!active || active === document.body || bar.contains(active)) return undefined;
        const box = active.getBoundingClientRect();
        return { name: `${active.tagName} ${active.textContent?.slice(0, 40) ?? ''}`, top: box.top, bottom: box.bottom, height: box.height, barTop: bar.getBoundingClientRect().top, inImport: active.closest('[data-testid="import-history"]') !== null };
      });
      if (!stop) continue;
      stops += 1;
      // A scroll region taller than the room above the bar cannot clear it; part of it must be in view all the same.
      const clear = stop.height >= stop.barTop ? stop.top < stop.barTop && stop.bottom > 0 : stop.top >= 0 && stop.bottom <= stop.barTop;
      if (!clear) hidden.push(`${stop.name}: ${stop.top}–${stop.bottom}, bar at ${stop.barTop}`);
      if (stop.inImport && stop.name.startsWith('BUTTON Import history')) break;
    }
    expect(stops).toBeGreaterThan(5);
    expect(await activeElement(page)).toMatchObject({ tag: 'BUTTON', text: 'Import history' });
    expect(hidden).toEqual([]);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('fits the projects table at 900 px without scrolling sideways, and shows the repository column at 1280 px', async () => {
    const { page, problems } = await openPanel(browser, steward, { context: { viewport: { width: 900, height: 800 } } });
    await goToPlace(page, 'Projects');
    await page.locator('.project-table tbody tr').nth(3).waitFor();
    const narrow = await widths(page);
    expect(narrow.tableScroll).toBeLessThanOrEqual(narrow.tableBox);
    expect(narrow.page).toBeLessThanOrEqual(narrow.viewport);
    // The repository gives way (it is on the project's page); name, conversations, latest and its time stay.
    expect(await page.locator('.project-table th').filter({ hasText: 'Repository' }).isVisible()).toBe(false);
    for (const header of ['Project', 'Conversations', 'Latest conversation', 'Last activity']) expect(await page.locator('.project-table th').filter({ hasText: header }).isVisible()).toBe(true);

    await page.setViewportSize({ width: 1280, height: 800 });
    const repository = page.locator('.project-table th').filter({ hasText: 'Repository' });
    await eventually('the repository column is shown', async () => ((await repository.isVisible()) ? true : undefined), 3_000);
    const greenhouse = page.locator('.project-table tbody tr').filter({ has: page.getByRole('link', { name: PROJECTS.greenhouse.folder, exact: true }) });
    expect(await greenhouse.locator('td').nth(2).innerText()).toBe('github.com/northwind-labs/greenhouse-irrigation-controller');
    const wide = await widths(page);
    expect(wide.page).toBeLessThanOrEqual(1280);
    // A long repository id (orchard's is four levels deep) wraps at its slashes: the table fits here too.
    expect(wide.tableScroll).toBeLessThanOrEqual(wide.tableBox);
    // The latest conversation, a 400-character title here, takes two lines at most.
    const latest = greenhouse.locator('.project-latest');
    const lineHeight = await latest.evaluate((element) => parseFloat(getComputedStyle(element).lineHeight));
    expect((await latest.boundingBox())!.height).toBeLessThanOrEqual(2 * lineHeight + 1);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('fits the projects table at 800 px with its sort column in view, the folder and count under the name, and uses a wide window', async () => {
    const { page, problems } = await openPanel(browser, steward, { context: { viewport: { width: 800, height: 600 } } });
    await goToPlace(page, 'Projects');
    await page.locator('.project-table tbody tr').nth(3).waitFor();
    const narrow = await widths(page);
    expect(narrow.tableScroll).toBeLessThanOrEqual(narrow.tableBox);
    expect(narrow.page).toBeLessThanOrEqual(narrow.viewport);
    const header = (name: string) => page.locator('.project-table th').filter({ hasText: name });
    // "Last activity", the column the list is sorted by, stays, whole, beside the name and the latest conversation.
    for (const name of ['Project', 'Latest conversation', 'Last activity']) expect(await header(name).isVisible()).toBe(true);
    for (const name of ['Folder', 'Repository', 'Conversations']) expect(await header(name).isVisible()).toBe(false);
    const sortBox = (await header('Last activity').boundingBox())!;
    const tableBox = (await page.locator('.project-table .data-table').boundingBox())!;
    expect(sortBox.x + sortBox.width).toBeLessThanOrEqual(tableBox.x + tableBox.width + 1);
    // What gave way is under the project's name.
    const greenhouse = page.locator('.project-table tbody tr').filter({ has: page.getByRole('link', { name: PROJECTS.greenhouse.folder, exact: true }) });
    const underName = greenhouse.locator('td').first().locator('.project-under-name');
    expect(await underName.first().isVisible()).toBe(true);
    expect(await underName.first().innerText()).toContain(`/src/${PROJECTS.greenhouse.folder}`);
    expect(await underName.nth(1).innerText()).toBe('2 conversations');

    // At 1280 px the table takes the room the window has, not a reading width with a margin left empty on its right.
    await page.setViewportSize({ width: 1280, height: 800 });
    await eventually('the folder column is back', async () => ((await header('Folder').isVisible()) ? true : undefined), 3_000);
    expect(await underName.first().isVisible()).toBe(false);
    const wide = await page.evaluate(() => ({ table: document.querySelector('.project-table .data-table')!.getBoundingClientRect().right, main: document.querySelector('main')!.getBoundingClientRect().right }));
    // The main area's own padding (3rem) is all that is left on the right.
    expect(wide.main - wide.table).toBeLessThanOrEqual(48 + 1);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('wraps a very long conversation title instead of widening the page', async () => {
    const { page, problems } = await openPanel(browser, steward, { context: { viewport: { width: 900, height: 800 } } });
    await page.goto(`${steward.baseUrl}#/sessions/${IDS.longTitle}`);
    await page.locator('main[data-place="session"] .conversation').waitFor();
    const title = page.locator('main h1');
    expect(await title.innerText()).toBe(LONG_TITLE);
    const layout = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, viewport: window.innerWidth, main: document.querySelector('main')!.getBoundingClientRect().right }));
    expect(layout.page).toBeLessThanOrEqual(layout.viewport);
    const box = (await title.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(layout.main);
    // Wrapped onto several lines, not cut.
    const lineHeight = await title.evaluate((element) => parseFloat(getComputedStyle(element).lineHeight));
    expect(box.height).toBeGreaterThan(2 * lineHeight);

    // Where else the title is shown: its project's conversations, and a search that finds it.
    const projectKey = (await steward.rpc('Projects.List', {})).projects.find((p) => p.name === PROJECTS.greenhouse.folder)!.projectKey;
    await page.goto(`${steward.baseUrl}#/projects/${encodeURIComponent(projectKey)}`);
    await page.locator('.project-sessions__link').first().waitFor();
    expect(await page.locator('.project-sessions__link').first().innerText()).toBe(LONG_TITLE);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(900);
    await page.goto(`${steward.baseUrl}#/search?q=overlap`);
    await page.locator('.search-group__link').first().waitFor();
    expect(await page.locator('.search-group__link').first().innerText()).toBe(LONG_TITLE);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(900);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('says an address that names nothing names nothing, on a view of its own with the way on, and shows the next address that names something', async () => {
    const { context, page, problems } = await openPanel(browser, steward);
    const current = page.locator('nav[aria-label="Places"] [aria-current="page"]');
    const notFound = page.getByTestId('not-found');

    // A fresh tab (the token kept by this browser) opened on an address that names no place.
    const tab = await context.newPage();
    await tab.goto(`${steward.baseUrl}#/nowhere`);
    await tab.getByTestId('not-found').waitFor();
    expect(await tab.locator('main').getAttribute('data-place')).toBe('not-found');
    expect(await tab.locator('main h1').innerText()).toBe('Nothing at this address');
    expect(await tab.getByTestId('not-found').innerText()).toContain('#/nowhere');
    expect(await tab.evaluate(() => window.location.hash)).toBe('#/nowhere');
    expect(await tab.locator('nav[aria-label="Places"] [aria-current="page"]').count()).toBe(0);
    // The way on: Projects (and Home) from the view itself.
    await tab.getByRole('link', { name: 'See all projects' }).click();
    await tab.locator('main[data-place="projects"] .project-table').waitFor();
    await tab.close();

    // A fresh tab on a project that is neither a key nor a name Steward holds.
    const missingProject = await context.newPage();
    await missingProject.goto(`${steward.baseUrl}#/projects/p_nope`);
    await missingProject.getByTestId('not-found').waitFor();
    expect(await missingProject.locator('main h1').innerText()).toBe('Project not found');
    expect(await missingProject.getByTestId('not-found').innerText()).toContain('No project is called \u201cp_nope\u201d');
    expect(await missingProject.getByRole('link', { name: 'Go to Home' }).count()).toBe(1);
    await missingProject.close();

    // By changing the address only: a conversation Steward does not hold, then a project it does not hold.
    await page.goto(`${steward.baseUrl}#/sessions/doesnotexist`);
    await page.getByText('This conversation is not in Steward').waitFor();
    await page.evaluate(() => (window.location.hash = '#/projects/p_nope'));
    await notFound.waitFor();
    expect(await page.locator('main h1').innerText()).toBe('Project not found');
    expect(await page.getByText('This conversation is not in Steward').count()).toBe(0);
    await page.evaluate(() => (window.location.hash = '#/nowhere'));
    await page.locator('main[data-place="not-found"]').waitFor();
    expect(await current.count()).toBe(0);
    // And a later address that names a place shows that place.
    await page.evaluate(() => (window.location.hash = '#/settings'));
    await page.locator('main[data-place="settings"]').waitFor();
    expect(await notFound.count()).toBe(0);
    expect(await current.innerText()).toBe('Settings');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('opens a project named by its name, in any case, or by its notes folder slug, at its own address', async () => {
    const { context, page, problems } = await openPanel(browser, steward);
    const weather = (await steward.rpc('Projects.List', {})).projects.find((p) => p.name === PROJECTS.weather.folder)!;
    const view = page.locator(`[data-project-view="${weather.projectKey}"]`);

    const tab = await context.newPage();
    await tab.goto(`${steward.baseUrl}#/projects/${encodeURIComponent(weather.name)}`);
    await tab.locator(`[data-project-view="${weather.projectKey}"] h1`).getByText(weather.name).waitFor();
    expect(await tab.evaluate(() => window.location.hash)).toBe(`#/projects/${weather.projectKey}`);
    await tab.close();

    for (const text of [weather.name.toUpperCase(), `${weather.name}-${weather.projectKey.slice(2, 10)}`]) {
      await goToPlace(page, 'Home');
      await page.evaluate((hash) => (window.location.hash = hash), `#/projects/${encodeURIComponent(text)}`);
      await view.locator('h1').getByText(weather.name).waitFor();
      expect(await page.evaluate(() => window.location.hash), text).toBe(`#/projects/${weather.projectKey}`);
      // The name's address was replaced, not added: Back returns to where the person was.
      await page.goBack();
      await page.locator('main[data-place="home"]').waitFor();
    }
    expect(problems).toEqual([]);
    await context.close();
  });

  // Last: the import brings in all there is, after which Projects no longer offers it (allImported).
  it('hands the focus to Cancel while an import runs and to its result when it ends', async () => {
    const { page, problems } = await openPanel(browser, steward);
    await goToPlace(page, 'Projects');
    const submit = page.getByTestId('import-history').getByRole('button', { name: 'Import history' });
    await submit.focus();
    // Every element the focus moves to, however quick the import.
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { focusTrail: string[] }).focusTrail = seen;
      document.addEventListener('focusin', (event) => seen.push((event.target as Element).getAttribute('data-testid') ?? (event.target as Element).textContent ?? ''));
    });
    await page.keyboard.press('Enter');
    const result = page.getByTestId('import-result');
    await result.waitFor({ timeout: 30_000 });
    await eventually('the result has the focus', async () => ((await result.evaluate((element) => element === document.activeElement)) ? true : undefined), 3_000);
    const trail = await page.evaluate(() => (window as unknown as { focusTrail: string[] }).focusTrail);
    expect(trail).toEqual(['import-cancel', 'import-result']);
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
