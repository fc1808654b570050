import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';
import type { Config } from '../config/index.js';

export interface ProviderRoots {
  claude: string[];
  claudeDesktop: string[];
  openclaw: string[];
}

/** A set variable replaces the defaults entirely; set-but-empty means no roots at all. */
function envList(env: NodeJS.ProcessEnv, name: string): string[] | undefined {
  const value = env[name];
  if (value === undefined) return undefined;
  return value.split(delimiter).map((s) => s.trim()).filter((s) => s !== '');
}

function userHome(env: NodeJS.ProcessEnv): string {
  return env.HOME || env.USERPROFILE || homedir();
}

function claudeDefaults(env: NodeJS.ProcessEnv): string[] {
  const home = userHome(env);
  const fromEnv = (env.CLAUDE_CONFIG_DIR ?? '').split(/[,]/).flatMap((s) => s.split(delimiter)).map((s) => s.trim()).filter(Boolean);
  return [join(home, '.claude'), join(home, '.config', 'claude'), ...fromEnv];
}

function desktopDefaults(env: NodeJS.ProcessEnv): string[] {
  const home = userHome(env);
  if (process.platform === 'darwin') return [join(home, 'Library', 'Application Support', 'Claude')];
  if (process.platform === 'win32') return [join(env.APPDATA || join(home, 'AppData', 'Roaming'), 'Claude')];
  return [join(env.XDG_CONFIG_HOME || join(home, '.config'), 'Claude')];
}

function openclawDefaults(env: NodeJS.ProcessEnv): string[] {
  return [env.OPENCLAW_STATE_DIR?.trim() || join(userHome(env), '.openclaw')];
}

/** Environment, then config.json, then the real default locations. */
export function resolveRoots(config: Config, env: NodeJS.ProcessEnv): ProviderRoots {
  return {
    claude: envList(env, 'STEWARD_CLAUDE_ROOTS') ?? config.providers.claude.roots ?? claudeDefaults(env),
    claudeDesktop: envList(env, 'STEWARD_CLAUDE_DESKTOP_ROOTS') ?? config.providers.claude.desktop_roots ?? desktopDefaults(env),
    openclaw: envList(env, 'STEWARD_OPENCLAW_ROOTS') ?? config.providers.openclaw.roots ?? openclawDefaults(env),
  };
}
