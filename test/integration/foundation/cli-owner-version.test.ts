import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { contractFingerprint } from '../../../core/api/index.js';
import { stewardVersion } from '../../../core/config/index.js';
import { runIn } from '../../support/cli.js';
import { tempHome, type TempHome } from '../../support/home.js';

interface FakeOwner {
  version: string;
  /** Absent: an owner from before App.Info carried its contract. */
  contract?: string;
  /** How it answers every method but App.Info: refused with this code, or answered. */
  refuses?: 'invalid_params' | 'method_not_found';
}

const STATUS = { state: 'idle', message: 'Up to date', paused: false, working: [], attention: [], errors: [], details: [] };

/**
 * An owner of another build, as the CLI finds one: daemon.json and the lock name it (this process's
 * pid, alive by definition), and its /rpc answers App.Info with its version and refuses the rest as a
 * strict schema of an older contract does (naming the key it does not know).
 */
async function fakeOwner(home: TempHome, owner: FakeOwner): Promise<Server> {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      const { id, method } = JSON.parse(body) as { id: number; method: string };
      const info = { name: 'Steward', version: owner.version, protocol: 1, maintenanceProtocol: 2, homeKind: 'env', platform: process.platform, uptimeMs: 5, status: STATUS };
      const reply =
        method === 'App.Info'
          ? { result: owner.contract === undefined ? info : { ...info, contract: owner.contract } }
          : owner.refuses === 'method_not_found'
            ? { error: { code: -32601, message: `Unknown method "${method}"`, data: { code: 'method_not_found' } } }
            : owner.refuses === 'invalid_params'
              ? { error: { code: -32602, message: 'Unknown key "geminiFolders"', data: { code: 'invalid_params', details: { method, issues: [] } } } }
              : { result: { status: { ...STATUS, paused: true, state: 'paused' } } };
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ jsonrpc: '2.0', id, ...reply }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  writeFileSync(join(home.dir, 'daemon.json'), JSON.stringify({ pid: process.pid, protocol: 1, url: `http://127.0.0.1:${port}/`, token: 'a-token-of-sixteen-chars' }));
  writeFileSync(join(home.dir, 'steward.lock'), `${process.pid}\n`);
  return server;
}

describe('the CLI against a running owner of another build', () => {
  let home: TempHome;
  let server: Server | undefined;
  afterEach(async () => {
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
    server = undefined;
    home?.cleanup();
  });

  it('says an older owner refused the command and that restarting it fixes that, in one line', async () => {
    home = tempHome();
    server = await fakeOwner(home, { version: '0.0.1', contract: 'old', refuses: 'invalid_params' });
    const { code, out, err } = await runIn(home.env, 'pause');
    expect(code).toBe(1);
    expect(out).toBe('');
    expect(err.trim().split('\n')).toHaveLength(1);
    expect(err).toContain(`The running Steward (version 0.0.1) is older than this command (version ${stewardVersion()}): restart it`);
    expect(err).toContain('`steward stop`');
    expect(err).not.toContain('geminiFolders');
  });

  it('gives --json the same as a typed error: unsupported, with both builds and what the owner refused', async () => {
    home = tempHome();
    server = await fakeOwner(home, { version: '0.0.1', contract: 'old', refuses: 'invalid_params' });
    const { code, out } = await runIn(home.env, 'pause', '--json');
    expect(code).toBe(1);
    const { error } = JSON.parse(out) as { error: Record<string, unknown> };
    expect(error).toMatchObject({
      code: 'unsupported',
      method: 'App.SetPaused',
      ownerMismatch: { refused: 'invalid_params', owner: { version: '0.0.1', contract: 'old' }, cli: { version: stewardVersion(), contract: contractFingerprint() } },
    });
    expect(error.message).toContain('is older than this command');
  });

  it('tells two builds of one version apart by their contract, and an owner that does not name one is another build', async () => {
    home = tempHome();
    server = await fakeOwner(home, { version: stewardVersion(), refuses: 'method_not_found' });
    // A verb that finds the owner through connect(), as most do.
    const { code, err } = await runIn(home.env, 'forget', '--project', 'gone', '--not-stored');
    expect(code).toBe(1);
    expect(err).toContain(`The running Steward (version ${stewardVersion()}) is another build than this command: restart it`);
  });

  it('says a newer owner wants this command updated', async () => {
    home = tempHome();
    server = await fakeOwner(home, { version: '999.0.0', contract: 'new', refuses: 'invalid_params' });
    const { err } = await runIn(home.env, 'pause');
    expect(err).toContain(`The running Steward (version 999.0.0) is newer than this command (version ${stewardVersion()})`);
  });

  it('leaves a refusal by an owner of the same build as it was', async () => {
    home = tempHome();
    server = await fakeOwner(home, { version: stewardVersion(), contract: contractFingerprint(), refuses: 'invalid_params' });
    const { code, err } = await runIn(home.env, 'pause');
    expect(code).toBe(2);
    expect(err).toBe('steward: Unknown key "geminiFolders"\n');
  });

  it('says nothing about another build when nothing was refused', async () => {
    home = tempHome();
    server = await fakeOwner(home, { version: '0.0.1', contract: 'old' });
    const { code, err } = await runIn(home.env, 'pause');
    expect(code).toBe(0);
    expect(err).toBe('');
  });
});

describe('the contract fingerprint', () => {
  it('is short, stable, and the one App.Info carries', () => {
    expect(contractFingerprint()).toMatch(/^[0-9a-f]{8}$/);
    expect(contractFingerprint()).toBe(contractFingerprint());
  });

  it('is what App.Info says the contract is', async () => {
    const home = tempHome();
    try {
      const { out } = await runIn(home.env, 'info', '--json');
      expect(JSON.parse(out)).toMatchObject({ version: stewardVersion(), contract: contractFingerprint() });
    } finally {
      home.cleanup();
    }
  });
});
