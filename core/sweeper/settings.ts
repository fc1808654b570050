import { writeConfig, type Config } from '../config/index.js';
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

/** The daily budget of model calls, written to config.json. */
export function saveDailyBudget(home: string, env: NodeJS.ProcessEnv, dailyModelCalls: number): Config {
  return writeConfig(home, env, { 'sweeper.daily_model_calls': dailyModelCalls });
}

/**
 * Writes the curator choice into config.json through the one writer. A new kind starts from its own
 * defaults: a model or endpoint left over from the previous kind is removed unless given again (an
 * Anthropic model name never reaches an OpenAI-compatible server). API keys never go there.
 */
export function saveCuratorChoice(home: string, env: NodeJS.ProcessEnv, choice: CuratorChoice, previous?: CuratorKind): Config {
  const reset = previous !== undefined && previous !== choice.curator ? null : undefined;
  const change: Record<string, unknown> = { 'sweeper.curator': choice.curator };
  const put = (key: string, value: string | null | undefined) => {
    const chosen = value === undefined ? reset : value;
    if (chosen !== undefined) change[key] = chosen;
  };
  put('sweeper.model', choice.model);
  put('sweeper.base_url', choice.baseUrl);
  put('sweeper.anthropic_base_url', choice.anthropicBaseUrl);
  return writeConfig(home, env, change);
}
