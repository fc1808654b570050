import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claudeLine, writeJsonl } from '../support/transcripts.js';
import { goToPlace, launchChromium, makeTempDir, openPanel, runSteward, screenshotPath, startServe, type ServedSteward } from './harness.js';

/**
 * Notes reach the agent: the panel installs Claude Code's SessionStart hook after showing the change,
 * offers the MCP command, a local Ollama's models and the daily budget, and sweeps every project on
 * request; the built `steward context --hook` then answers a hook's JSON from the notes alone.
 */
describe('notes reach the agent', () => {
  let steward: ServedSteward;
  let browser: Browser;
  let ollama: Server;
  const cwd = '/work/e2e-harbour';
  let claude: string;

  /** A new project with activity not curated yet, imported from disk. */
  async function newProject(name: string, text: string): Promise<string> {
    const at = Date.now() - 60_000;
    writeJsonl(join(claude, 'projects', `-work-${name}`, `${name}-1.jsonl`), [
      claudeLine({ sessionId: `${name}-1`, cwd: `/work/${name}`, ts: new Date(at), text }),
      claudeLine({ sessionId: `${name}-1`, cwd: `/work/${name}`, ts: new Date(at + 1_000), type: 'assistant', text: 'Done. Next step: check it.' }),
    ]);
    await steward.rpc('Backfill.Run', {});
    const { projects } = await steward.rpc('Projects.List', {});
    return projects.find((p) => p.name === name)!.projectKey;
  }

  beforeAll(async () => {
    // A loopback stand-in for Ollama's `GET /api/tags`; anything else (the curator's chat call) is a 404, as from a wrong base URL.
    ollama = createServer((req, res) => {
      if (req.url !== '/api/tags') {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: 'model not found' } }));
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ models: [{ name: 'llama3.2:latest', model: 'llama3.2:latest', size: 2_019_393_189 }] }));
    });
    await new Promise<void>((resolve) => ollama.listen(0, '127.0.0.1', resolve));
    const roots = makeTempDir('steward-e2e-context-');
    claude = join(roots.dir, 'claude');
    writeJsonl(join(claude, 'projects', '-work-e2e-harbour', 'harbour-1.jsonl'), [
      claudeLine({ sessionId: 'harbour-1', cwd, ts: new Date('2026-11-28T08:00:00Z'), text: 'Add a low-water warning for the harbour entrance' }),
      claudeLine({ sessionId: 'harbour-1', cwd, ts: new Date('2026-11-28T08:01:00Z'), type: 'assistant', text: 'Added the warning. Next step: tune the threshold.' }),
    ]);
    steward = await startServe({ claudeRoots: [claude], env: { STEWARD_OLLAMA_URL: `http://127.0.0.1:${(ollama.address() as AddressInfo).port}` } });
    browser = await launchChromium();
    await steward.rpc('Backfill.Run', {});
  });

  afterAll(async () => {
    await browser?.close();
    await steward?.stop({ check: false });
    await new Promise((resolve) => ollama?.close(resolve));
  });

  it('Projects: "Sweep all projects now" names the count and the curator, then sweeps on Confirm', async () => {
    const { page, problems } = await openPanel(browser, steward);
    await goToPlace(page, 'Projects');
    await page.getByRole('button', { name: 'Sweep all projects now…' }).click();
    const confirm = page.getByRole('group', { name: 'Sweep all projects' });
    await confirm.waitFor();
    expect(await confirm.innerText()).toContain('Sweep 1 project with the offline curator? Nothing leaves this computer.');
    await confirm.getByRole('button', { name: 'Sweep 1 project' }).click();
    await page.getByText('Swept 1 project: 1 updated.').waitFor();
    expect(problems).toEqual([]);
  });

  it('Settings: the hook is installed only after the change is shown and confirmed', async () => {
    const settingsFile = join(steward.env.HOME!, '.claude', 'settings.json');
    const { page, problems } = await openPanel(browser, steward);
    await goToPlace(page, 'Settings');
    await page.getByRole('button', { name: 'Install the session-start hook…' }).click();
    const change = page.getByRole('group', { name: "The change to Claude Code's settings" });
    await change.waitFor();
    expect(await change.getByLabel('Change to be made').innerText()).toContain('context --hook');
    expect(existsSync(settingsFile)).toBe(false);
    await page.screenshot({ path: screenshotPath('agent-context-hook-change.png'), fullPage: true });
    await change.getByRole('button', { name: 'Confirm' }).click();
    await page.getByText('New Claude Code sessions pick it up.').waitFor();
    const settings = JSON.parse(readFileSync(settingsFile, 'utf8')) as { hooks: { SessionStart: Array<{ matcher: string; hooks: Array<{ command: string }> }> } };
    expect(settings.hooks.SessionStart[0]!.matcher).toBe('startup|resume|clear|compact');
    expect(settings.hooks.SessionStart[0]!.hooks[0]!.command).toMatch(/steward\.js" context --hook --home ".+"$/);
    await page.getByRole('button', { name: 'Remove the session-start hook…' }).waitFor();
    await page.getByRole('button', { name: 'Copy MCP setup command' }).click();
    await page.getByText(/^Copied the MCP setup command\.$|^Copying is not allowed here/).waitFor();
    expect(await page.locator('.agent-context__command').innerText()).toMatch(/^claude mcp add --scope user steward --env STEWARD_HOME=".+" -- .*steward\.js" mcp$/);
    expect(problems).toEqual([]);
  });

  it("Settings: a local Ollama's models are offered with where the text would go, and chosen only by the user", async () => {
    const { page, problems } = await openPanel(browser, steward);
    await goToPlace(page, 'Settings');
    const local = page.getByRole('group', { name: 'Local models' });
    await local.getByRole('button', { name: 'Find local models' }).click();
    await local.getByText(/transcripts would go to it, on this computer's network, not to the internet/).waitFor();
    expect((await steward.rpc('Settings.Get', {})).sweeper.curator).toBe('offline');
    await local.getByRole('button', { name: 'Use this model' }).click();
    await local.getByText(/The curator is now llama3\.2:latest/).waitFor();
    expect((await steward.rpc('Settings.Get', {})).sweeper).toMatchObject({ curator: 'openai-compatible', model: 'llama3.2:latest', dataBoundary: 'local_network' });
    const budget = page.getByRole('form', { name: 'Which projects get notes' });
    const calls = budget.getByLabel('Model calls a day, across all projects');
    expect(await calls.inputValue()).toBe('200');
    await calls.fill('50');
    await budget.getByRole('button', { name: 'Save folders and budget' }).click();
    await budget.getByText('Saved to config.json. It applies now.').waitFor();
    expect((await steward.rpc('Settings.Get', {})).sweeper.budget.limit).toBe(50);
    expect(problems).toEqual([]);
  });

  it('Projects: after "Sweep all", a project that failed is named, with why, and links to its page', async () => {
    // The curator is now the loopback "Ollama" (chosen above), whose chat endpoint answers 404.
    const projectKey = await newProject('e2e-lighthouse', 'Replace the lighthouse lamp timer');
    const { page, problems } = await openPanel(browser, steward);
    await goToPlace(page, 'Projects');
    await page.getByRole('button', { name: 'Sweep all projects now…' }).click();
    const confirm = page.getByRole('group', { name: 'Sweep all projects' });
    await confirm.getByRole('button', { name: 'Sweep 1 project' }).click();
    const result = page.locator('.sweep-all__result');
    await result.getByText('Swept 1 project: 1 failed.').waitFor();
    const items = await result.getByRole('listitem').allInnerTexts();
    expect(items).toHaveLength(1);
    expect(items[0]).toMatch(/^e2e-lighthouse failed: The model endpoint.* answered HTTP 404: check the base URL and the model name\.$/);
    const link = result.getByRole('link', { name: 'e2e-lighthouse' });
    expect(await link.getAttribute('href')).toBe(`#/projects/${projectKey}`);
    await link.click();
    await page.waitForURL((url) => url.hash === `#/projects/${projectKey}`);
    expect(problems).toEqual([]);
  });

  it("Projects: when today's model calls are spent, the panel says so instead of offering the sweep", async () => {
    await newProject('e2e-quay', 'Paint the quay bollards');
    await steward.rpc('Settings.SetBudget', { dailyModelCalls: 0 });
    const { page, problems } = await openPanel(browser, steward);
    await goToPlace(page, 'Projects');
    await page.getByRole('button', { name: 'Sweep all projects now…' }).click();
    await page.getByText(/^Today's model calls are spent \(\d+ of 0\)/).waitFor();
    expect(await page.getByRole('button', { name: /^Sweep \d+ project/ }).count()).toBe(0);
    expect(problems).toEqual([]);
  });

  it('the built `steward context --hook` answers from the notes with no owner needed, and never fails', async () => {
    const hook = (cwdOf: string) => runSteward(['context', '--hook'], steward.env, 30_000, JSON.stringify({ session_id: 's', cwd: cwdOf, hook_event_name: 'SessionStart', source: 'startup' }));
    const answer = await hook(`${cwd}/src`);
    expect(answer.code).toBe(0);
    const parsed = JSON.parse(answer.stdout) as { hookSpecificOutput: { hookEventName: string; additionalContext: string } };
    expect(parsed.hookSpecificOutput.hookEventName).toBe('SessionStart');
    expect(parsed.hookSpecificOutput.additionalContext).toContain('Task: Add a low-water warning for the harbour entrance');
    expect(answer.stderr).toBe('');
    const elsewhere = await hook('/somewhere/else');
    expect(elsewhere).toMatchObject({ code: 0, stdout: '', stderr: '' });
    const garbage = await runSteward(['context', '--hook'], steward.env, 30_000, 'not json at all');
    expect(garbage).toMatchObject({ code: 0, stdout: '', stderr: '' });
  });
});
