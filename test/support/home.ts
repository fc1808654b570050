import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A throwaway STEWARD_HOME plus an environment that can never reach the real transcript roots. */
export interface TempHome {
  dir: string;
  env: NodeJS.ProcessEnv;
  cleanup(): void;
}

export function tempHome(prefix = 'steward-test-', extraEnv: NodeJS.ProcessEnv = {}): TempHome {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: join(dir, 'fake-user-home'),
    STEWARD_HOME: dir,
    STEWARD_CLAUDE_ROOTS: '',
    STEWARD_CLAUDE_DESKTOP_ROOTS: '',
    STEWARD_OPENCLAW_ROOTS: '',
    ...extraEnv,
  };
  return { dir, env, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}
