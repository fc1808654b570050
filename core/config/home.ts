import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

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

/** Files in STEWARD_HOME, named in one place. */
export const HOME_FILES = {
  config: 'config.json',
  gateway: 'gateway.db',
  daemon: 'daemon.json',
  registry: 'managed-caches.json',
  projects: 'projects',
  caches: 'caches',
  logs: 'logs',
  /** The per-install panel token (mode 0600), kept across restarts until `steward token rotate`. */
  panelToken: 'panel-token',
} as const;
