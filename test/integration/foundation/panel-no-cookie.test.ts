import { mkdirSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startOwner, type Owner } from '../../../core/index.js';
import { tempHome, type TempHome } from '../../support/home.js';

/**
 * The panel's token never travels in a cookie: a cookie ignores the port, so the browser would hand it
 * to any other server on 127.0.0.1 (another person's, a dev server, whatever takes the port later) that
 * it asks for `/rpc` or `/events`. The page keeps the token in its origin's localStorage instead and
 * sends it as a bearer header. These tests speak raw HTTP to a real loopback owner, so they send
 * exactly the headers a browser would, cookies included.
 */

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
}

/** One request; an event stream is cut once its headers arrived (it would never end by itself). */
function send(port: number, path: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method: options.method ?? 'GET', headers: { host: `127.0.0.1:${port}`, ...options.headers } }, (res) => {
      const reply = { status: res.statusCode ?? 0, headers: res.headers };
      if (res.headers['content-type'] === 'text/event-stream') {
        res.destroy();
        resolve(reply);
        return;
      }
      res.resume();
      res.on('end', () => resolve(reply));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

const INFO = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'App.Info', params: {} });

describe("the panel's token is never a cookie", () => {
  let home: TempHome;
  let owner: Owner;
  let port: number;
  let origin: string;

  beforeEach(async () => {
    home = tempHome('steward-panel-no-cookie-');
    const renderer = join(home.dir, 'fake-renderer');
    mkdirSync(join(renderer, 'assets'), { recursive: true });
    writeFileSync(join(renderer, 'index.html'), '<!doctype html><title>panel</title><script type="module" src="/assets/main.js"></script>');
    writeFileSync(join(renderer, 'assets', 'main.js'), 'export {};');
    owner = await startOwner({ home: { dir: home.dir, kind: 'env' }, env: home.env, port: 0, rendererDir: renderer, schedule: false });
    port = owner.http.port;
    origin = `http://127.0.0.1:${port}`;
  });

  afterEach(async () => {
    await owner.stop();
    home.cleanup();
  });

  it('sets no cookie on any route: the first load, its files, /rpc, /events, nor the /remember that once set one', async () => {
    const bearer = { authorization: `Bearer ${owner.http.token}` };
    // The panel header 4c704c2's page sent beside its requests; a page of this origin may still send it.
    const page = { ...bearer, origin, 'x-steward-panel': '1' };
    const replies: Array<[string, Reply]> = [
      ['GET /', await send(port, '/')],
      ['GET /index.html', await send(port, '/index.html')],
      ['GET /assets/main.js', await send(port, '/assets/main.js')],
      ['GET /sessions/x (unknown path)', await send(port, '/sessions/x')],
      ['POST /rpc', await send(port, '/rpc', { method: 'POST', headers: { ...page, 'content-type': 'application/json' }, body: INFO })],
      ['GET /events', await send(port, '/events', { headers: page })],
      ['POST /remember', await send(port, '/remember', { method: 'POST', headers: page })],
      ['GET /remember', await send(port, '/remember', { headers: page })],
    ];
    for (const [name, reply] of replies) expect(reply.headers['set-cookie'], name).toBeUndefined();
    const status = (route: string) => replies.find(([name]) => name === route)?.[1].status;
    expect(status('GET /')).toBe(200);
    expect(status('GET /assets/main.js')).toBe(200);
    expect(status('POST /rpc')).toBe(200);
    expect(status('GET /events')).toBe(200);
    // No route lets a browser in by remembering it: the page keeps the token itself.
    expect(status('POST /remember')).toBeGreaterThanOrEqual(400);
  });

  it('refuses a request that carries the real token only in a cookie (401), with or without the panel header', async () => {
    const token = owner.http.token;
    const cookies = [`steward_panel_${port}=${token}`, `token=${token}`, `steward.token=${token}`, `steward_panel_${port}=${token}; other=1`];
    for (const cookie of cookies) {
      const extras: Array<Record<string, string>> = [{}, { 'x-steward-panel': '1' }, { 'x-steward-panel': '1', origin }];
      for (const extra of extras) {
        const headers = { cookie, ...extra };
        const rpc = await send(port, '/rpc', { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: INFO });
        expect(rpc.status, `${cookie} ${JSON.stringify(extra)} /rpc`).toBe(401);
        const events = await send(port, '/events', { headers });
        expect(events.status, `${cookie} ${JSON.stringify(extra)} /events`).toBe(401);
      }
    }
    // A wrong bearer is not rescued by the right token in a cookie.
    const both = { authorization: `Bearer ${'A'.repeat(43)}`, cookie: `steward_panel_${port}=${token}`, 'x-steward-panel': '1' };
    expect((await send(port, '/rpc', { method: 'POST', headers: { ...both, 'content-type': 'application/json' }, body: INFO })).status).toBe(401);
    // The bearer header alone still opens the door.
    expect((await send(port, '/rpc', { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: INFO })).status).toBe(200);
  });
});
