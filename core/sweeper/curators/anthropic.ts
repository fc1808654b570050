import type Anthropic from '@anthropic-ai/sdk';
import { MARKERS } from '../markers.js';
import { converse, hostOf, type RawReply, type RemoteOptions, type StopKind, type Turn } from './remote.js';
import { CuratorError, type Curator, type CuratorReply, type CuratorRequest } from './types.js';

export const DEFAULT_ANTHROPIC_MODEL = 'claude-haiku-4-5';

export interface AnthropicCuratorOptions extends RemoteOptions {
  apiKey: string | undefined;
  model?: string;
  baseURL?: string;
  timeoutMs: number;
  maxTokens?: number;
  /** Whether Settings can store a key; headless Settings cannot, so the message names the variable only. */
  keyStorable?: boolean;
}

/** What to do about a missing key, in the words of where keys can come from in this mode. */
export function missingKeyMessage(host: string, storable: boolean): string {
  const fix = storable ? "store one in Settings, or set ANTHROPIC_API_KEY in Steward's environment" : 'set ANTHROPIC_API_KEY in the environment of the Steward process and restart it';
  return `No Anthropic API key is available for ${host}: ${fix}`;
}

function stopKind(reason: string | null): StopKind {
  if (reason === 'end_turn') return 'end';
  if (reason === 'stop_sequence') return 'stop_sequence';
  if (reason === 'max_tokens' || reason === 'model_context_window_exceeded') return 'max_tokens';
  if (reason === 'refusal') return 'refusal';
  return 'other';
}

/** Anthropic Messages API through the official SDK: tool-less, END as stop sequence. */
export const ANTHROPIC_BASE_URL = 'https://api.anthropic.com';

export function createAnthropicCurator(options: AnthropicCuratorOptions): Curator {
  const model = options.model ?? DEFAULT_ANTHROPIC_MODEL;
  const host = hostOf(options.baseURL ?? ANTHROPIC_BASE_URL);
  const apiKey = options.apiKey === undefined || options.apiKey === '' ? null : options.apiKey;
  // The SDK (hundreds of modules) loads at the first request, not when the Core opens: most runs never ask a model.
  let client: Promise<Anthropic> | undefined;
  const clientFor = (key: string): Promise<Anthropic> =>
    (client ??= import('@anthropic-ai/sdk').then(
      ({ default: Sdk }) =>
        new Sdk({
          // Explicit key and URL: the SDK would otherwise pick up ANTHROPIC_* variables or profiles on disk.
          apiKey: key,
          authToken: null,
          baseURL: options.baseURL ?? ANTHROPIC_BASE_URL,
          maxRetries: 0,
          timeout: options.timeoutMs,
        }),
    ));
  const send = async (system: string, turns: Turn[], signal?: AbortSignal): Promise<RawReply> => {
    if (!apiKey) throw new CuratorError('auth', missingKeyMessage(host, options.keyStorable ?? false));
    const message = await (await clientFor(apiKey)).messages.create(
      {
        model,
        max_tokens: options.maxTokens ?? 4_096,
        system,
        messages: turns.map((t) => ({ role: t.role, content: t.content })),
        stop_sequences: [MARKERS.end],
      },
      signal ? { signal } : {},
    );
    const text = message.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
    return { text, stop: stopKind(message.stop_reason), tokensIn: message.usage?.input_tokens ?? 0, tokensOut: message.usage?.output_tokens ?? 0 };
  };
  return {
    kind: 'anthropic',
    model,
    curate(request: CuratorRequest): Promise<CuratorReply> {
      return converse(request.prompt.user, (turns) => send(request.prompt.system, turns, request.signal), { ...options, host }, request.signal);
    },
  };
}
