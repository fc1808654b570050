import { delimiter } from 'node:path';
import { ROOT_LEFT_OUT_WORDS, StewardError, type RootLeftOutReason } from '../api/index.js';
import { fullUserHome, isFullRoot, startsAtHome, withHomeExpanded } from './home.js';

/**
 * The one rule for a root, wherever it is written (config.json, STEWARD_*_ROOTS): undefined when it is
 * read, else why not. config.json's schema refuses `not_full_path` outright (the file is wrong); a
 * relative HOME is the environment's fault, so its `~` roots are left out rather than refused.
 */
export function rootLeftOutReason(path: string, env: NodeJS.ProcessEnv): RootLeftOutReason | undefined {
  if (!isFullRoot(path)) return 'not_full_path';
  return startsAtHome(path) && fullUserHome(env) === undefined ? 'home_not_full_path' : undefined;
}

/**
 * A root left out, by its key (`providers.claude.roots.0`, `STEWARD_CODEX_ROOTS.1`) and where it was written;
 * never its folder, which is the person's own and may reach a log.
 */
export function leftOutRoot(source: string, key: string, reason: RootLeftOutReason): StewardError {
  const message = `is left out: ${ROOT_LEFT_OUT_WORDS[reason]}`;
  return new StewardError('config_invalid', `${source}: "${key}" ${message}`, { keys: [key], reason, fields: { [key]: { message } } });
}

/** A STEWARD_*_ROOTS variable's folders as written; undefined when it is unset, [] when set but empty. */
function listed(env: NodeJS.ProcessEnv, name: string): string[] | undefined {
  return env[name]
    ?.split(delimiter)
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/** The folders a STEWARD_*_ROOTS variable names that are read, and the ones left out as written, with why. */
export interface EnvRoots {
  roots: string[];
  leftOut: Array<{ path: string; reason: RootLeftOutReason }>;
}

/**
 * A set STEWARD_*_ROOTS variable replaces a kind's roots entirely (set but empty: no roots at all). Its
 * folders take config.json's rule: `~/…` is the home the environment names (a value from a service
 * file or a quoted shell keeps its `~`); a relative one is left out, never read against the current folder.
 */
export function envRoots(env: NodeJS.ProcessEnv, name: string): EnvRoots | undefined {
  const paths = listed(env, name);
  if (paths === undefined) return undefined;
  const read: EnvRoots = { roots: [], leftOut: [] };
  for (const path of paths) {
    const reason = rootLeftOutReason(path, env);
    if (reason === undefined) read.roots.push(withHomeExpanded(path, env));
    else read.leftOut.push({ path, reason });
  }
  return read;
}

/** The folders of one STEWARD_*_ROOTS variable left out, each as its typed error (keyed `NAME.index`). */
export function envRootsLeftOut(env: NodeJS.ProcessEnv, name: string): StewardError[] {
  return (listed(env, name) ?? []).flatMap((path, index) => {
    const reason = rootLeftOutReason(path, env);
    return reason === undefined ? [] : [leftOutRoot('environment', `${name}.${index}`, reason)];
  });
}
