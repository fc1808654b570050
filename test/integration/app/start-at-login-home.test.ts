import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../../../core/cli/index.js';
import { readDaemonInfo } from '../../../core/server/index.js';
import { captureIo } from '../../support/cli.js';
import { execArgv } from '../../support/desktop-exec.js';
import { tempHome, type TempHome } from '../../support/home.js';

/*
 * QA: `steward service install` with STEWARD_HOME set wrote an autostart entry with no home; at login
 * a second Steward started on the default folder. The entry's command, run where STEWARD_HOME is not
 * set (a login session), serves the home it was installed from.
 */
const BIN = fileURLToPath(new URL('../../../bin/steward.js', import.meta.url));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let temp: TempHome | undefined;
afterEach(() => {
  temp?.cleanup();
  temp = undefined;
});

describe.skipIf(process.platform !== 'linux')('steward service install with STEWARD_HOME set', () => {
  it('writes an entry whose command serves that home from a login session without STEWARD_HOME; uninstall removes it', async () => {
    temp = tempHome('steward-login-home-');
    const home = join(temp.dir, 'my steward home');
    const env = { ...temp.env, STEWARD_HOME: home, XDG_CONFIG_HOME: join(temp.dir, 'xdg-config') };
    const entry = join(temp.dir, 'xdg-config', 'autostart', 'steward.desktop');

    expect(await runCli(['service', 'install'], captureIo(env))).toBe(0);
    const argv = execArgv(readFileSync(entry, 'utf8'));
    expect(argv).toEqual([process.execPath, BIN, 'serve', '--home', home]);

    // What the session starts at login: the same arguments, in an environment without STEWARD_HOME.
    const { STEWARD_HOME: _unset, ...login } = env;
    const served = runCli([...argv.slice(2), '--port', '0'], captureIo(login));
    let daemon = readDaemonInfo(home);
    for (let i = 0; daemon === undefined && i < 200; i += 1) {
      await sleep(50);
      daemon = readDaemonInfo(home);
    }
    expect(daemon).toBeDefined();
    expect(await runCli(['stop'], captureIo(env))).toBe(0);
    expect(await served).toBe(0);
    expect(existsSync(join(temp.dir, 'fake-user-home', '.local', 'share', 'steward'))).toBe(false);

    expect(await runCli(['service', 'uninstall'], captureIo(env))).toBe(0);
    expect(existsSync(entry)).toBe(false);
  });
});
