import type { Browser, Page } from 'playwright-core';
import { PROVIDER_IDS } from '../../core/api/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeModelServer } from '../integration/sweeper/fake-models.js';
import { claudeLine, claudeSession, desktopSession, writeJsonl } from '../support/transcripts.js';
import { eventually, goToPlace, launchChromium, makeTempDir, openPanel, screenshotPath, startServe, type ServedSteward } from './harness.js';
import { join } from 'node:path';

/** The value the Telemetry totals give for one term ("Failures" → "1 notes run"). */
function total(page: Page, term: string): Promise<string> {
  return page.getByTestId('telemetry-totals').locator('.detail-list__row', { has: page.locator('dt', { hasText: new RegExp(`^${term}$`) }) }).locator('dd').innerText();
}

describe('the Telemetry place on a fixture tree', () => {
  let steward: ServedSteward;
  let browser: Browser;

  beforeAll(async () => {
    const roots = makeTempDir('steward-e2e-roots-');
    const claude = join(roots.dir, 'claude');
    const desktop = join(roots.dir, 'desktop');
    claudeSession(claude, 'e2e-session', 6, { cwd: '/work/e2e-project' });
    desktopSession(desktop, 'e2e-desktop', 4);
    steward = await startServe({ claudeRoots: [claude], claudeDesktopRoots: [desktop] });
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await steward?.stop({ check: false });
  });

  it('shows a tick, in the table and the chart, after Sweep.Tick — live, without a reload', async () => {
    // The owner's own first check is recorded before this test's, so the newest row is the one asked for here.
    await eventually('the owner recorded its first check', async () => ((await steward.rpc('Sweep.Status', {})).lastTickAt !== null ? true : undefined));
    const { page, problems } = await openPanel(browser, steward);
    await goToPlace(page, 'Telemetry');
    const rows = page.locator('main table tbody tr');
    await rows.first().waitFor();
    const before = await rows.count();

    const result = await steward.rpc('Sweep.Tick', {});
    expect(result.providers.map((p) => p.provider)).toEqual([...PROVIDER_IDS]);
    const claude = result.providers[0]!;
    // The owner checked once at start, so this tick finds both transcripts unchanged.
    expect(claude.discovered).toBe(2);
    expect(claude.unchanged).toBe(2);

    // Each look asks for the list again: the owner may record more (its index walk, a sweep) while the panel catches up.
    await eventually('the table shows the new tick', async () => {
      const { entries } = await steward.rpc('Telemetry.Recent', { limit: 200 });
      const shown = await rows.count();
      return shown === entries.length && shown > before ? true : undefined;
    });
    // A row is a sentence: an unchanged check says so compactly, a check that read says what it added.
    const newest = rows.first().locator('.telemetry-sentence');
    expect(await newest.innerText()).toMatch(/^Checked 2 files, nothing new, \d+ ms$/);
    // Sweep.Tick is a check asked for by hand (Check now): its row says so, not "Scheduled check".
    expect(await rows.first().innerText()).toContain('Check on request');
    const charts = page.getByTestId('tick-charts');
    await charts.locator('svg.recharts-surface').first().waitFor();
    expect(await charts.locator('.recharts-bar-rectangle').count()).toBeGreaterThan(0);
    // Each axis title is whole, inside its chart ("New messages" on the right once lost its N past the top edge).
    const titles = await charts.locator('.recharts-label').evaluateAll((labels) =>
      labels.map((label) => {
        const box = label.getBoundingClientRect();
        const chart = label.closest('svg')!.getBoundingClientRect();
        return { text: label.textContent, inside: box.top >= chart.top && box.bottom <= chart.bottom && box.left >= chart.left && box.right <= chart.right };
      }),
    );
    expect(titles).toEqual(['Time of the check', 'Files', 'New messages', 'Time of the check', 'Milliseconds'].map((text) => ({ text, inside: true })));
    await page.screenshot({ path: screenshotPath('telemetry-after-tick.png') });
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('marks a failed notes run, filters by kind, and totals what is listed', async () => {
    // A check that finds nothing new, so the totals' files checked differ from the files read.
    await steward.rpc('Sweep.Tick', {});
    const project = await eventually('the start-up import lists the project', async () => (await steward.rpc('Projects.List', {})).projects.find((p) => p.name === 'e2e-project'));
    // A real failure: the model endpoint answers 404 (not retried), so the notes run fails at once; then the offline curator succeeds.
    const model = await new FakeModelServer().start();
    model.script({ status: 404, body: { error: { message: 'no such model', type: 'invalid_request_error', param: null, code: null } } });
    try {
      await steward.rpc('Settings.SetCurator', { curator: 'openai-compatible', model: 'llama3.2', baseUrl: `${model.url}/v1` });
      await expect(steward.rpc('Sweeper.Run', { projectKey: project.projectKey, force: true })).rejects.toMatchObject({ code: 'sweep_failed' });
    } finally {
      await steward.rpc('Settings.SetCurator', { curator: 'offline' });
      await model.stop();
    }
    await steward.rpc('Sweeper.Run', { projectKey: project.projectKey, force: true });
    const notes = (await steward.rpc('Telemetry.Recent', { kind: 'sweeper.sweep', limit: 200 })).entries;
    // The owner may have swept the project on its own after the start-up import; only the forced failure failed.
    expect(notes[0]!.data.outcome).toMatch(/^(ok|nochange)$/);
    expect(notes.filter((e) => e.data.outcome === 'failed')).toHaveLength(1);

    const { page, problems } = await openPanel(browser, steward);
    await goToPlace(page, 'Telemetry');
    const rows = page.locator('main table tbody tr');
    const everything = async () => (await steward.rpc('Telemetry.Recent', { limit: 200 })).entries.length;
    await eventually('every row is listed', async () => ((await rows.count()) === (await everything()) ? true : undefined));
    // The failed run is highlighted, says so in words, and is counted in the totals.
    const failedRow = page.locator('main tbody tr.telemetry-row--failed');
    expect(await failedRow.count()).toBe(1);
    expect(await failedRow.innerText()).toMatch(/Failed\s+Notes of e2e-project failed with an OpenAI-compatible model \(http\)/);
    const background = (row: ReturnType<Page['locator']>) => row.locator('td').first().evaluate((cell) => getComputedStyle(cell).backgroundColor);
    const okRow = rows.filter({ hasText: 'Notes of e2e-project' }).filter({ hasNotText: 'failed' }).first();
    expect(await background(failedRow)).not.toBe(await background(okRow));
    expect(await total(page, 'Failures')).toBe('1 notes run');

    // Filtered to the notes runs: only their rows, and the totals follow what is listed.
    await page.getByRole('radiogroup', { name: 'Show' }).getByRole('radio', { name: 'Project notes', exact: true }).click();
    const notesNow = async () => (await steward.rpc('Telemetry.Recent', { kind: 'sweeper.sweep', limit: 200 })).entries.length;
    await eventually('only the notes runs are listed', async () => ((await rows.count()) === (await notesNow()) ? true : undefined));
    expect(await page.getByRole('radio', { name: 'Project notes', exact: true }).getAttribute('aria-checked')).toBe('true');
    expect(new Set(await rows.locator('.telemetry-sentence').evaluateAll((cells) => cells.map((c) => c.getAttribute('data-kind'))))).toEqual(new Set(['sweeper.sweep']));
    expect(await total(page, 'Scheduled checks')).toBe('None');
    expect(await total(page, 'Failures')).toBe('1 notes run');

    // Filtered to the checks: as many as the owner recorded, their files summed, no failure.
    await page.getByRole('radiogroup', { name: 'Show' }).getByRole('radio', { name: 'Checks', exact: true }).click();
    const ticks = async () => (await steward.rpc('Telemetry.Recent', { kind: 'sweep.tick', limit: 200 })).entries;
    await eventually('only the scheduled checks are listed', async () => ((await rows.count()) === (await ticks()).length ? true : undefined));
    const listed = await ticks();
    expect(new Set(await rows.locator('.telemetry-sentence').evaluateAll((cells) => cells.map((c) => c.getAttribute('data-kind'))))).toEqual(new Set(['sweep.tick']));
    // "Nothing new" as each row's sentence says it: the check wrote nothing (whatever else it met).
    // The schedule's checks and those asked for by hand (this test's Sweep.Tick) are totalled apart.
    const byHand = listed.filter((e) => e.data.trigger === 'hand');
    const scheduled = listed.filter((e) => e.data.trigger !== 'hand');
    expect(byHand.length).toBeGreaterThan(0);
    expect(await total(page, 'Checks on request')).toBe(`${byHand.length} ${byHand.length === 1 ? 'check' : 'checks'}`);
    const unchanged = scheduled.filter((e) => (e.data.providers as Array<{ partsWritten: number }>).every((p) => p.partsWritten === 0)).length;
    const checks = `${scheduled.length} ${scheduled.length === 1 ? 'check' : 'checks'}`;
    const allUnchanged = scheduled.length === 1 ? `${checks}, which found nothing new` : `${checks}, none found anything new`;
    const allNew = scheduled.length === 1 ? `${checks}, which found something new` : `${checks}, each found something new`;
    const scheduledWords = scheduled.length === 0 ? 'None' : unchanged === 0 ? allNew : unchanged === scheduled.length ? allUnchanged : `${checks}, ${unchanged} with nothing new`;
    expect(await total(page, 'Scheduled checks')).toBe(scheduledWords);
    const files = listed.reduce((n, e) => n + (e.data.providers as Array<{ discovered: number }>).reduce((m, p) => m + p.discovered, 0), 0);
    expect(await total(page, 'Files checked')).toBe(`${files} ${files === 1 ? 'file' : 'files'}`);
    expect(await total(page, 'Failures')).toBe('None');
    expect(await page.locator('main tbody tr.telemetry-row--failed').count()).toBe(0);
    await page.screenshot({ path: screenshotPath('telemetry-filtered.png') });
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('lists the captured projects in the Projects place', async () => {
    const { page, problems } = await openPanel(browser, steward);
    await goToPlace(page, 'Projects');
    await eventually('the project row appears', async () => ((await page.locator('main table tbody tr', { hasText: 'e2e-project' }).count()) === 1 ? true : undefined));
    expect(problems).toEqual([]);
    await page.context().close();
  });
});

describe('the Projects place, first run', () => {
  it('imports history older than the sweep window through "Import history" with the chosen window, showing the result', async () => {
    const roots = makeTempDir('steward-e2e-import-');
    const claude = join(roots.dir, 'claude');
    const old = new Date(Date.now() - 400 * 86_400_000);
    writeJsonl(join(claude, 'projects', '-work-ancient', 'ancient.jsonl'), [
      claudeLine({ sessionId: 'ancient', cwd: '/work/ancient-project', ts: old }),
      claudeLine({ sessionId: 'ancient', cwd: '/work/ancient-project', ts: old, type: 'assistant' }),
      { type: 'custom-title', customTitle: 'Restore the ancient site', sessionId: 'ancient' },
      '{"type":"user","uuid":"cut',
    ]);
    const steward = await startServe({ claudeRoots: [claude] });
    const browser = await launchChromium();
    try {
      // The scheduled sweep keeps to the 365-day window: nothing to list yet.
      await eventually('the start-up sweep settles', async () => ((await steward.rpc('Telemetry.Recent', { kind: 'sweep.tick' })).entries.length > 0 ? true : undefined));
      expect((await steward.rpc('Projects.List', {})).projects).toEqual([]);
      const { page, problems } = await openPanel(browser, steward);
      await goToPlace(page, 'Projects');
      const form = page.getByTestId('import-history');
      // The checks import the last year already: a narrower reach would import nothing, so only Everything is offered, and chosen.
      await form.getByText('The regular checks already import the last year.').waitFor();
      expect(await form.getByRole('radio').count()).toBe(1);
      expect(await form.getByLabel('Everything').isChecked()).toBe(true);
      await form.getByLabel('Everything').check();
      await form.getByRole('button', { name: 'Import history' }).click();
      await page.getByTestId('import-result').waitFor();
      const said = await page.getByTestId('import-result').innerText();
      expect(said).toContain('Imported 2 new messages; 1 file read.');
      // Nothing is dropped silently: the lines that held no conversation are counted, in words.
      expect(said).toContain('2 lines held no conversation: 1 bookkeeping, 1 that did not parse.');
      // The session is named by its title where the project is listed.
      const row = page.locator('main table tbody tr', { hasText: 'ancient-project' });
      await eventually('the project row appears', async () => ((await row.count()) === 1 ? true : undefined));
      expect(await row.innerText()).toContain('Restore the ancient site');
      expect(problems).toEqual([]);
    } finally {
      await browser.close();
      await steward.stop({ check: false });
    }
  });
});

describe('Claude Desktop sessions in the Projects place', () => {
  it('lists a session under the folder the person selected, one without under "Claude Desktop", and never the VM path', async () => {
    const roots = makeTempDir('steward-e2e-cowork-');
    const desktop = join(roots.dir, 'desktop');
    desktopSession(desktop, 'cw-sorted', 4, 'Sort the invoices', ['/Users/ana/Documents/invoices']);
    desktopSession(desktop, 'cw-loose', 2, 'Loose ends');
    const steward = await startServe({ claudeDesktopRoots: [desktop] });
    const browser = await launchChromium();
    try {
      await eventually('the start-up sweep imports both', async () => ((await steward.rpc('Projects.List', {})).projects.length === 2 ? true : undefined));
      const { page, problems } = await openPanel(browser, steward);
      await goToPlace(page, 'Projects');
      const rows = page.getByRole('region', { name: 'Projects' }).locator('tbody tr');
      await eventually('both projects are listed', async () => ((await rows.count()) === 2 ? true : undefined));
      const sorted = rows.filter({ hasText: 'invoices' });
      expect(await sorted.count()).toBe(1);
      expect(await sorted.innerText()).toContain('Sort the invoices');
      const loose = rows.filter({ hasText: 'Claude Desktop' });
      expect(await loose.count()).toBe(1);
      expect(await loose.innerText()).toContain('Loose ends');
      expect(await page.locator('main').innerText()).not.toMatch(/\/sessions\/|-vm\b|outputs/);
      expect(problems).toEqual([]);
    } finally {
      await browser.close();
      await steward.stop({ check: false });
    }
  });
});

describe('the read worker of the built owner', () => {
  it('imports through the worker thread when forced on, with the same rows as in-thread reading', async () => {
    const roots = makeTempDir('steward-e2e-worker-');
    const claude = join(roots.dir, 'claude');
    claudeSession(claude, 'worker-a', 5, { cwd: '/work/worker-project' });
    claudeSession(claude, 'worker-b', 3, { cwd: '/work/worker-project' });
    writeJsonl(join(claude, 'projects', 'p', 'broken.jsonl'), ['{"type":"user","uuid":"cut', JSON.stringify(claudeLine({ sessionId: 'worker-c' }))]);
    const steward = await startServe({ claudeRoots: [claude], env: { STEWARD_READ_WORKER: '1' } });
    try {
      const result = await steward.rpc('Backfill.Run', { provider: 'claude', all: true });
      expect(result.providers[0]).toMatchObject({ provider: 'claude', discovered: 3, read: 3, failed: 0, failedLines: 1, skipped: { malformed: 1 } });
      const { projects } = await steward.rpc('Projects.List', {});
      expect(projects.find((p) => p.name === 'worker-project')).toMatchObject({ sessions: 2 });
      // The owner's scan log (stderr in headless mode) names where the files were read.
      expect(steward.stderr()).toMatch(/transcript scan provider="claude" scheduled=false reader="worker"/);
    } finally {
      await steward.stop({ check: false });
    }
  });
});
