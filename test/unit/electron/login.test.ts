import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { app as electronApp } from 'electron';
import { quoteExecArg } from '../../../core/app/login.js';
import { appLauncher, appStartAtLogin, openedAtLogin, type LoginAppFacts } from '../../../electron/login.js';
import { app, resetElectron } from './fake-electron.js';

vi.mock('electron', () => import('./fake-electron.js'));

/** Start at login, per platform: an XDG autostart entry on Linux, login items on macOS and Windows; off by default. */
let dir: string;
beforeEach(() => {
  resetElectron();
  dir = mkdtempSync(join(tmpdir(), 'steward-login-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function linux(extra: Partial<LoginAppFacts> = {}, env: NodeJS.ProcessEnv = {}): LoginAppFacts {
  return { platform: 'linux', env: { HOME: join(dir, 'home'), XDG_CONFIG_HOME: join(dir, 'config'), ...env }, execPath: '/opt/Steward/steward', isPackaged: true, appPath: '/opt/Steward/resources/app.asar', ...extra };
}

describe('Linux: an XDG autostart entry', () => {
  const entry = () => join(dir, 'config', 'autostart', 'steward.desktop');

  it('is off by default, written when turned on (hidden in the tray), and removed when turned off', () => {
    const login = appStartAtLogin(electronApp, linux());
    expect(login.read()).toEqual({ enabled: false, supported: true, mechanism: 'xdg-autostart', launches: 'app', message: null });
    expect(existsSync(entry())).toBe(false);

    expect(login.set(true)).toMatchObject({ enabled: true, launches: 'app' });
    expect(readFileSync(entry(), 'utf8')).toBe(
      [
        '[Desktop Entry]',
        'Type=Application',
        'Name=Steward',
        'Comment=Keeps the local memory of your AI coding agents current',
        'Exec=/opt/Steward/steward --hidden',
        'Terminal=false',
        'X-GNOME-Autostart-enabled=true',
        'X-Steward-Managed=true',
        '',
      ].join('\n'),
    );
    expect(statSync(entry()).mode & 0o777).toBe(0o644);
    expect(login.set(true).enabled).toBe(true);

    expect(login.set(false)).toMatchObject({ enabled: false });
    expect(existsSync(entry())).toBe(false);
    expect(login.set(false).enabled).toBe(false);
  });

  it('names the .AppImage file itself, not its temporary mount', () => {
    const launcher = appLauncher(linux({ execPath: '/tmp/.mount_StewXyz/steward' }, { APPIMAGE: '/home/ana/Apps/Steward 0.1.0.AppImage' }));
    expect(launcher).toEqual({ command: '/home/ana/Apps/Steward 0.1.0.AppImage', args: ['--hidden'], launches: 'app' });
    appStartAtLogin(electronApp, linux({ execPath: '/tmp/.mount_StewXyz/steward' }, { APPIMAGE: '/home/ana/Apps/Steward 0.1.0.AppImage' })).set(true);
    expect(readFileSync(entry(), 'utf8')).toContain('Exec="/home/ana/Apps/Steward 0.1.0.AppImage" --hidden\n');
  });

  it('in development, starts Electron with this checkout', () => {
    expect(appLauncher(linux({ isPackaged: false, execPath: '/repo/node_modules/electron/dist/electron', appPath: '/repo' }))).toEqual({
      command: '/repo/node_modules/electron/dist/electron',
      args: ['/repo', '--hidden'],
      launches: 'app',
    });
  });

  it('uses ~/.config/autostart when XDG_CONFIG_HOME is unset or not absolute', () => {
    const facts = linux({}, { XDG_CONFIG_HOME: 'relative/path' });
    appStartAtLogin(electronApp, facts).set(true);
    expect(existsSync(join(dir, 'home', '.config', 'autostart', 'steward.desktop'))).toBe(true);
  });

  it('leaves an entry it did not write alone, and says so', () => {
    mkdirSync(join(dir, 'config', 'autostart'), { recursive: true });
    const mine = '[Desktop Entry]\nType=Application\nName=My Steward\nExec=/usr/local/bin/my-steward\n';
    writeFileSync(entry(), mine);
    const login = appStartAtLogin(electronApp, linux());
    expect(login.read()).toMatchObject({ enabled: true, supported: false, launches: null, message: expect.stringContaining('did not write') });
    expect(() => login.set(false)).toThrow(expect.objectContaining({ code: 'unsupported' }));
    expect(() => login.set(true)).toThrow(expect.objectContaining({ code: 'unsupported' }));
    expect(readFileSync(entry(), 'utf8')).toBe(mine);
  });

  it('reads an entry turned off by the desktop (X-GNOME-Autostart-enabled=false) as off', () => {
    const login = appStartAtLogin(electronApp, linux());
    login.set(true);
    writeFileSync(entry(), readFileSync(entry(), 'utf8').replace('X-GNOME-Autostart-enabled=true', 'X-GNOME-Autostart-enabled=false'));
    expect(login.read().enabled).toBe(false);
  });

  it('quotes Exec arguments as the Desktop Entry specification asks', () => {
    expect(quoteExecArg('/opt/Steward/steward')).toBe('/opt/Steward/steward');
    expect(quoteExecArg('/opt/My Apps/steward')).toBe('"/opt/My Apps/steward"');
    expect(quoteExecArg('/data/100%/steward')).toBe('/data/100%%/steward');
    expect(quoteExecArg('/a"b$c`d\\e')).toBe('"/a\\"b\\$c\\`d\\\\e"');
    expect(quoteExecArg('')).toBe('""');
  });
});

describe('macOS and Windows: login items', () => {
  it('macOS registers the app itself, off by default, and says when the person must approve it', () => {
    const login = appStartAtLogin(electronApp, { ...linux(), platform: 'darwin', execPath: '/Applications/Steward.app/Contents/MacOS/Steward' });
    expect(login.read()).toEqual({ enabled: false, supported: true, mechanism: 'login-item', launches: 'app', message: null });
    expect(login.set(true).enabled).toBe(true);
    expect([...app.loginItems.values()]).toEqual([{ openAtLogin: true }]);
    app.loginItemStatus = 'requires-approval';
    expect(login.read().message).toContain('System Settings');
    expect(login.set(false).enabled).toBe(false);
  });

  it('Windows writes the Run entry for this executable with --hidden, and reads it back by the same path and arguments', () => {
    const exe = 'C:\\Users\\ana\\AppData\\Local\\Programs\\Steward\\Steward.exe';
    const login = appStartAtLogin(electronApp, { ...linux(), platform: 'win32', execPath: exe });
    expect(login.read().enabled).toBe(false);
    login.set(true);
    expect([...app.loginItems.values()]).toEqual([{ openAtLogin: true, path: exe, args: ['--hidden'] }]);
    expect(login.read()).toMatchObject({ enabled: true, mechanism: 'login-item' });
    login.set(false);
    expect(login.read().enabled).toBe(false);
  });

  it('starts hidden when launched at login', () => {
    expect(openedAtLogin(electronApp, 'linux', ['steward', '--hidden'])).toBe(true);
    expect(openedAtLogin(electronApp, 'win32', ['Steward.exe'])).toBe(false);
    app.wasOpenedAtLogin = true;
    expect(openedAtLogin(electronApp, 'darwin', ['Steward'])).toBe(true);
    expect(openedAtLogin(electronApp, 'linux', ['steward'])).toBe(false);
  });
});
