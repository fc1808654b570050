import { mkdirSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startOwner, type Owner } from '../../../core/index.js';
import { tempHome, type TempHome } from '../../support/home.js';

/**
 * A bookmark or a new tab of the panel carries no token (it left the address on the first load): the
 * browser gets in on the HttpOnly cookie the owner set when the page first held the token. These
 * tests speak raw HTTP to a real loopback owner, so they set Host, Origin and Cookie exactly as a
 * browser, a hostile page or a DNS-rebinding attack would.
 */

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One request; an event stream is cut once its headers arrived (it would never end by itself). */
function send(port: number, path: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method: options.method ?? 'GET', headers: { host: `127.0.0.1:${port}`, ...options.headers } }, (res) => {
      if (res.headers['content-type'] === 'text/event-stream') {
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: '' });
        res.destroy();
        return;
      }
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

const INFO = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'App.Info', params: {} });

describe('the panel cookie: a browser let in once opens bookmarks and new tabs without the token', () => {
  let home: TempHome;
  let owner: Owner;
  let port: number;

  beforeEach(async () => {
    home = tempHome('steward-panel-cookie-');
    const renderer = join(home.dir, 'fake-renderer');
    mkdirSync(renderer);
    writeFileSync(join(renderer, 'index.html'), '<!doctype html><title>panel</title>');
    owner = await startOwner({ home: { dir: home.dir, kind: 'env' }, env: home.env, port: 0, rendererDir: renderer, schedule: false });
    port = owner.http.port;
  });

  afterEach(async () => {
    await owner.stop();
    home.cleanup();
  });

  /** What the page does on its first load with the link's token: asks to be remembered. */
  async function firstVisit(): Promise<{ reply: Reply; cookie: string }> {
    const reply = await send(port, '/remember', { method: 'POST', headers: { authorization: `Bearer ${owner.http.token}`, origin: `http://127.0.0.1:${port}` } });
    expect(reply.status).toBe(204);
    const setCookies = [reply.headers['set-cookie'] ?? []].flat();
    expect(setCookies.length).toBeGreaterThan(0);
    // name=value of the first one: the same pair is set for each data route.
    return { reply, cookie: setCookies[0]!.split(';')[0]! };
  }

  /** A later load of a bookmark: no Authorization, only the cookie and the panel's header. */
  const withCookie = (cookie: string, extra: Record<string, string> = {}) => ({ cookie, 'x-steward-panel': '1', ...extra });
  const rpcWith = (headers: Record<string, string>) => send(port, '/rpc', { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: INFO });

  it('sets an HttpOnly, SameSite=Strict cookie per data route on the first visit with the token; a later request with only the cookie works', async () => {
    const { reply, cookie } = await firstVisit();
    const setCookies = [reply.headers['set-cookie'] ?? []].flat();
    expect(cookie).toBe(`steward_panel_${port}=${owner.http.token}`);
    const paths = setCookies.map((c) => /;\s*Path=([^;]+)/i.exec(c)?.[1]).sort();
    expect(paths).toEqual(['/events', '/remember', '/rpc']);
    for (const c of setCookies) {
      expect(c).toMatch(/;\s*HttpOnly(;|$)/i);
      expect(c).toMatch(/;\s*SameSite=Strict(;|$)/i);
      expect(c).toMatch(/;\s*Max-Age=\d+/i);
      // Plain http on loopback: a Secure cookie would never be sent back, and no Domain keeps it host-only.
      expect(c).not.toMatch(/;\s*(Secure|Domain=)/i);
    }

    const info = await rpcWith(withCookie(cookie));
    expect(info.status).toBe(200);
    expect(JSON.parse(info.body)).toMatchObject({ result: { name: 'Steward' } });
    // The page's own same-origin request (a POST carries its Origin) gets in the same way.
    expect((await rpcWith(withCookie(cookie, { origin: `http://localhost:${port}`, host: `localhost:${port}` }))).status).toBe(200);
    const events = await send(port, '/events', { headers: withCookie(cookie) });
    expect(events.status).toBe(200);
    expect(events.headers['content-type']).toBe('text/event-stream');
    // A bookmark's visit renews the cookie on the cookie alone.
    const renewed = await send(port, '/remember', { method: 'POST', headers: withCookie(cookie) });
    expect(renewed.status).toBe(204);
    expect([renewed.headers['set-cookie'] ?? []].flat()).toHaveLength(3);
  });

  it('still refuses a foreign Origin or Host that carries the cookie (cross-site requests, DNS rebinding)', async () => {
    const { cookie } = await firstVisit();
    expect((await rpcWith(withCookie(cookie))).status).toBe(200);

    for (const origin of ['http://evil.example', `http://127.0.0.1:${port + 1}`, 'null']) {
      expect((await rpcWith(withCookie(cookie, { origin }))).status, origin).toBe(403);
      expect((await send(port, '/events', { headers: withCookie(cookie, { origin }) })).status, origin).toBe(403);
      const remember = await send(port, '/remember', { method: 'POST', headers: withCookie(cookie, { origin }) });
      expect(remember.status, origin).toBe(403);
      expect(remember.headers['set-cookie'], origin).toBeUndefined();
    }
    expect((await rpcWith(withCookie(cookie, { host: `evil.example:${port}` }))).status).toBe(403);
    // A first visit from a foreign page gets no cookie, even with the token.
    const foreign = await send(port, '/remember', { method: 'POST', headers: { authorization: `Bearer ${owner.http.token}`, origin: 'http://evil.example' } });
    expect(foreign.status).toBe(403);
    expect(foreign.headers['set-cookie']).toBeUndefined();
  });

  it('refuses a wrong cookie, the cookie without the panel header, and the cookie of a rotated token', async () => {
    const { cookie } = await firstVisit();
    expect((await rpcWith(withCookie(cookie))).status).toBe(200);

    expect((await rpcWith(withCookie(`steward_panel_${port}=${'A'.repeat(43)}`))).status).toBe(401);
    expect((await rpcWith(withCookie(`steward_panel_${port}=short`))).status).toBe(401);
    // Another owner's cookie (cookies ignore the port) is not this owner's.
    expect((await rpcWith(withCookie(`steward_panel_${port + 1}=${owner.http.token}`))).status).toBe(401);
    // A link, an image or a form sends the cookie but cannot add the header.
    expect((await rpcWith({ cookie })).status).toBe(401);
    expect((await send(port, '/events', { headers: { cookie } })).status).toBe(401);
    // Without any token, nothing is remembered.
    const anonymous = await send(port, '/remember', { method: 'POST', headers: { 'x-steward-panel': '1' } });
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers['set-cookie']).toBeUndefined();

    owner.core.panelToken.rotate();
    expect((await rpcWith(withCookie(cookie))).status).toBe(401);
    expect((await send(port, '/remember', { method: 'POST', headers: withCookie(cookie) })).status).toBe(401);
  });
});
