import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { app as electronApp } from 'electron';
import { appEnv, appLauncher, appStartAtLogin, quoteWindowsArg, type LoginAppFacts } from '../../../electron/login.js';
import { execArgv } from '../../support/desktop-exec.js';
import { app, resetElectron } from './fake-electron.js';

vi.mock('electron', () => import('./fake-electron.js'));

/*
 * QA: the app's own start-at-login entry named no home, so an app run with STEWARD_HOME started at
 * login on the default folder. The entry passes `--home` (the app reads it before anything else); on
 * macOS, whose login items take no arguments, the app says so instead of registering the wrong home.
 */
let dir: string;
beforeEach(() => {
  resetElectron();
  dir = mkdtempSync(join(tmpdir(), 'steward-login-home-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const HOME = '/data/My Steward Home';
function linux(env: NodeJS.ProcessEnv = {}, extra: Partial<LoginAppFacts> = {}): LoginAppFacts {
  return { platform: 'linux', env: { HOME: join(dir, 'home'), XDG_CONFIG_HOME: join(dir, 'config'), ...env }, execPath: '/opt/Steward/steward', isPackaged: true, appPath: '/opt/Steward/resources/app.asar', ...extra };
}
const exec = () => execArgv(readFileSync(join(dir, 'config', 'autostart', 'steward.desktop'), 'utf8'));

describe('Linux: the autostart entry names the home', () => {
  it('packaged and in development, a home with spaces included', () => {
    appStartAtLogin(electronApp, linux({ STEWARD_HOME: HOME })).set(true);
    expect(exec()).toEqual(['/opt/Steward/steward', '--hidden', '--home', HOME]);
    appStartAtLogin(electronApp, linux({ STEWARD_HOME: HOME }, { isPackaged: false, execPath: '/repo/node_modules/electron/dist/electron', appPath: '/repo' })).set(true);
    expect(exec()).toEqual(['/repo/node_modules/electron/dist/electron', '/repo', '--hidden', '--home', HOME]);
  });

  it('leaves the default home implicit', () => {
    expect(appLauncher(linux()).args).toEqual(['--hidden']);
  });
});

describe('the app reads --home', () => {
  it('as STEWARD_HOME, before anything resolves the home; without it the environment stands', () => {
    expect(appEnv({ STEWARD_HOME: '/elsewhere', PATH: '/bin' }, ['/opt/Steward/steward', '--hidden', '--home', HOME])).toEqual({ STEWARD_HOME: HOME, PATH: '/bin' });
    expect(appEnv({ PATH: '/bin' }, ['/opt/Steward/steward', '--hidden'])).toEqual({ PATH: '/bin' });
    // An empty or missing value names nothing.
    expect(appEnv({ PATH: '/bin' }, ['/opt/Steward/steward', '--home'])).toEqual({ PATH: '/bin' });
  });
});

describe('Windows: the Run entry names the home, quoted for its command line', () => {
  const exe = 'C:\\Users\\ana\\AppData\\Local\\Programs\\Steward\\Steward.exe';
  const win = (home?: string): LoginAppFacts => ({ ...linux(), platform: 'win32', execPath: exe, ...(home ? { home } : {}) });

  it('passes --home and its folder as one argument, and reads the entry back', () => {
    const login = appStartAtLogin(electronApp, win('C:\\Users\\ana\\Steward Home'));
    login.set(true);
    // Electron joins the arguments with spaces: the folder is quoted here, as CommandLineToArgvW reads it.
    expect([...app.loginItems.values()]).toEqual([{ openAtLogin: true, path: exe, args: ['--hidden', '--home', '"C:\\Users\\ana\\Steward Home"'] }]);
    expect(login.read()).toEqual({ enabled: true, supported: true, mechanism: 'login-item', launches: 'app', message: null });
    login.set(false);
    expect(app.loginItems.size).toBe(0);
  });

  it("knows an entry of an earlier version (no home) as this app's: says so, and turning off removes it", () => {
    app.setLoginItemSettings({ openAtLogin: true, path: exe, args: ['--hidden'] });
    const login = appStartAtLogin(electronApp, win('D:\\steward'));
    const view = login.read();
    expect(view.enabled).toBe(true);
    expect(view.message).toMatch(/another home folder/);
    expect(login.set(false).enabled).toBe(false);
    expect(app.loginItems.size).toBe(0);
  });

  it('quotes as CommandLineToArgvW reads: spaces, quotes, backslashes before a quote or at the end', () => {
    expect(quoteWindowsArg('D:\\steward')).toBe('D:\\steward');
    expect(quoteWindowsArg('C:\\My Home')).toBe('"C:\\My Home"');
    expect(quoteWindowsArg('C:\\My Home\\')).toBe('"C:\\My Home\\\\"');
    expect(quoteWindowsArg('a"b')).toBe('"a\\"b"');
    expect(quoteWindowsArg('a\\"b')).toBe('"a\\\\\\"b"');
    expect(quoteWindowsArg('')).toBe('""');
  });
});

describe('macOS: a login item takes no arguments', () => {
  const mac = (env: NodeJS.ProcessEnv = {}): LoginAppFacts => ({ ...linux(env), platform: 'darwin', execPath: '/Applications/Steward.app/Contents/MacOS/Steward' });

  it('with a home of its own, registers nothing and says why; the default home works as before', () => {
    const login = appStartAtLogin(electronApp, mac({ STEWARD_HOME: HOME }));
    expect(login.read()).toMatchObject({ enabled: false, supported: false, mechanism: 'login-item' });
    expect(login.read().message).toMatch(/STEWARD_HOME/);
    expect(() => login.set(true)).toThrow(/STEWARD_HOME/);
    expect(app.loginItems.size).toBe(0);
    // Turning off stays possible (an item registered by an earlier version).
    expect(login.set(false).enabled).toBe(false);

    expect(appStartAtLogin(electronApp, mac()).set(true).enabled).toBe(true);
  });
});
