import { resolve, win32 } from 'node:path';
import { envRoots } from '../config/index.js';

// The providers read the user's home from here; config owns it, beside the `~` expansion config.json's roots share.
export { userHome } from '../config/index.js';

/**
 * A set `STEWARD_*_ROOTS` variable replaces the defaults entirely; set-but-empty means no roots at all.
 * Its folders take config.json's rule (config's envRoots): `~/…` expanded, a relative one left out.
 */
export function envList(env: NodeJS.ProcessEnv, name: string): string[] | undefined {
  return envRoots(env, name)?.roots;
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
