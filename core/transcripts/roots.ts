import { homedir } from 'node:os';
import { delimiter, resolve, win32 } from 'node:path';

/** A set `STEWARD_*_ROOTS` variable replaces the defaults entirely; set-but-empty means no roots at all. */
export function envList(env: NodeJS.ProcessEnv, name: string): string[] | undefined {
  const value = env[name];
  if (value === undefined) return undefined;
  return value.split(delimiter).map((s) => s.trim()).filter((s) => s !== '');
}

/** The user's home as the environment names it (tests point HOME at a temp folder). */
export function userHome(env: NodeJS.ProcessEnv): string {
  return env.HOME || env.USERPROFILE || homedir();
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
