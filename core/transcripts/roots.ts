import { resolve, win32 } from 'node:path';
import { envRoots, rootLeftOutReason, withHomeExpanded } from '../config/index.js';

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
 * An agent's own folder variable (CODEX_HOME, GEMINI_CLI_HOME, CLAUDE_CONFIG_DIR, OPENCLAW_STATE_DIR)
 * as Steward reads it: `~/…` expanded, and only under a root's one rule (config's rootLeftOutReason).
 * A relative one names a folder under wherever the agent ran, which Steward cannot know: it is not
 * read, and the agent's default place is, as though the variable were unset.
 */
export function agentFolderVar(value: string | undefined, env: NodeJS.ProcessEnv): string | undefined {
  const folder = value?.trim();
  if (!folder || rootLeftOutReason(folder, env) !== undefined) return undefined;
  return withHomeExpanded(folder, env);
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
