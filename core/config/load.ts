import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { z } from 'zod';
import { countOf, PROVIDER_IDS, PROVIDERS, rootKinds, StewardError } from '../api/index.js';
import { HOME_FILES, withHomeExpanded } from './home.js';
import { whereNotJson } from './json-where.js';
import { problemOf } from './problems.js';
import { envRootsLeftOut, leftOutRoot, rootLeftOutReason } from './roots.js';
import { ConfigSchema, type Config } from './schema.js';

const SPANS: ReadonlyArray<[number, string]> = [
  [86_400_000, 'day'],
  [3_600_000, 'hour'],
  [60_000, 'minute'],
  [1_000, 'second'],
];

/** A bound in the key's own unit, as config.json holds it: `_ms` keys in milliseconds (and as a span a person knows), `_days` in days. */
function boundWords(key: string, bound: number): string {
  if (key.endsWith('_days')) return countOf(bound, 'day');
  if (!key.endsWith('_ms')) return String(bound);
  const span = SPANS.find(([size]) => bound >= size && bound % size === 0);
  return `${bound} milliseconds${span ? ` (${countOf(bound / span[0], span[1])})` : ''}`;
}

/**
 * One problem as one line: the dotted key, what was written when it is a number or a yes/no (a text
 * may be a folder or an address, and stays out of the message), and what the key takes.
 */
function describe(issue: z.core.$ZodIssue, raw: unknown): string {
  const path = issue.path.map(String).join('.');
  if (issue.code === 'unrecognized_keys') {
    return issue.keys.map((key) => `unknown key "${path ? `${path}.${key}` : key}"`).join(', ');
  }
  const problem = problemOf(issue);
  const written = valueAt(raw, issue.path);
  const shown = typeof written === 'number' || typeof written === 'boolean' ? ` is ${String(written)}; it` : '';
  const bound = problem.minimum ?? problem.maximum;
  const numeric = (issue.code === 'too_small' || issue.code === 'too_big') && issue.origin === 'number';
  const message = bound === undefined || !numeric ? problem.message : `must be at ${problem.minimum !== undefined ? 'least' : 'most'} ${boundWords(path, bound)}`;
  return `"${path || '(root)'}"${shown} ${message}`;
}

function valueAt(raw: unknown, path: readonly PropertyKey[]): unknown {
  let at = raw;
  for (const key of path) at = at !== null && typeof at === 'object' ? (at as Record<PropertyKey, unknown>)[key] : undefined;
  return at;
}

/**
 * The dotted keys the user actually wrote, kept beside each parsed Config. Some behaviour must tell a
 * chosen value from a default one even when they are equal: automatic retention pruning deletes
 * rows only under an explicit policy, never under the kernel default.
 */
const explicit = new WeakMap<Config, ReadonlySet<string>>();

/** The dotted keys set explicitly in the input a Config was parsed from (empty for any other Config). */
export function explicitKeys(config: Config): ReadonlySet<string> {
  return explicit.get(config) ?? new Set();
}

function leafKeys(value: unknown, prefix = '', out = new Set<string>()): Set<string> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    if (prefix) out.add(prefix);
    return out;
  }
  for (const [key, inner] of Object.entries(value)) leafKeys(inner, prefix ? `${prefix}.${key}` : key, out);
  return out;
}

function validate(raw: unknown, source: string): Config {
  const result = ConfigSchema.safeParse(raw ?? {});
  if (!result.success) {
    const problems = result.error.issues
      .slice(0, 5)
      .map((issue) => describe(issue, raw))
      .join('; ');
    const fields = Object.fromEntries(result.error.issues.map((i) => [i.path.join('.') || '(root)', problemOf(i)]));
    throw new StewardError('config_invalid', `${source}: ${problems}`, { keys: result.error.issues.map((i) => i.path.join('.')), fields });
  }
  return result.data;
}

/** Validates a parsed config object; every problem is reported by its dotted key. */
export function parseConfig(raw: unknown, source: string = HOME_FILES.config): Config {
  const config = validate(raw, source);
  explicit.set(config, leafKeys(raw));
  return config;
}

function intFromEnv(env: NodeJS.ProcessEnv, name: string): number | undefined {
  const value = env[name];
  if (value === undefined || value.trim() === '') return undefined;
  if (!/^\d+$/.test(value.trim())) throw new StewardError('config_invalid', `${name}: expected a whole number of milliseconds`);
  return Number.parseInt(value, 10);
}

/** The roots that could not be read (config.json's and STEWARD_*_ROOTS'), each as its error, kept beside the Config they were left out of. */
const skipped = new WeakMap<Config, readonly StewardError[]>();

/**
 * The roots left out of this Config, each a typed error naming its key and why (`details.reason`): one of
 * config.json written from `~` while HOME is not a full path (`providers.claude.roots.0`), or one a
 * STEWARD_*_ROOTS variable names that is no full path (`STEWARD_CODEX_ROOTS.1`). Empty for any other Config.
 */
