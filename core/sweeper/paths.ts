import { basename, join } from 'node:path';

export const PROJECT_FILES = {
  overview: 'OVERVIEW.md',
  changelog: 'CHANGELOG.md',
  claude: 'CLAUDE.md',
  state: 'sweep-state.json',
} as const;

/** `<basename>-<first 8 hex digits of the key's hash>` (DESIGN.md); the basename is made filename-safe. */
export function projectSlug(cwd: string, projectKey: string): string {
  const base = basename(cwd.replace(/[\\/]+$/, '')).replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[.-]+/, '').slice(0, 60);
  return `${base || 'project'}-${projectKey.replace(/^p_/, '').slice(0, 8)}`;
}

export interface ProjectPaths {
  dir: string;
  overview: string;
  changelog: string;
  claude: string;
  state: string;
}

/** Every file the sweeper writes lives here, under STEWARD_HOME, never in the project's folder. */
export function projectPaths(home: string, slug: string): ProjectPaths {
  const dir = join(home, 'projects', slug);
  return {
    dir,
    overview: join(dir, PROJECT_FILES.overview),
    changelog: join(dir, PROJECT_FILES.changelog),
    claude: join(dir, PROJECT_FILES.claude),
    state: join(dir, PROJECT_FILES.state),
  };
}
