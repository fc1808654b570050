import { createServer, type AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { besidesOwnerGone, launchChromium, makeTempDir, openPanel, runSteward, startServe } from './harness.js';

/** A port that was free a moment ago, so two owners in a row can be asked for the same one. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('the panel address across a restart', () => {
  let browser: Browser;
  const home = makeTempDir('steward-e2e-restart-');
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    home.remove();
  });

  it('an open tab reconnects to the restarted owner with the same token; steward info prints that address', async () => {
    const port = await freePort();
    const first = await startServe({ home: home.dir, args: ['--port', String(port)] });
    const { context, page, problems } = await openPanel(browser, first);
    await page.locator('[data-testid="status-bar"][data-connection="open"]').waitFor();
    expect(problems).toEqual([]);

    await first.stop();
    await page.locator('[data-testid="status-bar"][data-state="disconnected"]').waitFor({ timeout: 10_000 });

    const second = await startServe({ home: home.dir, args: ['--port', String(port)] });
    try {
      expect(second.token).toBe(first.token);
      // The same tab, never reloaded: it hears the new owner and calls it with the token it already had.
      await page.locator('[data-testid="status-bar"][data-connection="open"]').waitFor({ timeout: 20_000 });
      // While no owner listened, only the network failed; nothing at all may go wrong from here on.
      expect(besidesOwnerGone(problems.splice(0))).toEqual([]);
      expect(await page.getByTestId('no-token').count()).toBe(0);
      await page.getByRole('button', { name: 'Pause' }).click();
      await page.locator('[data-testid="status-bar"][data-paused="true"]').waitFor({ timeout: 10_000 });
      expect((await second.rpc('App.Info', {})).status.paused).toBe(true);

      const info = await runSteward(['info', '--json'], second.env);
      expect(JSON.parse(info.stdout)).toMatchObject({ via: 'owner', url: second.panelUrl });
      expect(problems).toEqual([]);
    } finally {
      await context.close();
      await second.stop();
    }
  });
});
