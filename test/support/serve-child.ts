import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { tempHome, type TempHome } from './home.js';
import { transpileCore } from './transpiled-core.js';

export interface ServeChild {
  /** core/cli/main.js of this file's transpiled core/: what the `steward` binary runs. */
  readonly main: string;
  /** A temp home for this test, removed after it. */
  home(prefix: string, extraEnv?: NodeJS.ProcessEnv): TempHome;
  /** `child`, killed after this test if it is still running, so no test leaves a `steward` behind. */
  child<T extends ChildProcess>(child: T): T;
}

/**
 * For a test file that runs `steward` as a child process: core/ transpiled once for the file (`name`
 * names its folder), and each test's children and temp homes ended and removed by hooks registered here.
 */
export function serveChild(name: string): ServeChild {
  let build: { dir: string; cleanup: () => void } | undefined;
  const children: ChildProcess[] = [];
  const homes: TempHome[] = [];
  beforeAll(() => {
    build = transpileCore(name);
    // A fresh transpile of core/ on a busy machine outlasts the default hook timeout.
  }, 120_000);
  afterAll(() => build?.cleanup());
  afterEach(() => {
    for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    for (const home of homes.splice(0)) home.cleanup();
  });
  return {
    get main() {
      if (!build) throw new Error('serveChild: core/ is transpiled in beforeAll; ask for main in a test');
      return join(build.dir, 'core', 'cli', 'main.js');
    },
    home(prefix, extraEnv) {
      const home = tempHome(prefix, extraEnv);
      homes.push(home);
      return home;
    },
    child(child) {
      children.push(child);
      return child;
    },
  };
}
