import type OpenAI from 'openai';
import { MARKERS } from '../markers.js';
import { converse, hostOf, type RawReply, type RemoteOptions, type StopKind, type Turn } from './remote.js';
import type { Curator, CuratorReply, CuratorRequest } from './types.js';

export interface OpenAiCuratorOptions extends RemoteOptions {
  /** Local servers ignore the key but the SDK requires one. */
  apiKey: string | undefined;
  model: string;
  /** e.g. http://localhost:11434/v1 (Ollama), http://localhost:1234/v1 (LM Studio). */
  baseURL: string;
  timeoutMs: number;
  maxTokens?: number;
}

function stopKind(reason: string | null | undefined): StopKind {
  if (reason === 'stop') return 'stop_sequence';
  if (reason === 'length') return 'max_tokens';
  if (reason === 'content_filter') return 'refusal';
  return 'other';
}

/** Any OpenAI-compatible Chat Completions endpoint (OpenAI, Ollama, LM Studio, llama.cpp, vLLM). */
export function createOpenAiCurator(options: OpenAiCuratorOptions): Curator {
  // The SDK loads at the first request, not when the Core opens: most runs never ask a model.
  let client: Promise<OpenAI> | undefined;
  const clientOf = (): Promise<OpenAI> =>
    (client ??= import('openai').then(
      ({ default: Sdk }) =>
        new Sdk({
          apiKey: options.apiKey && options.apiKey !== '' ? options.apiKey : 'not-needed',
          baseURL: options.baseURL,
          organization: null,
          project: null,
          maxRetries: 0,
          timeout: options.timeoutMs,
        }),
    ));
  const send = async (system: string, turns: Turn[], signal?: AbortSignal): Promise<RawReply> => {
    const completion = await (await clientOf()).chat.completions.create(
      {
        model: options.model,
        messages: [{ role: 'system', content: system }, ...turns.map((t) => ({ role: t.role, content: t.content }))],
        max_tokens: options.maxTokens ?? 4_096,
        temperature: 0,
        stream: false,
        stop: [MARKERS.end],
      },
      signal ? { signal } : {},
    );
    const choice = completion.choices[0];
    return {
      text: choice?.message?.content ?? '',
      // `stop` covers both a natural end and our stop sequence, so END is optional for the parser.
      stop: stopKind(choice?.finish_reason),
      tokensIn: completion.usage?.prompt_tokens ?? 0,
      tokensOut: completion.usage?.completion_tokens ?? 0,
    };
  };
  return {
    kind: 'openai-compatible',
    model: options.model,
    curate(request: CuratorRequest): Promise<CuratorReply> {
      return converse(request.prompt.user, (turns) => send(request.prompt.system, turns, request.signal), { ...options, host: hostOf(options.baseURL) }, request.signal);
    },
  };
}
