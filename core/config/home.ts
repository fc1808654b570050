import { chmodSync, mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';

export type HomeKind = 'env' | 'platform-default';

export interface StewardHome {
  dir: string;
  kind: HomeKind;
}

/** The platform's app-data folder; the Electron app resolves to the same one. */
export function platformDataDir(platform: NodeJS.Platform = process.platform, env: NodeJS.ProcessEnv = process.env): string {
  const home = env.HOME ?? homedir();
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', 'Steward');
  if (platform === 'win32') return join(env.APPDATA ?? join(home, 'AppData', 'Roaming'), 'Steward');
  const xdg = env.XDG_DATA_HOME;
  return join(xdg && xdg.startsWith('/') ? xdg : join(home, '.local', 'share'), 'steward');
}

export function resolveHome(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): StewardHome {
  const fromEnv = env.STEWARD_HOME;
  if (fromEnv && fromEnv.trim() !== '') return { dir: resolve(fromEnv), kind: 'env' };
  return { dir: platformDataDir(platform, env), kind: 'platform-default' };
}

/**
 * The home a Steward started elsewhere must be told (a login entry, Claude Code's hook and MCP server:
 * none has this STEWARD_HOME), or null when it is the one Steward finds by itself there (the platform's
 * app-data folder). One rule, so every place that starts Steward names a home the same way.
 */
export function homeToName(env: NodeJS.ProcessEnv, home: string, platform: NodeJS.Platform = process.platform): string | null {
  const { STEWARD_HOME: _set, ...without } = env;
  return home === resolveHome(without, platform).dir ? null : home;
}

/** The user's home as the environment names it (tests point HOME at a temp folder). */
export function userHome(env: NodeJS.ProcessEnv): string {
  return env.HOME || env.USERPROFILE || homedir();
}

/**
 * The user's home when the environment names a full path. A relative HOME (`HOME=rel/dir`) names no one
 * folder: it would be read under whichever folder Steward was started in. Without HOME the account's
 * own home stands (userHome), as a shell's `~` does.
 */
export function fullUserHome(env: NodeJS.ProcessEnv): string | undefined {
  const home = userHome(env);
  return isAbsolute(home) ? home : undefined;
}

/** `~` alone or before a separator stands for the user's home; `~user` does not (whose home is not ours to look up). */
export function startsAtHome(path: string): boolean {
  return path === '~' || (process.platform === 'win32' ? /^~[\\/]/ : /^~\//).test(path);
}

/** A root Steward can read: a full path, or one from `~` (the home the environment names); see rootLeftOutReason. */
export function isFullRoot(path: string): boolean {
  return isAbsolute(path) || startsAtHome(path);
}

/**
 * A folder as a shell would have expanded it (`~/.claude`): a value set in a service file, quoted in
 * a shell or written in config.json reaches Steward with its `~` still in it. Anything else is left as written.
 */
export function withHomeExpanded(path: string, env: NodeJS.ProcessEnv): string {
  if (!startsAtHome(path)) return path;
  return path === '~' ? userHome(env) : join(userHome(env), path.slice(2));
}

/** Files in STEWARD_HOME, named in one place. */
export const HOME_FILES = {
  config: 'config.json',
  gateway: 'gateway.db',
  daemon: 'daemon.json',
  registry: 'managed-caches.json',
  /** Maintenance plans an agent proposed that wait for a person's confirmation (mode 0600). */
  waitingPlans: 'waiting-plans.json',
  projects: 'projects',
  caches: 'caches',
  logs: 'logs',
  /** The per-install panel token (mode 0600), kept across restarts until `steward token rotate`. */
  panelToken: 'panel-token',
  /** The page `steward open` hands the browser (mode 0600): it forwards to the panel's address, token and all. */
  panelOpener: 'open-panel.html',
  /** The key search and listing cursors mark their request under (mode 0600), so a cursor holds nothing of the query and cannot be forged (searchCursorKey). */
  searchCursorKey: 'search-cursor-key',
} as const;

/**
 * Everything Steward creates in STEWARD_HOME is private to the user (files 0600, folders 0700),
 * whoever created STEWARD_HOME itself and whatever the umask: a home made 0755 by someone else
 * must not make the transcript cache or the logs readable by other accounts.
 */
export const PRIVATE_FILE_MODE = 0o600;
export const PRIVATE_DIR_MODE = 0o700;

/**
 * Creates `dir` and its missing parents 0700; an existing `dir` is one of Steward's own folders and is
 * tightened. Returns the code of a chmod that failed (the caller logs it), else undefined.
 */
export function ensurePrivateDir(dir: string): string | undefined {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  return tightenMode(dir, PRIVATE_DIR_MODE);
}

/**
 * Tightens a file or folder Steward made (an older version may have made it wider). A missing one is
 * fine; any other failure is returned as its code, never thrown: a wide mode must not stop Steward.
 */
export function tightenMode(path: string, mode: number = PRIVATE_FILE_MODE): string | undefined {
  try {
    chmodSync(path, mode);
    return undefined;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' ? undefined : (code ?? 'internal');
  }
}
