import type { App } from 'electron';
import { homeArgs, resolveHome, StewardError, xdgAutostart, type Launcher, type StartAtLogin, type StartAtLoginView } from '../core/index.js';

export interface LoginAppFacts {
  platform: NodeJS.Platform;
  env: NodeJS.ProcessEnv;
  execPath: string;
  isPackaged: boolean;
  appPath: string;
  /** The home this app serves; absent: the one `env` names. */
  home?: string;
}

/**
 * The app's environment with `--home DIR` from its command line as STEWARD_HOME: a login entry names
 * the home that way (the session that starts it has no STEWARD_HOME), as `steward serve --home` does.
 */
export function appEnv(env: NodeJS.ProcessEnv, argv: readonly string[]): NodeJS.ProcessEnv {
  const at = argv.indexOf('--home');
  const home = at === -1 ? undefined : argv[at + 1];
  return home === undefined || home.trim() === '' ? env : { ...env, STEWARD_HOME: home };
}

/** The `--home DIR` the entry must pass, none for the home the app finds by itself. */
function ownHomeArgs(facts: LoginAppFacts): string[] {
  return homeArgs(facts.env, facts.home ?? resolveHome(facts.env, facts.platform).dir, facts.platform);
}

/**
 * What starts at login: the packaged app, or in development Electron with this checkout; hidden in
 * the tray either way. An AppImage runs from a mount that changes on every launch, so its entry names
 * the .AppImage file itself (`APPIMAGE`).
 */
export function appLauncher(facts: LoginAppFacts): Launcher {
  const command = facts.platform === 'linux' && facts.env.APPIMAGE ? facts.env.APPIMAGE : facts.execPath;
  const hidden = facts.isPackaged ? ['--hidden'] : [facts.appPath, '--hidden'];
  return { command, args: [...hidden, ...ownHomeArgs(facts)], launches: 'app' };
}

/**
 * One argument of a Windows command line as CommandLineToArgvW reads it back: Electron joins the Run
 * entry's arguments with spaces and quotes none. Backslashes double only before a quote or the end.
 */
export function quoteWindowsArg(arg: string): string {
  if (arg !== '' && !/[\s"]/.test(arg)) return arg;
  return `"${arg.replace(/(\\*)"/g, '$1$1\\"').replace(/(\\+)$/, '$1$1')}"`;
}

type LoginItemApp = Pick<App, 'getLoginItemSettings' | 'setLoginItemSettings'>;

/**
 * macOS and Windows: the system's login items through Electron. On Windows the entry is the Run key
 * for this executable and these arguments; on macOS the app itself (SMAppService), which the person
 * may have to approve in System Settings.
 */
function loginItem(app: LoginItemApp, platform: 'darwin' | 'win32', launcher: Launcher): StartAtLogin {
  const target = platform === 'win32' ? { path: launcher.command, args: launcher.args.map(quoteWindowsArg) } : {};
  const read = (): StartAtLoginView => {
    const settings = app.getLoginItemSettings(target);
    const approval = platform === 'darwin' && settings.status === 'requires-approval';
    // Windows: this executable's entry with other arguments (an earlier version's, without --home, or another home's).
    const another = platform === 'win32' && !settings.openAtLogin && settings.executableWillLaunchAtLogin;
    return {
      enabled: settings.openAtLogin || another,
      supported: true,
      mechanism: 'login-item',
      launches: 'app',
      message: approval ? 'macOS asks you to allow Steward in System Settings → General → Login Items.' : another ? ANOTHER_HOME : null,
    };
  };
  return {
    read,
    set(enabled) {
      app.setLoginItemSettings({ openAtLogin: enabled, ...target });
      return read();
    },
  };
}

const ANOTHER_HOME = 'Start at login opens Steward with another home folder (an older entry, or another Steward); turning it on again makes it open this one.';
const MAC_NO_HOME =
  'On macOS the app starts at login without its command line, so it would open the default home folder, not the one STEWARD_HOME names here; start this Steward yourself, or use the default home.';

/**
 * macOS with a home of its own: a login item opens the app with no arguments, so on the default home,
 * the second Steward this must not start. Nothing is registered; one an earlier version registered can
 * still be turned off.
 */
function macWithoutHome(item: StartAtLogin): StartAtLogin {
  const read = (): StartAtLoginView => {
    const view = item.read();
    return { ...view, supported: view.enabled, message: MAC_NO_HOME };
  };
  return {
    read,
    set(enabled) {
      if (enabled) throw new StewardError('unsupported', MAC_NO_HOME);
      item.set(false);
      return read();
    },
  };
}

/** The app's start at login: login items on macOS and Windows, an XDG autostart entry elsewhere. */
export function appStartAtLogin(app: LoginItemApp, facts: LoginAppFacts): StartAtLogin {
  const launcher = appLauncher(facts);
  if (facts.platform === 'darwin') {
    const item = loginItem(app, 'darwin', launcher);
    return ownHomeArgs(facts).length === 0 ? item : macWithoutHome(item);
  }
  if (facts.platform === 'win32') return loginItem(app, facts.platform, launcher);
  return xdgAutostart(facts.env, launcher);
}

/** Launched at login: hidden in the tray (`--hidden` on Linux and Windows; macOS says so itself). */
export function openedAtLogin(app: LoginItemApp, platform: NodeJS.Platform, argv: readonly string[]): boolean {
  if (argv.includes('--hidden')) return true;
  return platform === 'darwin' && app.getLoginItemSettings().wasOpenedAtLogin;
}
