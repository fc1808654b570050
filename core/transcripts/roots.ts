import { delimiter, resolve, win32 } from 'node:path';
import { withHomeExpanded } from '../config/index.js';

// The providers read the user's home from here; config owns it, beside the `~` expansion config.json's roots share.
export { userHome } from '../config/index.js';

/**
 * A set `STEWARD_*_ROOTS` variable replaces the defaults entirely; set-but-empty means no roots at all.
 * A folder is read as a shell would have expanded it (`~/codex-sessions`), since a value set in a
 * service file or quoted in a shell reaches Steward with its `~` still in it.
 */
export function envList(env: NodeJS.ProcessEnv, name: string): string[] | undefined {
  const value = env[name];
  if (value === undefined) return undefined;
  return value
    .split(delimiter)
    .map((s) => s.trim())
    .filter((s) => s !== '')
    .map((s) => withHomeExpanded(s, env));
}

/**
 * Each folder once, as first spelled: `CLAUDE_CONFIG_DIR` naming `~/.claude` (or `~/.claude/`) is the
 * `~/.claude` already listed, not a second root to show and walk. Compared by resolved path; on Windows
 * without regard to case, as its file system compares names.
 */
export function uniqueRoots(paths: readonly string[], platform: NodeJS.Platform = process.platform): string[] {
  const keyOf = platform === 'win32' ? (p: string) => win32.resolve(p).toLowerCase() : (p: string) => resolve(p);
  const seen = new Set<string>();
  return paths.filter((path) => {
    const key = keyOf(path);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
