import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claudeLine, writeJsonl } from '../support/transcripts.js';
import { launchChromium, makeTempDir, openPanel, screenshotPath, startServe, type ServedSteward, goToPlace } from './harness.js';

/** After a sweep on a fixture, the Projects place shows the rendered OVERVIEW and the new bullet. */
describe('the Projects place shows the sweeper notes', () => {
  let steward: ServedSteward;
  let browser: Browser;
  let projectKey: string;
  let bullet: string;

  beforeAll(async () => {
    const roots = makeTempDir('steward-e2e-sweeper-');
    const claude = join(roots.dir, 'claude');
    const cwd = '/work/e2e-orchard';
    writeJsonl(join(claude, 'projects', '-work-e2e-orchard', 'orchard-1.jsonl'), [
      claudeLine({ sessionId: 'orchard-1', cwd, ts: new Date('2026-11-29T08:00:00Z'), text: 'Plan the pruning calendar for the <b>apple</b> trees' }),
      claudeLine({
        sessionId: 'orchard-1',
        cwd,
        ts: new Date('2026-11-29T08:01:00Z'),
        type: 'assistant',
        content: [
          { type: 'text', text: "We'll use a month grid instead of a list. Next step: add the pear trees." },
          { type: 'tool_use', id: 'tu_1', name: 'Write', input: { file_path: `${cwd}/src/pruning.ts`, content: 'export {}' } },
        ],
      }),
    ]);
    // A second project, marked scratch below: the list says its notes are never written.
    const compost = '/work/e2e-compost';
    writeJsonl(join(claude, 'projects', '-work-e2e-compost', 'compost-1.jsonl'), [
      claudeLine({ sessionId: 'compost-1', cwd: compost, ts: new Date('2026-11-29T09:00:00Z'), text: 'Turn the compost ledger into a CSV' }),
      claudeLine({ sessionId: 'compost-1', cwd: compost, ts: new Date('2026-11-29T09:01:00Z'), type: 'assistant', text: 'Done: ledger.csv has one row a week.' }),
    ]);
    steward = await startServe({ claudeRoots: [claude] });
    browser = await launchChromium();
    await steward.rpc('Backfill.Run', {});
    const { projects } = await steward.rpc('Projects.List', {});
    projectKey = projects.find((p) => p.name === 'e2e-orchard')!.projectKey;
    await steward.rpc('Projects.SetScratch', { projectKey: projects.find((p) => p.name === 'e2e-compost')!.projectKey, scratch: true });
    // Forced: the owner may already have swept it on its own after the startup capture.
    const result = await steward.rpc('Sweeper.Run', { projectKey, force: true });
    expect(result).toMatchObject({ mode: 'offline' });
    const got = await steward.rpc('Projects.Get', { projectKey });
    bullet = /^- (.+)$/m.exec(got.changelog ?? '')![1]!;
  });

  afterAll(async () => {
    await browser?.close();
    await steward?.stop({ check: false });
  });

  it('renders OVERVIEW.md and CHANGELOG.md as Markdown, without raw HTML, with the last sweep', async () => {
    const { page, problems } = await openPanel(browser, steward);
    await goToPlace(page, 'Projects');
    await page.getByRole('link', { name: 'e2e-orchard' }).click();
    const detail = page.locator('section.project-detail');
    const overview = detail.getByRole('region', { name: 'OVERVIEW.md' });
    await overview.locator('h1').waitFor();
    expect(await overview.locator('h1').innerText()).toBe('e2e-orchard');
    expect(await overview.locator('.note-markdown h2').allInnerTexts()).toContain('Current state and focus');
    expect(await overview.locator('li').allInnerTexts()).toContain('Task: Plan the pruning calendar for the apple trees (2026-11-29)');
    expect(await overview.locator('li').allInnerTexts()).toContain('src/ pruning.ts');
    expect(await overview.locator('b').count()).toBe(0);
    const changelog = detail.getByRole('region', { name: 'CHANGELOG.md' });
    expect(await changelog.locator('.note-markdown h2').count()).toBe(1);
    // The raw <b> tags of the ask are dropped, not rendered.
    expect(await changelog.locator('li').allInnerTexts()).toEqual([bullet.replace(/<\/?b>/g, '')]);
    expect(bullet).toContain('<b>apple</b>');
    expect(await detail.locator('dl').innerText()).toMatch(/Updated|No change/);
    await page.screenshot({ path: screenshotPath('sweeper-project-detail.png'), fullPage: true });

    await detail.getByRole('button', { name: 'Sweep now' }).click();
    // The result is said beside the button, where the person looks.
    await detail.getByTestId('sweep-result').getByText('Nothing new since the last sweep: the notes are current.').waitFor();
    await detail.getByRole('button', { name: 'Sweep anyway' }).waitFor();
    expect(problems).toEqual([]);
  });

  it('the project list says where each project\'s notes stand, in words, with the sweeper\'s sentence', async () => {
    const { page, problems } = await openPanel(browser, steward);
    await goToPlace(page, 'Projects');
    const notesOf = (name: string) => page.locator('.project-table tbody tr').filter({ has: page.getByRole('link', { name, exact: true }) }).locator('.project-notes');
    await notesOf('e2e-compost').waitFor();
    // The label is text; the whole sentence is its tooltip and is read out after it.
    expect(await notesOf('e2e-orchard').innerText()).toMatch(/^Notes current\b/);
    expect(await notesOf('e2e-orchard').getAttribute('title')).toBe('Nothing new since the last sweep: the notes are current.');
    expect(await notesOf('e2e-compost').innerText()).toMatch(/^Scratch project\b/);
    expect(await notesOf('e2e-compost').getAttribute('title')).toBe('This is a scratch project; it is never swept.');
    // Filter narrows by the words of the label too, as it narrows by name and folder.
    const rows = page.locator('.project-table tbody tr a[data-project]');
    const shownFor = async (filter: string, names: string[]) => {
      await page.getByLabel('Filter').fill(filter);
      await expect.poll(async () => (await rows.allInnerTexts()).sort()).toEqual(names);
    };
    await shownFor('scratch', ['e2e-compost']);
    await shownFor('notes current', ['e2e-orchard']);
    await shownFor('failed', []);
    expect(await page.locator('.project-filter [role="status"]').innerText()).toBe('0 of 2 projects');
    await shownFor('', ['e2e-compost', 'e2e-orchard']);
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      const axe = await new AxeBuilder({ page }).include('main').analyze();
      expect(axe.violations.map((v) => `${colorScheme} ${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
    }
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('the Settings place shows the offline curator as the default', async () => {
    const { page, problems } = await openPanel(browser, steward);
    await goToPlace(page, 'Settings');
    const form = page.getByRole('form', { name: 'Project notes curator' });
    await form.waitFor();
    expect(await form.getByRole('radio', { name: 'Offline (no model)' }).isChecked()).toBe(true);
    expect(problems).toEqual([]);
  });
});
