import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { StewardError } from '../../../api/index.js';
import { checkVectors, InputTooLong, type Embedder } from './types.js';

export const OLLAMA_DEFAULT_ENDPOINT = 'http://127.0.0.1:11434';

export interface OllamaOptions {
  endpoint: string;
  model: string;
  /** Asked of the model (Matryoshka models can shorten); otherwise its native size. */
  dimensions?: number | undefined;
  timeoutMs?: number;
  /** Retries of a 429/503 before the run fails as rate limited. */
  retries?: number;
}

const EmbedReply = z.object({ embeddings: z.array(z.array(z.number())) });
const TagsReply = z.object({ models: z.array(z.object({ name: z.string(), model: z.string().optional(), digest: z.string() })) });
const ErrorReply = z.object({ error: z.string() });

const MAX_RETRY_WAIT_MS = 20_000;

function base(endpoint: string): string {
  return endpoint.replace(/\/+$/, '');
}

/** A network failure names no address: the endpoint is a destination and stays out of messages. */
function unreachable(): StewardError {
  return new StewardError('embedder_unavailable', 'The Ollama server did not answer; start it (`ollama serve`) or check the profile.');
}

async function request(url: string, init: RequestInit, options: OllamaOptions, signal?: AbortSignal): Promise<Response> {
  const retries = options.retries ?? 3;
  for (let attempt = 0; ; attempt += 1) {
    let response: Response;
    try {
      const timeout = AbortSignal.timeout(options.timeoutMs ?? 120_000);
      response = await fetch(url, { ...init, signal: signal ? AbortSignal.any([signal, timeout]) : timeout });
    } catch (error) {
      if (signal?.aborted) throw error;
      throw unreachable();
    }
    // Ollama answers 503 when its queue is full; a proxy in front of it may answer 429.
    if ((response.status === 429 || response.status === 503) && attempt < retries) {
      const after = Number(response.headers.get('retry-after'));
      await response.body?.cancel();
      await sleep(Number.isFinite(after) && after >= 0 ? Math.min(after * 1000, MAX_RETRY_WAIT_MS) : 500 * 2 ** attempt, undefined, { signal });
      continue;
    }
    return response;
  }
}

async function failure(response: Response, model: string): Promise<never> {
  const parsed = ErrorReply.safeParse(await response.json().catch(() => null));
  const message = parsed.success ? parsed.data.error : '';
  if (response.status === 429 || response.status === 503) throw new StewardError('embedder_rate_limited', 'The Ollama server stayed busy (rate limited) after retries.');
  if (/context length|input length|too long/i.test(message)) throw new InputTooLong();
  if (response.status === 404 || /not found/i.test(message)) throw modelMissing(model);
  throw new StewardError('embedder_failed', `The Ollama server refused the embedding request (HTTP ${response.status}).`);
}

export function modelMissing(model: string): StewardError {
  return new StewardError('model_missing', `The Ollama model ${model} is not pulled; run \`ollama pull ${model}\`. Steward never downloads a model by itself.`, { model });
}

/** The model's digest from `/api/tags`: a re-pulled model has a new one, and so a new namespace. */
export async function ollamaRevision(options: OllamaOptions, signal?: AbortSignal): Promise<string> {
  const response = await request(`${base(options.endpoint)}/api/tags`, { method: 'GET' }, options, signal);
  if (!response.ok) return failure(response, options.model);
  const parsed = TagsReply.safeParse(await response.json().catch(() => null));
  if (!parsed.success) throw new StewardError('embedder_failed', 'The Ollama server sent a model list Steward cannot read.');
  const wanted = options.model.includes(':') ? [options.model] : [options.model, `${options.model}:latest`];
  const found = parsed.data.models.find((m) => wanted.includes(m.name) || wanted.includes(m.model ?? ''));
  if (!found) throw modelMissing(options.model);
  return found.digest.replace(/^sha256:/, '').slice(0, 16);
}

/** `POST /api/embed` with `truncate: false`, so an overlong input is an error Steward handles, not a silent cut. */
export function ollamaEmbedder(options: OllamaOptions): Embedder {
  return {
    batchSize: 32,
    embed: async (texts, signal) => {
      const body = JSON.stringify({ model: options.model, input: texts, truncate: false, ...(options.dimensions ? { dimensions: options.dimensions } : {}) });
      const response = await request(`${base(options.endpoint)}/api/embed`, { method: 'POST', headers: { 'content-type': 'application/json' }, body }, options, signal);
      if (!response.ok) return failure(response, options.model);
      const parsed = EmbedReply.safeParse(await response.json().catch(() => null));
      if (!parsed.success) throw new StewardError('embedder_failed', 'The Ollama server sent embeddings Steward cannot read.');
      return checkVectors(parsed.data.embeddings.map((e) => Float32Array.from(e)), texts.length, options.dimensions ?? null);
    },
  };
}
