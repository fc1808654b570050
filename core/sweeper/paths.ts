import { join } from 'node:path';

export const PROJECT_FILES = {
  overview: 'OVERVIEW.md',
  changelog: 'CHANGELOG.md',
  claude: 'CLAUDE.md',
  state: 'sweep-state.json',
} as const;

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
