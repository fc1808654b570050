import type { Params, Result } from '../../api/index.js';
import { ANTHROPIC_BASE_URL, DEFAULT_ANTHROPIC_MODEL, missingKeyMessage } from './anthropic.js';
import { classifyError, hostOf } from './remote.js';
import type { ApiKeys } from './types.js';

type Probe = Result<'Settings.TestCurator'>;

const OPENAI_BASE_URL = 'https://api.openai.com/v1';
/** A probe is one listing request: it should answer long before a sweep's timeout would. */
const PROBE_TIMEOUT_MS = 10_000;

function listed(ids: readonly string[], model: string, host: string): Probe {
  const found = ids.includes(model);
  const some = ids.slice(0, 5).join(', ');
  return found || ids.length === 0
    ? { ok: true, host, modelListed: ids.length === 0 ? null : true, message: `${host} answered${ids.length === 0 ? '' : ` and serves ${model}`}.` }
    : { ok: false, host, modelListed: false, message: `${host} answered, but does not list the model ${model}${some ? `; it lists ${some}${ids.length > 5 ? '…' : ''}` : ''}.` };
}

/**
 * Tries the curator a person is about to save with one listing request to the endpoint it would use
 * (nothing from a transcript is sent), and says in words what happened, naming the host it asked.
 */
export async function testCurator(choice: Params<'Settings.TestCurator'>, keys: ApiKeys, timeoutMs: number): Promise<Probe> {
  const timeout = Math.min(timeoutMs, PROBE_TIMEOUT_MS);
  if (choice.curator === 'offline') return { ok: true, host: null, modelListed: null, message: 'The offline curator needs no model: nothing leaves this computer.' };
  if (choice.curator === 'anthropic') {
    const host = hostOf(choice.anthropicBaseUrl ?? ANTHROPIC_BASE_URL);
    const model = choice.model ?? DEFAULT_ANTHROPIC_MODEL;
    // Headless Settings cannot store a key: there the variable is the only way.
    if (!keys.anthropic) return { ok: false, host, modelListed: null, message: keys.storable ? `No Anthropic API key is available for ${host}: store one below, or set ANTHROPIC_API_KEY in Steward's environment.` : `${missingKeyMessage(host, false)}.` };
    // The SDKs load here, at the probe, not when the Core opens.
    const { default: Anthropic } = await import('@anthropic-ai/sdk');
    const client = new Anthropic({ apiKey: keys.anthropic, authToken: null, baseURL: choice.anthropicBaseUrl ?? ANTHROPIC_BASE_URL, maxRetries: 0, timeout });
    try {
      const page = await client.models.list({ limit: 100 });
      return listed(page.data.map((m) => m.id), model, host);
    } catch (error) {
      return { ok: false, host, modelListed: null, message: `${classifyError(error, host).message}.` };
    }
  }
  const baseURL = choice.baseUrl ?? OPENAI_BASE_URL;
  const host = hostOf(baseURL);
  if (!choice.model) return { ok: false, host, modelListed: null, message: `Name the model ${host} should use.` };
  const { default: OpenAI } = await import('openai');
  const client = new OpenAI({ apiKey: keys.openai || 'not-needed', baseURL, organization: null, project: null, maxRetries: 0, timeout });
  try {
    const page = await client.models.list();
    return listed(page.data.map((m) => m.id), choice.model, host);
  } catch (error) {
    return { ok: false, host, modelListed: null, message: `${classifyError(error, host).message}.` };
  }
}
