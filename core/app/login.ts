import { readFileSync, rmSync, mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { StewardError, type StartAtLoginView } from '../api/index.js';

/**
 * Start at login, behind one interface: the app supplies login items (macOS, Windows) or an XDG
 * autostart entry (Linux); headless owners and the in-process CLI get the XDG entry on Linux and an
 * honest "not here" elsewhere. Off until the person turns it on.
 */
export interface StartAtLogin {
  read(): StartAtLoginView;
  set(enabled: boolean): StartAtLoginView;
}

/** What the entry runs: a program and its arguments (never through a shell). */
export interface Launcher {
  command: string;
  args: readonly string[];
  launches: 'app' | 'headless';
}

export const AUTOSTART_FILE = 'steward.desktop';
/** Marks the entries Steward wrote, so it never edits or removes one a person made. */
const MANAGED_KEY = 'X-Steward-Managed';

/** `$XDG_CONFIG_HOME/autostart`, else `~/.config/autostart` (the XDG Autostart specification). */
export function autostartDir(env: NodeJS.ProcessEnv): string {
  const configHome = env.XDG_CONFIG_HOME && env.XDG_CONFIG_HOME.startsWith('/') ? env.XDG_CONFIG_HOME : join(env.HOME ?? homedir(), '.config');
  return join(configHome, 'autostart');
}

/**
 * One argument of an Exec line (Desktop Entry specification): quoted when it holds a reserved
 * character, with `"`, `` ` ``, `$` and `\` escaped inside the quotes, and `%` doubled (field codes).
 */
export function quoteExecArg(arg: string): string {
  const percent = arg.replace(/%/g, '%%');
  if (percent !== '' && !/[\s"'\\><~|&;$*?#()`]/.test(percent)) return percent;
  return `"${percent.replace(/(["`$\\])/g, '\\$1')}"`;
}

export function desktopEntry(launcher: Launcher): string {
  const exec = [launcher.command, ...launcher.args].map(quoteExecArg).join(' ');
  return [
    '[Desktop Entry]',
    'Type=Application',
    'Name=Steward',
    launcher.launches === 'app' ? 'Comment=Keeps the local memory of your AI coding agents current' : 'Comment=Steward in headless mode (steward serve)',
    `Exec=${exec}`,
    'Terminal=false',
    'X-GNOME-Autostart-enabled=true',
    `${MANAGED_KEY}=true`,
    '',
  ].join('\n');
}

function entryState(text: string | undefined): 'absent' | 'ours' | 'ours-off' | 'foreign' {
  if (text === undefined) return 'absent';
  const keys = new Map(
    text
      .split(/\r?\n/)
      .map((line) => /^([A-Za-z0-9-]+)\s*=\s*(.*)$/.exec(line.trim()))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => [m[1]!, m[2]!.trim()]),
  );
  if (keys.get(MANAGED_KEY) !== 'true') return 'foreign';
  return keys.get('Hidden') === 'true' || keys.get('X-GNOME-Autostart-enabled') === 'false' ? 'ours-off' : 'ours';
}

/** The Linux way: a `.desktop` file in the autostart folder, written atomically, removed on request. */
export function xdgAutostart(env: NodeJS.ProcessEnv, launcher: Launcher): StartAtLogin {
  const dir = autostartDir(env);
  const file = join(dir, AUTOSTART_FILE);
  const current = () => {
    try {
      return readFileSync(file, 'utf8');
    } catch {
      return undefined;
    }
  };
  const view = (): StartAtLoginView => {
    const state = entryState(current());
    const message = state === 'foreign' ? `An autostart entry Steward did not write is in the way (${AUTOSTART_FILE}); Steward leaves it alone.` : null;
    return { enabled: state === 'ours' || state === 'foreign', supported: state !== 'foreign', mechanism: 'xdg-autostart', launches: state === 'foreign' ? null : launcher.launches, message };
  };
  return {
    read: view,
    set(enabled) {
      if (entryState(current()) === 'foreign') throw new StewardError('unsupported', `An autostart entry Steward did not write is at ${file}; remove or edit it yourself.`);
      if (enabled) {
        mkdirSync(dir, { recursive: true, mode: 0o700 });
        writeFileAtomic.sync(file, desktopEntry(launcher), { mode: 0o644 });
      } else {
        rmSync(file, { force: true });
      }
      return view();
    },
  };
}

/** Where only the app can do it (macOS and Windows login items need Electron): say so, change nothing. */
export function appOnlyStartAtLogin(): StartAtLogin {
  const view: StartAtLoginView = {
    enabled: false,
    supported: false,
    mechanism: 'none',
    launches: null,
    message: 'Start at login is a setting of the Steward app on this system: open the app and change it in Settings.',
  };
  return {
    read: () => view,
    set() {
      throw new StewardError('unsupported', 'Only the Steward app can change start at login on this system. Open the app (it answers this command while it runs) or use its Settings.');
    },
  };
}

/** Headless owners and the in-process CLI: an autostart entry that runs `steward serve`, on Linux only. */
export function headlessStartAtLogin(env: NodeJS.ProcessEnv, platform: NodeJS.Platform, stewardBin: string): StartAtLogin {
  if (platform !== 'linux') return appOnlyStartAtLogin();
  return xdgAutostart(env, { command: process.execPath, args: [stewardBin, 'serve'], launches: 'headless' });
}
