import { join } from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { StewardError } from '../api/index.js';
import { applyEnvOverrides, HOME_FILES, parseConfig, readConfigFile, type Config } from '../config/index.js';
import type { CuratorKind } from '../api/index.js';
import { DEFAULT_ANTHROPIC_MODEL } from './curators/index.js';
import type { SweeperSettings } from './sweeper.js';

export function sweeperSettingsFrom(config: Config): SweeperSettings {
  const s = config.sweeper;
  return {
    enabled: s.enabled,
    curator: s.curator,
    model: s.model ?? DEFAULT_ANTHROPIC_MODEL,
    baseUrl: s.base_url,
    anthropicBaseUrl: s.anthropic_base_url,
    inputTokenBudget: s.input_token_budget,
    timeoutMs: s.timeout_ms,
    minIntervalMs: s.min_interval_ms,
    ignore: s.ignore,
    dailyModelCalls: s.daily_model_calls,
    ollamaUrl: s.ollama_url,
  };
}

export interface CuratorChoice {
  curator: CuratorKind;
  model?: string | undefined;
  baseUrl?: string | null | undefined;
  anthropicBaseUrl?: string | null | undefined;
}

/** The file as it is, to change one section of it; a broken or unreadable file is reported, never overwritten. */
function readRaw(home: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = readConfigFile(home);
  } catch (error) {
    if (error instanceof StewardError) throw new StewardError(error.code, `${error.message}; fix it before changing settings here`);
    throw error;
  }
  if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  throw new StewardError('config_invalid', `${HOME_FILES.config}: not a JSON object; fix it before changing settings here`);
}

/** Changes some of `sweeper.*` in config.json (atomically, other keys untouched) and returns the new config. */
function saveSweeperKeys(home: string, env: NodeJS.ProcessEnv, change: (sweeper: Record<string, unknown>) => void): Config {
  const file = join(home, HOME_FILES.config);
  const raw = readRaw(home);
  const current = raw.sweeper && typeof raw.sweeper === 'object' && !Array.isArray(raw.sweeper) ? { ...(raw.sweeper as Record<string, unknown>) } : {};
  change(current);
  const next = { ...raw, sweeper: current };
  const parsed = parseConfig(next);
  writeFileAtomic.sync(file, `${JSON.stringify(next, null, 2)}\n`, { mode: 0o600 });
  return applyEnvOverrides(parsed, env);
}

/** The daily budget of model calls, written to config.json. */
export function saveDailyBudget(home: string, env: NodeJS.ProcessEnv, dailyModelCalls: number): Config {
  return saveSweeperKeys(home, env, (sweeper) => {
    sweeper.daily_model_calls = dailyModelCalls;
  });
}

/**
 * Writes the curator choice into config.json (atomically, other keys untouched). API keys never go
 * there: they come from the environment or the app's keychain.
 */
export function saveCuratorChoice(home: string, env: NodeJS.ProcessEnv, choice: CuratorChoice): Config {
  return saveSweeperKeys(home, env, (current) => {
    current.curator = choice.curator;
    if (choice.model !== undefined) current.model = choice.model;
    if (choice.baseUrl === null) delete current.base_url;
    else if (choice.baseUrl !== undefined) current.base_url = choice.baseUrl;
    if (choice.anthropicBaseUrl === null) delete current.anthropic_base_url;
    else if (choice.anthropicBaseUrl !== undefined) current.anthropic_base_url = choice.anthropicBaseUrl;
  });
}
