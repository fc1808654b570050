import { delimiter, join } from 'node:path';
import { userHome } from '../../roots.js';

/** Claude Code: `~/.claude`, `~/.config/claude`, and each entry of CLAUDE_CONFIG_DIR (folders holding `projects/`). */
export function claudeCodeDefaults(env: NodeJS.ProcessEnv): string[] {
  const home = userHome(env);
  const fromEnv = (env.CLAUDE_CONFIG_DIR ?? '').split(/[,]/).flatMap((s) => s.split(delimiter)).map((s) => s.trim()).filter(Boolean);
  return [join(home, '.claude'), join(home, '.config', 'claude'), ...fromEnv];
}

/** Claude Desktop's user-data folder, which holds `local-agent-mode-sessions/`. */
export function claudeDesktopDefaults(env: NodeJS.ProcessEnv): string[] {
  const home = userHome(env);
  if (process.platform === 'darwin') return [join(home, 'Library', 'Application Support', 'Claude')];
  if (process.platform === 'win32') return [join(env.APPDATA || join(home, 'AppData', 'Roaming'), 'Claude')];
  return [join(env.XDG_CONFIG_HOME || join(home, '.config'), 'Claude')];
}
