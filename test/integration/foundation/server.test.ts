import { existsSync, mkdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { createParser } from 'eventsource-parser';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppStatus, startOwner, type Owner } from '../../../core/index.js';
import { CONTENT_SECURITY_POLICY, readDaemonInfo } from '../../../core/server/index.js';
import { tempHome, type TempHome } from '../../support/home.js';

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** Raw HTTP so the test controls Host and Origin exactly, as a hostile page or a DNS-rebinding attack would. */
function send(port: number, path: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method: options.method ?? 'GET', headers: { host: `127.0.0.1:${port}`, ...options.headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

describe('headless owner: loopback HTTP transport', () => {
  let home: TempHome;
  let owner: Owner;
  let renderer: string;

  beforeEach(async () => {
    home = tempHome();
    renderer = join(home.dir, 'fake-renderer');
    mkdirSync(renderer);
    writeFileSync(join(renderer, 'index.html'), '<!doctype html><title>panel</title>');
    owner = await startOwner({ home: { dir: home.dir, kind: 'env' }, env: home.env, port: 0, rendererDir: renderer });
  });

  afterEach(async () => {
    await owner.stop();
    home.cleanup();
  });

  const rpc = (body: unknown, headers: Record<string, string> = {}) =>
    send(owner.http.port, '/rpc', { method: 'POST', headers: { authorization: `Bearer ${owner.http.token}`, 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

  it('advertises itself in daemon.json with mode 0600 and without the token in the url', () => {
    const info = readDaemonInfo(home.dir);
    expect(info).toEqual({ pid: process.pid, protocol: 1, url: `http://127.0.0.1:${owner.http.port}/`, token: owner.http.token });
    expect(statSync(join(home.dir, 'daemon.json')).mode & 0o777).toBe(0o600);
    expect(owner.panelUrl).toBe(`http://127.0.0.1:${owner.http.port}/#token=${owner.http.token}`);
    expect(Buffer.from(owner.http.token, 'base64url')).toHaveLength(32);
  });

  it('answers JSON-RPC 2.0 on /rpc with the token, including batches', async () => {
    const one = await rpc({ jsonrpc: '2.0', id: 1, method: 'App.Info', params: {} });
    expect(one.status).toBe(200);
    expect(JSON.parse(one.body)).toMatchObject({ jsonrpc: '2.0', id: 1, result: { name: 'Steward', protocol: 1, homeKind: 'env' } });
    const batch = await rpc([
      { jsonrpc: '2.0', id: 1, method: 'Telemetry.Recent', params: {} },
      { jsonrpc: '2.0', id: 2, method: 'App.Info', params: { nope: true } },
    ]);
    const replies = JSON.parse(batch.body) as Array<{ id: number; result?: unknown; error?: { code: number; data: { code: string } } }>;
    expect(replies.find((r) => r.id === 1)?.result).toMatchObject({ entries: expect.any(Array) });
    expect(replies.find((r) => r.id === 2)?.error).toMatchObject({ code: -32602, data: { code: 'invalid_params' } });
  });

  it('answers a batch with an array even when one answer is in it (JSON-RPC 2.0; a QA finding)', async () => {
    const alone = await rpc([{ jsonrpc: '2.0', id: 7, method: 'App.Info', params: {} }]);
    expect(alone.status).toBe(200);
    const replies = JSON.parse(alone.body) as unknown;
    expect(Array.isArray(replies)).toBe(true);
    expect(replies).toMatchObject([{ jsonrpc: '2.0', id: 7, result: { name: 'Steward' } }]);
    // A notification beside it gets no answer; the one answer is still in an array.
    const withNote = JSON.parse((await rpc([{ jsonrpc: '2.0', id: 8, method: 'App.Info', params: {} }, { jsonrpc: '2.0', method: 'App.Info', params: {} }])).body) as unknown;
    expect(withNote).toMatchObject([{ id: 8 }]);
    // Only notifications: no answer at all. An empty batch: one Invalid Request object, as the spec says.
    expect((await rpc([{ jsonrpc: '2.0', method: 'App.Info', params: {} }])).status).toBe(204);
    expect(JSON.parse((await rpc([])).body)).toMatchObject({ id: null, error: { code: -32600 } });
    // A single request is still answered with an object.
    expect(JSON.parse((await rpc({ jsonrpc: '2.0', id: 9, method: 'App.Info', params: {} })).body)).toMatchObject({ id: 9 });
  });

  it('types every error: unknown method, parse error', async () => {
    const unknown = JSON.parse((await rpc({ jsonrpc: '2.0', id: 3, method: 'Nope.Nothing', params: {} })).body);
    expect(unknown.error).toMatchObject({ code: -32601, data: { code: 'method_not_found' } });
    const garbage = await send(owner.http.port, '/rpc', { method: 'POST', headers: { authorization: `Bearer ${owner.http.token}` }, body: '{not json' });
    expect(JSON.parse(garbage.body).error.code).toBe(-32700);
  });

  it('keeps the door: 403 foreign Host, 403 foreign Origin, 401 without token, in that order', async () => {
    expect((await rpc({}, { host: `evil.example:${owner.http.port}` })).status).toBe(403);
    expect((await send(owner.http.port, '/rpc', { method: 'POST', headers: { host: 'evil.example' } })).status).toBe(403);
    expect((await send(owner.http.port, '/rpc', { method: 'POST', headers: { origin: 'http://evil.example' } })).status).toBe(403);
    expect((await send(owner.http.port, '/rpc', { method: 'POST' })).status).toBe(401);
    expect((await send(owner.http.port, '/events')).status).toBe(401);
    expect((await send(owner.http.port, '/rpc', { method: 'POST', headers: { authorization: 'Bearer wrongwrongwrongwrongwrong' } })).status).toBe(401);
    expect((await send(owner.http.port, '/', { headers: { host: 'evil.example' } })).status).toBe(403);
  });

  it('serves the panel without a token, under a strict CSP', async () => {
    const page = await send(owner.http.port, '/');
    expect(page.status).toBe(200);
    expect(page.body).toContain('<title>panel</title>');
    expect(page.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
    expect(CONTENT_SECURITY_POLICY).toContain("script-src 'self'");
    expect(CONTENT_SECURITY_POLICY).not.toContain('unsafe');
  });

  async function restartWith(links: (renderer: string, outside: string) => void): Promise<void> {
    await owner.stop();
    const outside = join(home.dir, 'outside');
    mkdirSync(join(outside, 'keys'), { recursive: true });
    writeFileSync(join(outside, 'secret.txt'), 'the secret');
    writeFileSync(join(outside, 'keys', 'id_ed25519.pub'), 'the key');
    mkdirSync(join(renderer, 'assets'));
    writeFileSync(join(renderer, 'assets', 'app.js'), 'console.log(1);');
    links(renderer, outside);
    owner = await startOwner({ home: { dir: home.dir, kind: 'env' }, env: home.env, port: 0, rendererDir: renderer });
  }

  it('never follows a link out of the panel folder', async () => {
    await restartWith((panel, outside) => {
      symlinkSync(join(outside, 'secret.txt'), join(panel, 'secret.txt'));
      symlinkSync(join(outside, 'keys'), join(panel, 'keys'));
      symlinkSync(join(panel, 'assets', 'app.js'), join(panel, 'alias.js'));
    });
    expect((await send(owner.http.port, '/assets/app.js')).body).toBe('console.log(1);');
    // A link that stays inside the panel folder is still served.
    expect((await send(owner.http.port, '/alias.js')).body).toBe('console.log(1);');
    for (const path of ['/secret.txt', '/keys/id_ed25519.pub', '/assets/../secret.txt', '/%2e%2e/outside/secret.txt', '/keys']) {
      const reply = await send(owner.http.port, path);
      expect(reply.body, path).not.toMatch(/the secret|the key/);
      // A name with an extension is a missing asset; anything else is a page route, answered with the page.
      if (/\.\w+$/.test(path)) expect(reply.status, path).toBe(404);
      else expect(reply.body, path).toContain('<title>panel</title>');
    }
  });

  it('starts and serves the panel beside a dangling link', async () => {
    await restartWith((panel) => symlinkSync(join(panel, 'gone.js'), join(panel, 'dangling.js')));
    expect((await send(owner.http.port, '/')).body).toContain('<title>panel</title>');
    expect((await send(owner.http.port, '/assets/app.js')).body).toBe('console.log(1);');
    expect((await send(owner.http.port, '/dangling.js')).status).toBe(404);
  });

  it('serves a rebuild made while it runs: the new page and assets, the old ones gone, no new link out followed', async () => {
    mkdirSync(join(renderer, 'assets'));
    writeFileSync(join(renderer, 'assets', 'index-old.js'), 'old();');
    expect((await send(owner.http.port, '/assets/index-old.js')).body).toBe('old();');
    // What `npm run build` does to the folder: the old bundle removed, a new page naming a new bundle.
    rmSync(join(renderer, 'assets', 'index-old.js'));
    writeFileSync(join(renderer, 'assets', 'index-new.js'), 'fresh();');
    writeFileSync(join(renderer, 'index.html'), '<!doctype html><title>rebuilt</title><script src="/assets/index-new.js"></script>');
    mkdirSync(join(renderer, 'fonts'));
    writeFileSync(join(renderer, 'fonts', 'inter.woff2'), 'font');
    const page = await send(owner.http.port, '/');
    expect(page.body).toContain('<title>rebuilt</title>');
    const script = await send(owner.http.port, '/assets/index-new.js');
    expect(script.status).toBe(200);
    expect(script.body).toBe('fresh();');
    expect(script.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
    expect((await send(owner.http.port, '/fonts/inter.woff2')).body).toBe('font');
    expect((await send(owner.http.port, '/assets/index-old.js')).status).toBe(404);
    // A page route still gets the page as it is now.
    expect((await send(owner.http.port, '/projects')).body).toContain('<title>rebuilt</title>');
    // What is on disk now is served, but never through a link (made after start) leading out of the folder.
    const outside = join(home.dir, 'outside-later');
    mkdirSync(outside);
    writeFileSync(join(outside, 'secret.txt'), 'the secret');
    symlinkSync(join(outside, 'secret.txt'), join(renderer, 'secret.txt'));
    symlinkSync(outside, join(renderer, 'linked'));
    writeFileSync(join(renderer, '.env'), 'hidden');
    for (const path of ['/secret.txt', '/linked/secret.txt', '/.env', '/%2e%2e/outside-later/secret.txt', '/linked%2fsecret.txt', '/..%5coutside-later%5csecret.txt']) {
      const reply = await send(owner.http.port, path);
      expect(reply.body, path).not.toMatch(/the secret|hidden/);
    }
  });

  it('refuses oversized bodies', async () => {
    const big = await rpc({ jsonrpc: '2.0', id: 1, method: 'App.Info', params: {}, pad: 'x'.repeat(2 * 1024 * 1024) });
    expect(big.status).toBe(413);
  });

  it('streams events to a token holder: app.status after App.SetPaused', async () => {
    const received: Array<{ event: string | undefined; data: string }> = [];
    const controller = new AbortController();
    const response = await fetch(`http://127.0.0.1:${owner.http.port}/events`, { headers: { authorization: `Bearer ${owner.http.token}` }, signal: controller.signal });
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const parser = createParser({ onEvent: (e) => received.push({ event: e.event, data: e.data }) });
    const reader = response.body!.getReader();
    const pump = (async () => {
      const decoder = new TextDecoder();
      for (;;) {
        const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
        if (done) return;
        parser.feed(decoder.decode(value, { stream: true }));
      }
    })();
    await rpc({ jsonrpc: '2.0', id: 1, method: 'App.SetPaused', params: { paused: true } });
    for (let i = 0; i < 50 && received.length === 0; i += 1) await new Promise((r) => setTimeout(r, 20));
    controller.abort();
    await pump;
    expect(received[0]?.event).toBe('app.status');
    expect(AppStatus.parse(JSON.parse(received[0]!.data))).toMatchObject({ paused: true });
  });

  it('removes daemon.json and releases the lock when stopped', async () => {
    await owner.stop();
    expect(existsSync(join(home.dir, 'daemon.json'))).toBe(false);
    expect(existsSync(join(home.dir, 'steward.lock'))).toBe(false);
    owner = await startOwner({ home: { dir: home.dir, kind: 'env' }, env: home.env, port: 0, rendererDir: renderer });
  });
});

describe('the panel token: one per install, kept across restarts, replaced by rotation', () => {
  let home: TempHome;
  let owner: Owner | undefined;
  const start = () => startOwner({ home: { dir: home.dir, kind: 'env' }, env: home.env, port: 0, schedule: false });
  const info = (port: number, token: string) =>
    send(port, '/rpc', { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'App.Info', params: {} }) });

  beforeEach(() => {
    home = tempHome();
  });
  afterEach(async () => {
    await owner?.stop();
    owner = undefined;
    home.cleanup();
  });

  it('keeps the token in STEWARD_HOME (0600); a restarted owner accepts the token an open tab holds', async () => {
    owner = await start();
    const tabToken = owner.http.token;
    expect(readFileSync(join(home.dir, 'panel-token'), 'utf8').trim()).toBe(tabToken);
    expect(statSync(join(home.dir, 'panel-token')).mode & 0o777).toBe(0o600);
    await owner.stop();

    owner = await start();
    expect(owner.http.token).toBe(tabToken);
    expect((await info(owner.http.port, tabToken)).status).toBe(200);
    expect(readDaemonInfo(home.dir)?.token).toBe(tabToken);
  });

  it('replaces a damaged token file with a fresh token rather than serving a guessable one', async () => {
    writeFileSync(join(home.dir, 'panel-token'), 'short\n', { mode: 0o644 });
    owner = await start();
    expect(owner.http.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(statSync(join(home.dir, 'panel-token')).mode & 0o777).toBe(0o600);
  });

  it('App.RotateToken refuses the old token at once, rewrites daemon.json and ends open event streams', async () => {
    owner = await start();
    const old = owner.http.token;
    const stream = await fetch(`http://127.0.0.1:${owner.http.port}/events`, { headers: { authorization: `Bearer ${old}` } });
    const reader = stream.body!.getReader();
    await reader.read();

    const reply = await info(owner.http.port, old).then(() =>
      send(owner!.http.port, '/rpc', { method: 'POST', headers: { authorization: `Bearer ${old}`, 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'App.RotateToken', params: {} }) }),
    );
    expect(reply.status).toBe(200);
    expect(reply.body).not.toContain(owner.http.token);

    const fresh = owner.http.token;
    expect(fresh).not.toBe(old);
    expect((await info(owner.http.port, old)).status).toBe(401);
    expect((await info(owner.http.port, fresh)).status).toBe(200);
    expect(readDaemonInfo(home.dir)?.token).toBe(fresh);
    expect(readFileSync(join(home.dir, 'panel-token'), 'utf8').trim()).toBe(fresh);
    expect(owner.panelUrl).toBe(`${owner.http.url}#token=${fresh}`);
    // The stream opened with the old token has ended.
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read());
  });
});
