import { posix, win32 } from 'node:path';
import { isTooWideForProject } from '../containing.js';
import { isWindowsForm, normalizeCwd, projectKeyOf } from '../derive.js';

/**
 * The project folder of `cwd` when projects are known by their folders alone (Steward's notes are
 * named by the folder's path): `cwd` itself or its nearest ancestor for which `isProject` holds,
 * never a filesystem root or the home folder. The same rule as projectContaining, without the table.
 */
export function projectForFolder(cwd: string, isProject: (folder: string) => boolean, options: { home: string }): string | null {
  let folder = normalizeCwd(cwd);
  for (;;) {
    if (!isTooWideForProject(folder, options.home) && isProject(folder)) return folder;
    const parent = parentOf(folder);
    if (parent === folder) return null;
    folder = parent;
  }
}

/**
 * The record of the forgotten project whose folder is `cwd` or its nearest ancestor, or null when none
 * is: a forgotten project is keyed by its folder, as capture keyed it, so its tombstone (kind 'project')
 * is found by the folder's key. The one rule `steward context` and MCP's project_overview tell it by.
 */
export function forgottenProjectContaining<T extends { kind: string; id: string }>(tombstones: readonly T[], cwd: string, options: { home: string }): T | null {
  const forgotten = new Map(tombstones.filter((t) => t.kind === 'project').map((t) => [t.id, t]));
  const folder = projectForFolder(cwd, (f) => forgotten.has(projectKeyOf(f)), options);
  return folder === null ? null : (forgotten.get(projectKeyOf(folder)) ?? null);
}

/**
 * The folder above, by the rules the folder is written in: a Windows cwd read on Linux (a transcript
 * recorded on Windows) has `\` separators and a drive or UNC root, which this system's dirname cannot walk.
 */
function parentOf(folder: string): string {
  return (isWindowsForm(folder) ? win32 : posix).dirname(folder);
}
