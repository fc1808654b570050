import { join } from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { StewardError } from '../api/index.js';
import { PRIVATE_FILE_MODE, HOME_FILES } from './home.js';
import { applyEnvOverrides, parseConfig, readConfigFile } from './load.js';
import { fieldProblems } from './problems.js';
import type { Config } from './schema.js';

/**
 * A change to config.json by dotted key (`sweep.interval_ms`): a value sets the key, `null` removes
 * it so its default applies again. Keys not named keep what the file says, unknown ones included
 * (the schema then refuses the whole write, naming them).
 */
export type ConfigChange = Readonly<Record<string, unknown>>;

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The file as it is, to change part of it; a broken or unreadable file is reported, never overwritten. */
function readRaw(home: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = readConfigFile(home);
  } catch (error) {
    if (error instanceof StewardError) throw new StewardError(error.code, `${error.message}; fix it before changing settings here`);
    throw error;
  }
  if (isObject(value)) return value;
  throw new StewardError('config_invalid', `${HOME_FILES.config}: not a JSON object; fix it before changing settings here`);
}

/** A deep copy with the dotted keys applied; emptied objects left by removals are dropped too. */
export function applyChange(raw: Record<string, unknown>, change: ConfigChange): Record<string, unknown> {
  const next = structuredClone(raw);
  for (const [dotted, value] of Object.entries(change)) {
    const path = dotted.split('.');
    const parents: Array<Record<string, unknown>> = [next];
    for (const key of path.slice(0, -1)) {
      const here = parents.at(-1)!;
      if (!isObject(here[key])) {
        if (value === null) break;
        here[key] = {};
      }
      parents.push(here[key] as Record<string, unknown>);
    }
    if (parents.length !== path.length) continue;
    const last = path.at(-1)!;
    if (value === null) delete parents.at(-1)![last];
    else parents.at(-1)![last] = value;
    for (let i = parents.length - 1; i > 0 && value === null && Object.keys(parents[i]!).length === 0; i -= 1) delete parents[i - 1]![path[i - 1]!];
  }
  return next;
}

/**
 * THE writer of config.json: applies `change` to the file as it is, validates the result with the
 * same schema (and the same cross-field rules) the owner reads it with, then writes it atomically,
 * 0600. A refused change writes nothing and says, per dotted key, what was wrong.
 */
export function writeConfig(home: string, env: NodeJS.ProcessEnv, change: ConfigChange): Config {
  const next = applyChange(readRaw(home), change);
  const problems = fieldProblems(next);
  const keys = Object.keys(problems);
  if (keys.length > 0) {
    const said = keys.slice(0, 5).map((key) => `"${key}" ${problems[key]!.message}`).join('; ');
    throw new StewardError('config_invalid', `${HOME_FILES.config}: ${said}; nothing was saved`, { keys, fields: problems });
  }
  const config = applyEnvOverrides(parseConfig(next), env);
  writeFileAtomic.sync(join(home, HOME_FILES.config), `${JSON.stringify(next, null, 2)}\n`, { mode: PRIVATE_FILE_MODE });
  return config;
}
