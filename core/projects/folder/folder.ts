import { posix, win32 } from 'node:path';
import { isTooWideForProject } from '../containing.js';
import { isWindowsForm, normalizeCwd } from '../derive.js';

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
 * The folder above, by the rules the folder is written in: a Windows cwd read on Linux (a transcript
 * recorded on Windows) has `\` separators and a drive or UNC root, which this system's dirname cannot walk.
 */
function parentOf(folder: string): string {
  return (isWindowsForm(folder) ? win32 : posix).dirname(folder);
}
