import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY } from '../../../core/index.js';
import { createRendererHandler } from '../../../electron/protocol.js';
import { tempHome, type TempHome } from '../../support/home.js';

describe('steward:// renderer protocol', () => {
  let home: TempHome;
  let handler: (request: Request) => Promise<Response>;

  beforeEach(() => {
    home = tempHome('steward-protocol-');
    const dir = join(home.dir, 'renderer');
    mkdirSync(join(dir, 'assets'), { recursive: true });
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>panel</title>');
    writeFileSync(join(dir, 'assets', 'app.js'), 'console.log(1)');
    writeFileSync(join(home.dir, 'secret.txt'), 'not for the page');
    handler = createRendererHandler(dir);
  });

  afterEach(() => home.cleanup());

  const get = (url: string, method = 'GET') => handler(new Request(url, { method }));

  it('serves the page and its assets with the strict CSP and a content type', async () => {
    const page = await get('steward://app/index.html');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    expect(await page.text()).toContain('<title>panel</title>');
    const script = await get('steward://app/assets/app.js');
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect((await get('steward://app/')).status).toBe(200);
  });

  it('falls back to the page for in-app routes, but not for missing files', async () => {
    expect(await (await get('steward://app/projects')).text()).toContain('<title>panel</title>');
    expect((await get('steward://app/assets/missing.js')).status).toBe(404);
  });

  it('never serves outside the renderer folder', async () => {
    for (const url of ['steward://app/../secret.txt', 'steward://app/%2e%2e/secret.txt', 'steward://app/..%2fsecret.txt', 'steward://app/assets/..%2f..%2fsecret.txt']) {
      const response = await get(url);
      expect(response.status, url).not.toBe(200);
      expect(await response.text(), url).not.toContain('not for the page');
    }
  });

  it('does not follow a symlink out of the folder', async () => {
    symlinkSync(join(home.dir, 'secret.txt'), join(home.dir, 'renderer', 'assets', 'link.txt'));
    const response = await get('steward://app/assets/link.txt');
    expect(response.status).toBe(404);
    expect(await response.text()).not.toContain('not for the page');
  });

  it('answers only its own host, and only reads', async () => {
    expect((await get('steward://other/index.html')).status).toBe(404);
    expect((await get('steward://app/index.html', 'POST')).status).toBe(405);
  });

  it('says the panel is not built when there is no index.html', async () => {
    const empty = createRendererHandler(join(home.dir, 'nothing'));
    expect((await empty(new Request('steward://app/'))).status).toBe(503);
    expect((await empty(new Request('steward://app/app.js'))).status).toBe(404);
    expect((await empty(new Request('steward://app/projects'))).status).toBe(503);
  });
});
