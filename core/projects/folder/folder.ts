import { homedir } from 'node:os';
import { dirname, parse } from 'node:path';
import { normalizeCwd } from '../derive.js';

/** The user's home folder: `HOME` (`USERPROFILE` on Windows) when set, else what the OS says. */
export function userHomeDir(env: NodeJS.ProcessEnv = process.env): string {
  const fromEnv = process.platform === 'win32' ? (env.USERPROFILE ?? env.HOME) : env.HOME;
  return normalizeCwd(fromEnv && fromEnv.trim() !== '' ? fromEnv : homedir());
}

/**
 * A folder too wide to stand for a project: a filesystem root or the user's home folder itself. An
 * agent started there was not working on every folder below it, so its notes answer for none of them.
 */
export function isTooWideForProject(folder: string, home: string): boolean {
  const normalized = normalizeCwd(folder);
  return normalized === parse(normalized).root || normalized === normalizeCwd(home);
}

/**
 * The project folder of `cwd`: `cwd` itself or its nearest ancestor for which `isProject` holds
 * (the same key rules as capture: a project is a folder), never a root or the home folder.
 */
export function projectForFolder(cwd: string, isProject: (folder: string) => boolean, options: { home: string }): string | null {
  let folder = normalizeCwd(cwd);
  for (;;) {
    if (!isTooWideForProject(folder, options.home) && isProject(folder)) return folder;
    const parent = dirname(folder);
    if (parent === folder) return null;
    folder = parent;
  }
}
