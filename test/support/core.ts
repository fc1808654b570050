import { afterAll, afterEach } from 'vitest';
import { Core } from '../../core/core.js';
import type { Logger } from '../../core/log/index.js';
import type { LockRole } from '../../core/store/index.js';
import { tempHome, type TempHome } from './home.js';

export interface CoreHome {
  /** The temp home, made on first use. */
  readonly home: TempHome;
  /**
   * Opens a Core on the home, with `env` over the home's environment; one at a time. `schedule`: an
   * owner's Core (capture's ticks, the index walk, finishing interrupted forgets), and `lockRole`, as
   * Core.open takes them.
   */
  open(options?: { env?: NodeJS.ProcessEnv; logger?: Logger; schedule?: boolean; lockRole?: LockRole }): Core;
  /** Shuts the open Core down and keeps the home: a restart, or the CLI on the same home. */
  close(): Promise<void>;
}

/** A temp home and the Core on it, shut down and removed by a hook registered here so no test file can forget to; `shared`: one for the whole suite (afterAll), not one per test (afterEach). */
export function coreHome(prefix: string, { shared = false } = {}): CoreHome {
  let home: TempHome | undefined;
  let core: Core | undefined;
  const made = (): TempHome => (home ??= tempHome(prefix));
  const close = async (): Promise<void> => {
    const open = core;
    core = undefined;
    await open?.shutdown();
  };
  (shared ? afterAll : afterEach)(async () => {
    await close();
    home?.cleanup();
    home = undefined;
  });
  return {
    get home() {
      return made();
    },
    open({ env, logger, schedule, lockRole } = {}) {
      if (core) throw new Error('coreHome: close the open Core before opening another');
      const { dir, env: homeEnv } = made();
      core = Core.open({ home: { dir, kind: 'env' }, env: env ? { ...homeEnv, ...env } : homeEnv, logger, schedule, lockRole });
      return core;
    },
    close,
  };
}
