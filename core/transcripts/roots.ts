import { homedir } from 'node:os';
import { delimiter } from 'node:path';

/** A set `STEWARD_*_ROOTS` variable replaces the defaults entirely; set-but-empty means no roots at all. */
export function envList(env: NodeJS.ProcessEnv, name: string): string[] | undefined {
  const value = env[name];
  if (value === undefined) return undefined;
  return value.split(delimiter).map((s) => s.trim()).filter((s) => s !== '');
}

/** The user's home as the environment names it (tests point HOME at a temp folder). */
export function userHome(env: NodeJS.ProcessEnv): string {
  return env.HOME || env.USERPROFILE || homedir();
}
