import type { App } from 'electron';
import { xdgAutostart, type Launcher, type StartAtLogin, type StartAtLoginView } from '../core/index.js';

export interface LoginAppFacts {
  platform: NodeJS.Platform;
  env: NodeJS.ProcessEnv;
  execPath: string;
  isPackaged: boolean;
  appPath: string;
}

/**
 * What starts at login: the packaged app, or in development Electron with this checkout; hidden in
 * the tray either way. An AppImage runs from a mount that changes on every launch, so its entry names
 * the .AppImage file itself (`APPIMAGE`).
 */
export function appLauncher(facts: LoginAppFacts): Launcher {
  const command = facts.platform === 'linux' && facts.env.APPIMAGE ? facts.env.APPIMAGE : facts.execPath;
  return { command, args: facts.isPackaged ? ['--hidden'] : [facts.appPath, '--hidden'], launches: 'app' };
}

type LoginItemApp = Pick<App, 'getLoginItemSettings' | 'setLoginItemSettings'>;

/**
 * macOS and Windows: the system's login items through Electron. On Windows the entry is the Run key
 * for this executable and these arguments; on macOS the app itself (SMAppService), which the person
 * may have to approve in System Settings.
 */
function loginItem(app: LoginItemApp, platform: 'darwin' | 'win32', launcher: Launcher): StartAtLogin {
  const target = platform === 'win32' ? { path: launcher.command, args: [...launcher.args] } : {};
  const read = (): StartAtLoginView => {
    const settings = app.getLoginItemSettings(target);
    const approval = platform === 'darwin' && settings.status === 'requires-approval';
    return {
      enabled: settings.openAtLogin,
      supported: true,
      mechanism: 'login-item',
      launches: 'app',
      message: approval ? 'macOS asks you to allow Steward in System Settings → General → Login Items.' : null,
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

/** The app's start at login: login items on macOS and Windows, an XDG autostart entry elsewhere. */
export function appStartAtLogin(app: LoginItemApp, facts: LoginAppFacts): StartAtLogin {
  const launcher = appLauncher(facts);
  if (facts.platform === 'darwin' || facts.platform === 'win32') return loginItem(app, facts.platform, launcher);
  return xdgAutostart(facts.env, launcher);
}

/** Launched at login: hidden in the tray (`--hidden` on Linux and Windows; macOS says so itself). */
export function openedAtLogin(app: LoginItemApp, platform: NodeJS.Platform, argv: readonly string[]): boolean {
  if (argv.includes('--hidden')) return true;
  return platform === 'darwin' && app.getLoginItemSettings().wasOpenedAtLogin;
}
