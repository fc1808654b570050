import type OpenAI from 'openai';
import { StewardError } from '../../../api/index.js';
import { checkVectors, InputTooLong, type Embedder } from './types.js';

export const OPENAI_DEFAULT_ENDPOINT = 'https://api.openai.com/v1';

export interface OpenAiCompatibleOptions {
  endpoint: string;
  model: string;
  dimensions?: number | undefined;
  /** Sent only to a remote endpoint; a local server gets a placeholder, so a real key never leaves for it. */
  apiKey?: string | undefined;
  timeoutMs?: number;
  retries?: number;
}

/** The base URL the SDK appends `/embeddings` to: a bare host gets `/v1`, as LM Studio, llama.cpp and vLLM serve it. */
export function openAiBase(endpoint: string): string {
  const url = new URL(endpoint);
  const path = url.pathname.replace(/\/+$/, '');
  return `${url.origin}${path === '' ? '/v1' : path}`;
}

/** The SDK loads at the first request, not when the Core opens: most runs never embed remotely. */
async function sdk(): Promise<typeof OpenAI> {
  return (await import('openai')).default;
}

async function client(options: OpenAiCompatibleOptions): Promise<OpenAI> {
  const Sdk = await sdk();
  // Both are always passed: the SDK would otherwise read OPENAI_API_KEY / OPENAI_BASE_URL from the
  // environment, and a key found there never turns a remote embedder on by itself.
  return new Sdk({
    baseURL: openAiBase(options.endpoint),
    apiKey: options.apiKey ?? 'unused',
    maxRetries: options.retries ?? 3,
    timeout: options.timeoutMs ?? 120_000,
  });
}

/** SDK errors become typed ones; their messages (which can echo the request) are not carried. */
async function mapError(error: unknown, model: string): Promise<never> {
  const Sdk = await sdk();
  if (error instanceof Sdk.APIUserAbortError) throw error;
  if (error instanceof Sdk.APIConnectionError) throw new StewardError('embedder_unavailable', 'The OpenAI-compatible embedding server did not answer.');
  if (error instanceof Sdk.RateLimitError) throw new StewardError('embedder_rate_limited', 'The embedding server kept answering 429 (rate limited) after retries.');
  if (error instanceof Sdk.NotFoundError) {
    throw new StewardError('model_missing', `The embedding server does not serve the model ${model}; load or download it there (Steward never downloads one).`, { model });
  }
  if (error instanceof Sdk.APIError) {
    const message = error.message ?? '';
    if ((error.status === 400 || error.status === 413) && /context|too long|too many tokens|maximum.*length/i.test(message)) throw new InputTooLong();
    throw new StewardError('embedder_failed', `The embedding server refused the request (HTTP ${error.status ?? 'error'}).`);
  }
  throw error;
}

/**
 * The model's revision as the server reports it: the configured one when set, else the `created`
 * stamp `/models` lists for the model (a replaced model file gets a new one), else `unversioned`.
 */
export async function openAiRevision(options: OpenAiCompatibleOptions, configured: string | undefined, signal?: AbortSignal): Promise<string> {
  if (configured) return configured;
  try {
    for await (const model of (await client(options)).models.list({ signal })) {
      if (model.id === options.model) return typeof model.created === 'number' ? `c${model.created}` : 'unversioned';
    }
    return 'unlisted';
  } catch (error) {
    // Many local servers have no /models; the revision is then whatever the configuration names.
    const Sdk = await sdk();
    if (error instanceof Sdk.NotFoundError || error instanceof Sdk.BadRequestError) return 'unversioned';
    return mapError(error, options.model);
  }
}

/** `/v1/embeddings` through the OpenAI SDK (LM Studio, llama.cpp server, vLLM, OpenAI), floats requested explicitly. */
export function openAiEmbedder(options: OpenAiCompatibleOptions): Embedder {
  let made: Promise<OpenAI> | undefined;
  return {
    batchSize: 64,
    embed: async (texts, signal) => {
      try {
        const reply = await (await (made ??= client(options))).embeddings.create(
          { model: options.model, input: [...texts], encoding_format: 'float', ...(options.dimensions ? { dimensions: options.dimensions } : {}) },
          { signal },
        );
        // `data[i].index` names the input; servers are not bound to answer in order.
        const ordered = [...reply.data].sort((a, b) => a.index - b.index);
        if (ordered.some((d, i) => d.index !== i)) throw new StewardError('embedder_failed', 'The embedding server skipped or repeated an input index.');
        return checkVectors(
          ordered.map((d) => Float32Array.from(d.embedding)),
          texts.length,
          options.dimensions ?? null,
        );
      } catch (error) {
        if (error instanceof StewardError || error instanceof InputTooLong) throw error;
        return mapError(error, options.model);
      }
    },
  };
}
