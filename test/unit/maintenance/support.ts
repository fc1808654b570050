import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createMemoryLogger } from '../../../core/log/index.js';
import { Maintenance, createRepositoryCache } from '../../../core/maintenance/index.js';
import { type MaintenanceOptions } from '../../../core/maintenance/maintenance.js';
import { type StageRunner } from '../../../core/maintenance/jobs.js';
import { type RepositorySeed } from '../../../core/maintenance/cache.js';
import { tempHome, type TempHome } from '../../support/home.js';

export interface Fixture {
  home: TempHome;
  /** Folder for cache files, outside STEWARD_HOME like a user's own caches. */
  caches: string;
  logger: ReturnType<typeof createMemoryLogger>;
  open(options?: Partial<MaintenanceOptions>): Maintenance;
  cache(name: string, repos: RepositorySeed[]): string;
  copy(from: string, name: string): string;
}

export function fixture(cacheDirName = 'caches'): Fixture {
  const home = tempHome('steward-maint-');
  const caches = join(home.dir, '..', `${home.dir.split('/').pop()}-${cacheDirName}`);
  mkdirSync(caches, { recursive: true });
  const logger = createMemoryLogger();
  return {
    home,
    caches,
    logger,
    open: (options = {}) => new Maintenance({ home: home.dir, logger, runners: { sync: coordinatorSync }, ...options }),
    cache: (name, repos) => {
      const file = join(caches, name);
      createRepositoryCache(file, repos);
      return file;
    },
    copy: (from, name) => {
      const file = join(caches, name);
      copyFileSync(from, file);
      return file;
    },
  };
}

export const WIDGETS: RepositorySeed = { repoId: 'github.com/acme/widgets', aliases: ['acme/widgets', 'Acme/Widgets-Legacy'] };
export const GADGETS: RepositorySeed = { repoId: 'github.com/acme/gadgets', aliases: ['acme/gadgets'] };

/**
 * A sync stage that runs and reports nothing: a test double for tests of the coordinator's own
 * mechanics (admission, backoff, conflicts, crash recovery). Sync itself is tested through the
 * real lanes against the fake forge.
 */
export const coordinatorSync: StageRunner = async () => undefined;
