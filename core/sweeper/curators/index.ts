// Owns: the curators: offline (extractive), Anthropic and OpenAI-compatible, and their error classes.
// Never: calls a remote model unless the settings chose it; replies go through the marker contract.
import { createAnthropicCurator } from './anthropic.js';
import { createOfflineCurator } from './offline.js';
import { createOpenAiCurator } from './openai.js';
import type { RemoteOptions } from './remote.js';
import type { CuratorKind } from '../../api/index.js';
import type { ApiKeys, Curator } from './types.js';

export { DEFAULT_ANTHROPIC_MODEL } from './anthropic.js';
export { testCurator } from './probe.js';
export { offlineDays } from './offline.js';
export { type RemoteOptions } from './remote.js';
export { CuratorError, type ApiKeys, type Curator, type DatedBullet } from './types.js';
export interface CuratorSettings {
  curator: CuratorKind;
  model: string;
  baseUrl?: string | undefined;
  anthropicBaseUrl?: string | undefined;
  timeoutMs: number;
}


/** Only the configured curator is built; a key that merely exists never selects a remote one. */
export function createCurator(settings: CuratorSettings, keys: ApiKeys, remote: RemoteOptions = {}): Curator {
  if (settings.curator === 'anthropic') {
    return createAnthropicCurator({ ...remote, apiKey: keys.anthropic, keyStorable: keys.storable ?? false, model: settings.model, timeoutMs: settings.timeoutMs, ...(settings.anthropicBaseUrl ? { baseURL: settings.anthropicBaseUrl } : {}) });
  }
  if (settings.curator === 'openai-compatible') {
    return createOpenAiCurator({ ...remote, apiKey: keys.openai, model: settings.model, baseURL: settings.baseUrl ?? 'https://api.openai.com/v1', timeoutMs: settings.timeoutMs });
  }
  return createOfflineCurator();
}

/**
 * An owner that sweeps with a remote curator loads its SDK soon after it opens, not in the first
 * sweep's turn (evaluating the SDK's modules held the event loop 50-200 ms). Fire and forget: a
 * failure here is the first request's to report.
 */
export function preloadCuratorSdk(kind: CuratorKind): void {
  if (kind === 'anthropic') void import('@anthropic-ai/sdk').catch(() => undefined);
  else if (kind === 'openai-compatible') void import('openai').catch(() => undefined);
}
