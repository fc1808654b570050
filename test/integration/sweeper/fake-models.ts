import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A loopback fake of the Anthropic Messages API (`POST /v1/messages`) and the OpenAI Chat
 * Completions API (`POST /v1/chat/completions`), speaking their wire formats. Each request takes the
 * next scripted reply (the last one repeats) and is recorded with its headers and raw body.
 */
export interface RecordedRequest {
  url: string;
  method: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export interface ScriptedReply {
  status?: number;
  headers?: Record<string, string>;
  /** A JSON value (serialized) or a raw string body (e.g. an HTML 502 page). */
  body?: unknown;
  delayMs?: number;
  /** Runs before the reply is sent (e.g. the user edits a file while the model "thinks"). */
  before?: () => void;
}

export type Reply = ScriptedReply | ((request: RecordedRequest) => ScriptedReply);

export class FakeModelServer {
  readonly requests: RecordedRequest[] = [];
  #script: Reply[] = [];
  #server: Server | undefined;
  #url = '';

  get url(): string {
    return this.#url;
  }

  /** Replaces the script; the last reply repeats for any further request. */
  script(...replies: Reply[]): this {
    this.#script = replies;
    return this;
  }

  get bodies(): string {
    return this.requests.map((r) => r.body).join('\n');
  }

  async start(): Promise<this> {
    this.#server = createServer((req, res) => void this.#handle(req, res));
    await new Promise<void>((resolve) => this.#server!.listen(0, '127.0.0.1', resolve));
    this.#url = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    this.#server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.#server ? this.#server.close(() => resolve()) : resolve()));
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const recorded: RecordedRequest = { url: req.url ?? '', method: req.method ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
    this.requests.push(recorded);
    const next = this.#script.length > 1 ? this.#script.shift()! : this.#script[0];
    const reply = typeof next === 'function' ? next(recorded) : (next ?? { status: 500, body: { error: 'no script' } });
    if (reply.delayMs) await new Promise((resolve) => setTimeout(resolve, reply.delayMs));
    reply.before?.();
    if (res.destroyed) return;
    const raw = typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body ?? {});
    const type = typeof reply.body === 'string' ? 'text/html' : 'application/json';
    res.writeHead(reply.status ?? 200, { 'content-type': type, 'request-id': `req_${this.requests.length}`, ...reply.headers });
    res.end(raw);
  }
}

export function anthropicMessage(text: string, stopReason = 'end_turn', usage = { input_tokens: 1200, output_tokens: 300 }): ScriptedReply {
  return {
    body: {
      id: 'msg_01fake',
      type: 'message',
      role: 'assistant',
      model: 'claude-haiku-4-5',
      content: [{ type: 'text', text, citations: null }],
      stop_reason: stopReason,
      stop_sequence: stopReason === 'stop_sequence' ? '<<<END>>>' : null,
      usage: { ...usage, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
    },
  };
}

export function anthropicError(status: number, type: string, message: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}): ScriptedReply {
  return { status, headers, body: { type: 'error', error: { type, message, ...extra }, request_id: 'req_err' } };
}

export function openAiCompletion(text: string, finishReason = 'stop', usage = { prompt_tokens: 1100, completion_tokens: 280 }): ScriptedReply {
  return {
    body: {
      id: 'chatcmpl-fake',
      object: 'chat.completion',
      created: 1_764_000_000,
      model: 'llama3.2',
      choices: [{ index: 0, message: { role: 'assistant', content: text, refusal: null }, logprobs: null, finish_reason: finishReason }],
      usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
    },
  };
}

export function openAiError(status: number, type: string, code: string | null, message: string): ScriptedReply {
  return { status, body: { error: { message, type, param: null, code } } };
}

export const HTML_502 = '<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>';
