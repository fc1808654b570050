import { homedir } from 'node:os';
import { posix, win32 } from 'node:path';
import { comparableFolder, isWindowsForm, normalizeCwd } from './derive.js';

/** The user's home folder: `HOME` (`USERPROFILE` on Windows) when set, else what the OS says. */
export function userHomeDir(env: NodeJS.ProcessEnv = process.env): string {
  const fromEnv = process.platform === 'win32' ? (env.USERPROFILE ?? env.HOME) : env.HOME;
  return normalizeCwd(fromEnv && fromEnv.trim() !== '' ? fromEnv : homedir());
}

/**
 * A folder too wide to stand for a project: a filesystem root or the user's home folder itself. An
 * agent started there was not working on every folder below it, so its notes answer for none of them.
 */
export function isTooWideForProject(cwd: string, home: string): boolean {
  const folder = comparableFolder(cwd);
  return folder === pathsOf(folder).parse(folder).root || folder === comparableFolder(home);
}

/**
 * The path rules a folder is written in, not this system's: a Windows cwd read on Linux (a transcript
 * from Windows, a WSL `/mnt/c/…`) has `\` separators and drive or UNC roots.
 */
function pathsOf(folder: string): typeof posix {
  return isWindowsForm(folder) ? win32 : posix;
}

/**
 * The project of `cwd`: the one whose folder is `cwd` or its nearest ancestor, never one whose folder
 * is a filesystem root or the home folder itself. The one rule for "which project is this folder in".
 */
export function projectContaining<T extends { cwd: string }>(projects: readonly T[], cwd: string, options: { home: string }): T | null {
  const target = comparableFolder(cwd);
  let best: { project: T; depth: number } | null = null;
  for (const project of projects) {
    if (isTooWideForProject(project.cwd, options.home)) continue;
    const root = comparableFolder(project.cwd);
    if (target !== root && !target.startsWith(`${root}${pathsOf(root).sep}`)) continue;
    if (!best || root.length > best.depth) best = { project, depth: root.length };
  }
  return best?.project ?? null;
}