export function skippedRoots(config: Config): readonly StewardError[] {
  return skipped.get(config) ?? [];
}

/**
 * Each provider's roots written from `~` (`~/.claude`) as the home the environment names, as STEWARD_*_ROOTS
 * are read. With a relative HOME such a root is left out and its error added to `left`: the file is right
 * and the environment is not, so the rest of config.json still applies (refusing it would stop Steward).
 */
function withRootsExpanded(providers: Config['providers'], env: NodeJS.ProcessEnv, left: StewardError[]): Config['providers'] {
  const expand = (key: string) => (path: string, index: number) => {
    const reason = rootLeftOutReason(path, env);
    if (reason === undefined) return [withHomeExpanded(path, env)];
    left.push(leftOutRoot(HOME_FILES.config, `${key}.${index}`, reason));
    return [];
  };
  const expanded = (id: keyof Config['providers']) => {
    const section = providers[id] as Record<string, unknown>;
    const roots = Object.keys(PROVIDERS[id].roots).filter((key) => Array.isArray(section[key]));
    return { ...section, ...Object.fromEntries(roots.map((key) => [key, (section[key] as string[]).flatMap(expand(`providers.${id}.${key}`))])) };
  };
  return Object.fromEntries(PROVIDER_IDS.map((id) => [id, expanded(id)])) as Config['providers'];
}

/**
 * STEWARD_* environment variables win over config.json, and are validated by the same schema; config.json's
 * `~` roots are read in the home the environment names.
 */
export function applyEnvOverrides(config: Config, env: NodeJS.ProcessEnv): Config {
  const sweepInterval = intFromEnv(env, 'STEWARD_SWEEP_INTERVAL_MS');
  const sweeperInterval = intFromEnv(env, 'STEWARD_SWEEPER_MIN_INTERVAL_MS');
  const model = env.STEWARD_SWEEPER_MODEL?.trim();
  const ollama = env.STEWARD_OLLAMA_URL?.trim();
  const overridden = [
    ...(ollama ? ['sweeper.ollama_url'] : []),
    ...(sweepInterval !== undefined ? ['sweep.interval_ms'] : []),
    ...(sweeperInterval !== undefined ? ['sweeper.min_interval_ms'] : []),
    ...(model ? ['sweeper.model'] : []),
  ];
  const left: StewardError[] = [];
  const providers = withRootsExpanded(config.providers, env, left);
  // The environment's roots replace config.json's where set (transcripts reads them with envRoots): their left-out ones are said too.
  left.push(...rootKinds().flatMap(({ kind }) => envRootsLeftOut(env, kind.env)));
  const merged = {
    ...config,
    providers,
    sweep: { ...config.sweep, ...(sweepInterval !== undefined ? { interval_ms: sweepInterval } : {}) },
    sweeper: {
      ...config.sweeper,
      ...(sweeperInterval !== undefined ? { min_interval_ms: sweeperInterval } : {}),
      ...(model ? { model } : {}),
      ...(ollama ? { ollama_url: ollama } : {}),
    },
  };
  // `merged` holds every default by now: only the file's own keys and the overridden ones are explicit.
  const result = validate(merged, 'environment');
  if (result.sweeper.curator === 'openai-compatible' && result.sweeper.model === undefined) {
    throw new StewardError('config_invalid', `${HOME_FILES.config}: "sweeper.model" is required when sweeper.curator is openai-compatible (name the model your endpoint serves, or set STEWARD_SWEEPER_MODEL)`, {
      keys: ['sweeper.model'],
      fields: { 'sweeper.model': { message: 'is required for an OpenAI-compatible curator: name the model your endpoint serves' } },
    });
  }
  explicit.set(result, new Set([...explicitKeys(config), ...overridden]));
  skipped.set(result, left);
  return result;
}

/**
 * STEWARD_HOME/config.json as JSON, the one reader of the file: missing or empty is `{}`, a UTF-8 byte
 * order mark (which Windows editors write) is not part of the JSON, and anything unreadable or not JSON
 * is a typed error that names the file, never its folder.
 */
export function readConfigFile(home: string): unknown {
  let text: string;
  try {
    text = readFileSync(join(home, HOME_FILES.config), 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return {};
    throw new StewardError('config_invalid', `${HOME_FILES.config}: cannot be read (${code ?? 'internal'})`);
  }
  if (text.startsWith('\uFEFF')) text = text.slice(1);
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text);
  } catch {
    // Where, so it can be found in an editor: JSON.parse's words say it only sometimes, and by offset.
    const { line, column } = whereNotJson(text);
    throw new StewardError('config_invalid', `${HOME_FILES.config}: not valid JSON at line ${line}, column ${column}`);
  }
}

/** Reads STEWARD_HOME/config.json; a missing file means every default. */
export function loadConfig(home: string, env: NodeJS.ProcessEnv = process.env): Config {
  return applyEnvOverrides(parseConfig(readConfigFile(home)), env);
}
