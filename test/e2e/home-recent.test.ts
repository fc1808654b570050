import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claudeLine, writeJsonl } from '../support/transcripts.js';
import { eventually, launchChromium, makeTempDir, openPanel, startServe, type ServedSteward } from './harness.js';

/** Conversations in three projects, each last active at its own time (hours ago), oldest first here. */
const SEEDED = [
  { id: 'a0a0a0a0-0000-4000-8000-000000000001', cwd: '/work/orchard', ask: 'Plan the winter pruning.', hoursAgo: 30 },
  { id: 'a0a0a0a0-0000-4000-8000-000000000002', cwd: '/work/harbor', ask: 'Why does the tide table lag?', hoursAgo: 5 },
  { id: 'a0a0a0a0-0000-4000-8000-000000000003', cwd: '/work/orchard', ask: 'Order the grafting tape.', hoursAgo: 2 },
] as const;
const LATER = { id: 'a0a0a0a0-0000-4000-8000-000000000004', cwd: '/work/kiln', ask: 'Fire the second glaze batch.', hoursAgo: 0 } as const;

/** `<root>/projects/<encoded cwd>/<id>.jsonl`: a question and an answer, at the conversation's own time. */
function writeConversation(claudeRoot: string, c: { id: string; cwd: string; ask: string; hoursAgo: number }): void {
  const at = Date.now() - c.hoursAgo * 3_600_000 - 60_000;
  writeJsonl(join(claudeRoot, 'projects', c.cwd.replaceAll('/', '-'), `${c.id}.jsonl`), [
    claudeLine({ sessionId: c.id, cwd: c.cwd, ts: new Date(at), text: c.ask }),
    claudeLine({ sessionId: c.id, cwd: c.cwd, ts: new Date(at + 30_000), type: 'assistant', text: 'On it.' }),
  ]);
}

/**
 * Panel QA (a new user): once Getting started is done, Home offers the way back to recent work, newest
 * first across projects, and an agent folder that is there but empty says so instead of "Found".
 */
describe("Home's recent conversations", () => {
  let steward: ServedSteward;
  let browser: Browser;
  let claudeRoot: string;

  beforeAll(async () => {
    const roots = makeTempDir('steward-e2e-home-recent-');
    claudeRoot = join(roots.dir, 'claude');
    for (const c of SEEDED) writeConversation(claudeRoot, c);
    // OpenClaw's folder exists and holds nothing yet.
    const openclaw = join(roots.dir, 'openclaw');
    mkdirSync(openclaw, { recursive: true });
    steward = await startServe({ claudeRoots: [claudeRoot], openclawRoots: [openclaw] });
    browser = await launchChromium();
    await eventually('the start-up import brought the conversations in', async () => ((await steward.rpc('Cache.Stats', {})).conversations === SEEDED.length ? true : undefined), 30_000);
    await steward.rpc('App.SetFirstRunDone', { done: true });
  });

  afterAll(async () => {
    await browser?.close();
    await steward?.stop({ check: false });
  });

  it('lists them newest first with agent, project and messages, updates on a check, and opens one at its address', async () => {
    const { page, problems } = await openPanel(browser, steward);
    const recent = page.getByTestId('recent-conversations');
    await recent.waitFor();
    const links = recent.locator('a[data-session]');
    expect(await links.evaluateAll((as) => as.map((a) => a.getAttribute('data-session')))).toEqual([...SEEDED].reverse().map((c) => c.id));
    const first = recent.locator('li').first();
    expect(await first.innerText()).toMatch(/Order the grafting tape\.\s*Claude Code · orchard · 2 hours ago · 2 messages/);
    expect(await recent.locator('li').nth(1).innerText()).toContain('harbor');
    // A way to all of them.
    expect(await page.getByRole('region', { name: 'Recent conversations' }).getByRole('link', { name: 'All conversations, by project' }).getAttribute('href')).toBe('#/projects');

    // The empty OpenClaw folder says so; Claude Code's, with transcripts, is found.
    const watched = page.getByTestId('watched');
    await eventually('the folders are counted', async () => ((await watched.locator('[data-provider="openclaw"]').innerText()).includes('Found, no conversations yet') ? true : undefined));
    expect(await watched.locator('[data-provider="claude"]').innerText()).toMatch(/^Found\b(?!, no)/m);

    // A conversation written since comes in with the next check, at the top, without a reload.
    writeConversation(claudeRoot, LATER);
    await steward.rpc('Sweep.Tick', {});
    await eventually('the new conversation is listed first', async () => ((await links.first().getAttribute('data-session')) === LATER.id ? true : undefined));
    expect(await links.count()).toBe(SEEDED.length + 1);

    // Followed, a link opens the conversation at its own address.
    await recent.getByRole('link', { name: 'Why does the tide table lag?' }).click();
    await page.waitForURL(`**#/sessions/${SEEDED[1].id}`);
    await eventually('the conversation opens', async () => ((await page.locator('main h1').innerText()) === 'Why does the tide table lag?' ? true : undefined));
    expect(problems).toEqual([]);
  });
});
