import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { desktopEntry, headlessStartAtLogin } from '../../../core/app/login.js';
import { execArgv } from '../../support/desktop-exec.js';

/*
 * QA: with STEWARD_HOME set, `steward service install` wrote `Exec=node …/steward.js serve` with no
 * home, so at login a second Steward started on the default folder and imported everything into a
 * separate store. The entry names the home it was installed for, quoted so any folder name survives.
 */
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'steward-login-home-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const BIN = '/opt/steward/bin/steward.js';
const entry = () => join(dir, 'config', 'autostart', 'steward.desktop');
const envWith = (extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({ HOME: join(dir, 'user'), XDG_CONFIG_HOME: join(dir, 'config'), ...extra });
const exec = () => execArgv(readFileSync(entry(), 'utf8'));

describe('the headless autostart entry names its home', () => {
  it('carries --home for the STEWARD_HOME it was installed from, spaces and all', () => {
    const home = join(dir, 'My Steward Home');
    headlessStartAtLogin(envWith({ STEWARD_HOME: home }), 'linux', BIN).set(true);
    expect(readFileSync(entry(), 'utf8')).toContain(` serve --home "${home}"\n`);
    expect(exec()).toEqual([process.execPath, BIN, 'serve', '--home', home]);
  });

  it('quotes a home with the characters the Exec key reserves, and reads back as the same folder', () => {
    const home = join(dir, `odd "name" $HOME \`x\` 100% back\\slash`);
    headlessStartAtLogin(envWith({ STEWARD_HOME: home }), 'linux', BIN).set(true);
    expect(exec()).toEqual([process.execPath, BIN, 'serve', '--home', home]);
  });

  it("names the home the owner runs, even when it is not the one the environment names", () => {
    const home = join(dir, 'owned');
    headlessStartAtLogin(envWith(), 'linux', BIN, home).set(true);
    expect(exec()).toEqual([process.execPath, BIN, 'serve', '--home', home]);
  });

  it('leaves the default home implicit, as the hook and the MCP command do (the entry of earlier versions, unchanged)', () => {
    headlessStartAtLogin(envWith(), 'linux', BIN).set(true);
    expect(exec()).toEqual([process.execPath, BIN, 'serve']);
    // STEWARD_HOME naming the default folder itself is the default too.
    headlessStartAtLogin(envWith({ STEWARD_HOME: join(dir, 'user', '.local', 'share', 'steward') }), 'linux', BIN).set(true);
    expect(exec()).toEqual([process.execPath, BIN, 'serve']);
  });

  it("knows an entry written before homes were named as Steward's: says it starts another home, rewrites it, removes it", () => {
    const home = join(dir, 'my home');
    mkdirSync(join(dir, 'config', 'autostart'), { recursive: true });
    writeFileSync(entry(), desktopEntry({ command: process.execPath, args: [BIN, 'serve'], launches: 'headless' }));
    const login = headlessStartAtLogin(envWith({ STEWARD_HOME: home }), 'linux', BIN);
    const view = login.read();
    expect(view).toMatchObject({ enabled: true, supported: true, mechanism: 'xdg-autostart', launches: 'headless' });
    expect(view.message).toMatch(/another home folder/);

    expect(login.set(true).message).toBeNull();
    expect(exec()).toEqual([process.execPath, BIN, 'serve', '--home', home]);

    writeFileSync(entry(), desktopEntry({ command: process.execPath, args: [BIN, 'serve'], launches: 'headless' }));
    expect(login.set(false)).toMatchObject({ enabled: false, message: null });
    expect(existsSync(entry())).toBe(false);
  });
});
