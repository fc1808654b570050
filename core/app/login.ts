import { readFileSync, rmSync, mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { StewardError, type StartAtLoginView } from '../api/index.js';
import { homeToName, resolveHome } from '../config/index.js';

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

/**
 * The arguments that tell a Steward started at login which home it serves (`steward serve` and the app
 * both take `--home`), none when it finds that home by itself (homeToName): the session that starts it
 * has no STEWARD_HOME.
 */
export function homeArgs(env: NodeJS.ProcessEnv, home: string, platform: NodeJS.Platform = process.platform): string[] {
  const named = homeToName(env, home, platform);
  return named === null ? [] : ['--home', named];
}

/**
 * The Exec value as the file holds it: Exec quoting first, then the string escapes every value has
 * (`\\` for a backslash, `\n`…), which the reader undoes first (Desktop Entry specification).
 */
function execValue(launcher: Launcher): string {
  const exec = [launcher.command, ...launcher.args].map(quoteExecArg).join(' ');
  return exec.replace(/[\\\n\t\r]/g, (c) => ({ '\\': '\\\\', '\n': '\\n', '\t': '\\t', '\r': '\\r' })[c]!);
}

export function desktopEntry(launcher: Launcher): string {
  const exec = execValue(launcher);
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

function entryKeys(text: string): Map<string, string> {
  return new Map(
    text
      .split(/\r?\n/)
      .map((line) => /^([A-Za-z0-9-]+)\s*=\s*(.*)$/.exec(line.trim()))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => [m[1]!, m[2]!.trim()]),
  );
}

/** Ours by its mark, whatever it runs: an entry of an earlier version (no `--home`) is still ours to rewrite or remove. */
function entryState(text: string | undefined): 'absent' | 'ours' | 'ours-off' | 'foreign' {
  if (text === undefined) return 'absent';
  const keys = entryKeys(text);
  if (keys.get(MANAGED_KEY) !== 'true') return 'foreign';
  return keys.get('Hidden') === 'true' || keys.get('X-GNOME-Autostart-enabled') === 'false' ? 'ours-off' : 'ours';
}

/** Ours and on, but running something else than this Steward would write: another home, or an older entry without one. */
function runsAnother(text: string | undefined, launcher: Launcher): boolean {
  return text !== undefined && entryState(text) === 'ours' && entryKeys(text).get('Exec') !== execValue(launcher);
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
    const text = current();
    const state = entryState(text);
    const message =
      state === 'foreign'
        ? `An autostart entry Steward did not write is in the way (${AUTOSTART_FILE}); Steward leaves it alone.`
        : runsAnother(text, launcher)
          ? 'The autostart entry starts Steward with another home folder or program (an older entry, or another Steward); turning start at login on again makes it start this one.'
          : null;
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

/**
 * Headless owners and the in-process CLI: an autostart entry that runs `steward serve` for `home` (by
 * default the one `env` names), on Linux only.
 */
export function headlessStartAtLogin(env: NodeJS.ProcessEnv, platform: NodeJS.Platform, stewardBin: string, home: string = resolveHome(env, platform).dir): StartAtLogin {
  if (platform !== 'linux') return appOnlyStartAtLogin();
  return xdgAutostart(env, { command: process.execPath, args: [stewardBin, 'serve', ...homeArgs(env, home, platform)], launches: 'headless' });
}
