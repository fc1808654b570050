import { existsSync } from 'node:fs';
import { projectForFolder, projectSlugOf } from '../../projects/folder/index.js';
import { projectPaths } from '../paths.js';

/**
 * The project folder whose notes answer for `cwd`: `cwd` itself or its nearest ancestor for which
 * Steward keeps an OVERVIEW.md or a CLAUDE.md, never a filesystem root or `userHome`. A subfolder
 * that is a project of its own but has no notes yet is answered by the folder above it that has some.
 * The one rule for both doors: the session-start hook and MCP `project_overview` call it, so an agent
 * gets the same project's notes for a folder whether it is told at the start or asks mid-session.
 * Only file names are checked: no database is opened (the hook must start fast).
 */
export function notesFolderOf(cwd: string, stewardHome: string, userHome: string): string | null {
  return projectForFolder(
    cwd,
    (folder) => {
      const paths = projectPaths(stewardHome, projectSlugOf(folder));
      return existsSync(paths.overview) || existsSync(paths.claude);
    },
    { home: userHome },
  );
}
