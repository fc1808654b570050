import { delimiter, join } from 'node:path';
import { agentFolderVar, userHome } from '../../roots.js';

/** Claude Code: `~/.claude`, `~/.config/claude`, and each entry of CLAUDE_CONFIG_DIR (folders holding `projects/`). */
export function claudeCodeDefaults(env: NodeJS.ProcessEnv): string[] {
  const home = userHome(env);
  const fromEnv = (env.CLAUDE_CONFIG_DIR ?? '')
    .split(/[,]/)
    .flatMap((s) => s.split(delimiter))
    .flatMap((s) => agentFolderVar(s, env) ?? []);
  return [join(home, '.claude'), join(home, '.config', 'claude'), ...fromEnv];
}

/** The Microsoft Store (MSIX) build's package family: its `%APPDATA%` is redirected into the package. */
const MSIX_FAMILY = 'Claude_pzs8sxrjxfjjc';

/**
 * Claude Desktop's user-data folders, which hold `local-agent-mode-sessions/`: each place an install of
 * the platform may write (macOS: the app, and its third-party-provider variant `Claude-3p`; Windows: the
 * classic installer's `%APPDATA%`, and the Store build's redirected copy of it). A folder that is not
 * there is walked as empty, so an install that appears later is read without a restart.
 */
export function claudeDesktopDefaults(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): string[] {
  const home = userHome(env);
  if (platform === 'darwin') {
    const support = join(home, 'Library', 'Application Support');
    return [join(support, 'Claude'), join(support, 'Claude-3p')];
  }
  if (platform === 'win32') {
    const local = env.LOCALAPPDATA || join(home, 'AppData', 'Local');
    return [join(env.APPDATA || join(home, 'AppData', 'Roaming'), 'Claude'), join(local, 'Packages', MSIX_FAMILY, 'LocalCache', 'Roaming', 'Claude')];
  }
  return [join(env.XDG_CONFIG_HOME || join(home, '.config'), 'Claude')];
}
