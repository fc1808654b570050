import { writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../../../core/cli/index.js';
import { startOwner } from '../../../core/index.js';
import { tempHome, type TempHome } from '../../support/home.js';
import { captureIo as io } from '../../support/cli.js';

describe('the steward command', () => {
  let home: TempHome;
  afterEach(() => home?.cleanup());

  it('lists its verbs in --help and exits 0', async () => {
    home = tempHome();
    const c = io(home.env);
    expect(await runCli(['--help'], c)).toBe(0);
    expect(c.out).toMatch(/Usage: steward/);
    for (const verb of ['serve', 'info']) expect(c.out).toContain(verb);
  });

  it('treats an unknown verb or option as a usage error: exit 2', async () => {
    home = tempHome();
    const c = io(home.env);
    expect(await runCli(['frobnicate'], c)).toBe(2);
    expect(c.err).toContain("unknown command 'frobnicate'");
    expect(await runCli(['info', '--nope'], io(home.env))).toBe(2);
  });

  it('refuses a non-loopback host for serve with exit 2 and one clear line', async () => {
    home = tempHome();
    const c = io(home.env);
    expect(await runCli(['serve', '--host', '0.0.0.0'], c)).toBe(2);
    expect(c.err.trim().split('\n')).toHaveLength(1);
    expect(c.err).toContain('--host must be 127.0.0.1 or localhost');
    expect(await runCli(['serve', '--port', 'eighty'], io(home.env))).toBe(2);
  });

  it('says in one line that an explicit --port is taken, and exits 1', async () => {
    home = tempHome();
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    try {
      const port = (blocker.address() as AddressInfo).port;
      const c = io(home.env);
      expect(await runCli(['serve', '--port', String(port)], c)).toBe(1);
      expect(c.err.trim().split('\n')).toHaveLength(1);
      expect(c.err).toContain(`port ${port} is already in use`);
      expect(c.out).toBe('');
    } finally {
      blocker.close();
    }
  });

  it('runs in-process under the lock when no owner runs', async () => {
    home = tempHome();
    const c = io(home.env);
    expect(await runCli(['info', '--json'], c)).toBe(0);
    expect(JSON.parse(c.out)).toMatchObject({ name: 'Steward', via: 'in-process', running: false, homeKind: 'env' });
  });

  it('goes through the running owner named in daemon.json', async () => {
    home = tempHome();
    const owner = await startOwner({ home: { dir: home.dir, kind: 'env' }, env: home.env, port: 0 });
    try {
      await owner.core.call('App.SetPaused', { paused: true });
      const c = io(home.env);
      expect(await runCli(['info', '--json'], c)).toBe(0);
      expect(JSON.parse(c.out)).toMatchObject({ via: 'owner', status: { paused: true } });
    } finally {
      await owner.stop();
    }
  });

  it('reports a refusal as one line, or as {"error":{code,message}} with --json', async () => {
    home = tempHome();
    writeFileSync(join(home.dir, 'config.json'), '{"bogus": 1}');
    // `info` says what it can despite it (cli-info-broken-config.test.ts); the file is named in full on the terminal.
    const text = io(home.env);
    expect(await runCli(['projects'], text)).toBe(1);
    expect(text.err).toBe(`steward: ${join(home.dir, 'config.json')}: unknown key "bogus"\n`);
    const json = io(home.env);
    expect(await runCli(['projects', '--json'], json)).toBe(1);
    expect(JSON.parse(json.out)).toEqual({ error: { code: 'config_invalid', message: `${join(home.dir, 'config.json')}: unknown key "bogus"` } });
  });
});
