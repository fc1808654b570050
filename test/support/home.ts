import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rootKinds } from '../../core/api/index.js';

/** A throwaway STEWARD_HOME plus an environment that can never reach the real transcript roots. */
export interface TempHome {
  dir: string;
  env: NodeJS.ProcessEnv;
  cleanup(): void;
}

/** Every `STEWARD_*_ROOTS` set to empty: no provider reads any folder until a test names one. */
export function noRoots(): Record<string, string> {
  return Object.fromEntries(rootKinds().map(({ kind }) => [kind.env, '']));
}

export function tempHome(prefix = 'steward-test-', extraEnv: NodeJS.ProcessEnv = {}): TempHome {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: join(dir, 'fake-user-home'),
    STEWARD_HOME: dir,
    // Every provider's kinds of root, from the registry: a provider added later is covered too.
    ...noRoots(),
    ...extraEnv,
  };
  return { dir, env, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}
