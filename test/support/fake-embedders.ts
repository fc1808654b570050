import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Loopback fakes of the two embedding APIs Steward speaks, in their real wire shapes:
 * Ollama `GET /api/tags`, `POST /api/embed` and OpenAI `GET /v1/models`, `POST /v1/embeddings`.
 * Their "model" is a bag of hashed words (its own, not Steward's), salted by the model revision so
 * vectors of two revisions never agree. Scriptable: 429s with Retry-After, a context limit that
 * answers the provider's own error, reordered replies, a hook run before each embedding reply.
 */
export interface FakeEmbedderOptions {
  model: string;
  dimensions: number;
  revision: string;
  /** Inputs longer than this are refused the way the provider refuses an input over its context. */
  maxInputChars?: number;
}

export interface EmbedCall {
  inputs: string[];
  body: Record<string, unknown>;
  authorization: string | null;
}

function fnv(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** The fake model: each word adds 1 to a bucket chosen by hashing the word with the revision. */
export function fakeVector(text: string, dimensions: number, revision: string): number[] {
  const v = new Array<number>(dimensions).fill(0);
  for (const word of text.toLowerCase().match(/[a-z0-9]+/g) ?? []) v[fnv(`${revision}:${word}`) % dimensions]! += 1;
  const norm = Math.hypot(...v) || 1;
  return v.map((x) => x / norm);
}

async function bodyOf(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? (JSON.parse(text) as Record<string, unknown>) : {};
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

abstract class FakeEmbedder {
  readonly options: FakeEmbedderOptions;
  readonly calls: EmbedCall[] = [];
  /** Requests answered 429 before the next one succeeds. */
  rateLimitNext = 0;
  retryAfterSeconds = 0;
  /** Run before each embedding reply is sent (e.g. another writer changing the cache mid-run). */
  beforeReply: ((call: EmbedCall) => void | Promise<void>) | null = null;
  #server: Server | null = null;
  #url = '';

  constructor(options: FakeEmbedderOptions) {
    this.options = { ...options };
  }

  get url(): string {
    return this.#url;
  }

  get inputsEmbedded(): number {
    return this.calls.reduce((n, c) => n + c.inputs.length, 0);
  }

  async start(): Promise<this> {
    this.#server = createServer((req, res) => {
      this.handle(req, res).catch((error: unknown) => send(res, 500, { error: String(error) }));
    });
    await new Promise<void>((resolve) => this.#server!.listen(0, '127.0.0.1', resolve));
    this.#url = `http://127.0.0.1:${(this.#server!.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    this.#server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.#server ? this.#server.close(() => resolve()) : resolve()));
  }

  protected vectors(inputs: string[]): number[][] {
    return inputs.map((t) => fakeVector(t, this.options.dimensions, this.options.revision));
  }

  protected rateLimited(): boolean {
    if (this.rateLimitNext <= 0) return false;
    this.rateLimitNext -= 1;
    return true;
  }

  protected tooLong(inputs: string[]): boolean {
    return this.options.maxInputChars !== undefined && inputs.some((t) => t.length > this.options.maxInputChars!);
  }

  protected async record(req: IncomingMessage, body: Record<string, unknown>): Promise<EmbedCall> {
    const input = body['input'];
    const call: EmbedCall = { inputs: Array.isArray(input) ? (input as string[]) : [String(input)], body, authorization: req.headers.authorization ?? null };
    this.calls.push(call);
    await this.beforeReply?.(call);
    return call;
  }

  protected abstract handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
}

/**
 * Ollama: `/api/tags` lists the model with its digest; `/api/embed` answers `{embeddings}` in input
 * order; `/api/pull` (unstreamed) downloads a model that is not there yet, as `ollama pull` does.
 */
export class FakeOllama extends FakeEmbedder {
  /** False until the model is pulled: it is then neither listed nor embedded with. */
  pulled = true;
  readonly pulls: string[] = [];

  protected async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method === 'POST' && req.url === '/api/pull') {
      const body = await bodyOf(req);
      this.pulls.push(String(body['model']));
      if (body['model'] !== this.options.model && body['model'] !== `${this.options.model}:latest`) return send(res, 500, { error: 'pull model manifest: file does not exist' });
      this.pulled = true;
      return send(res, 200, { status: 'success' });
    }
    if (req.method === 'GET' && req.url === '/api/tags') {
      if (!this.pulled) return send(res, 200, { models: [] });
      return send(res, 200, {
        models: [
          {
            name: `${this.options.model}:latest`,
            model: `${this.options.model}:latest`,
            modified_at: '2024-05-01T10:00:00.000Z',
            size: 274302450,
            digest: this.options.revision,
            details: { format: 'gguf', family: 'nomic-bert', parameter_size: '137M', quantization_level: 'F16' },
          },
        ],
      });
    }
    if (req.method === 'POST' && req.url === '/api/embed') {
      const body = await bodyOf(req);
      if (!this.pulled || (body['model'] !== this.options.model && body['model'] !== `${this.options.model}:latest`)) {
        return send(res, 404, { error: `model "${String(body['model'])}" not found, try pulling it first` });
      }
      if (this.rateLimited()) return send(res, 503, { error: 'server busy, please try again.  maximum pending requests exceeded' }, { 'retry-after': String(this.retryAfterSeconds) });
      const call = await this.record(req, body);
      if (this.tooLong(call.inputs)) return send(res, 400, { error: 'the input length exceeds the context length' });
      return send(res, 200, { model: this.options.model, embeddings: this.vectors(call.inputs), total_duration: 14143917, load_duration: 1019500, prompt_eval_count: call.inputs.length * 8 });
    }
    send(res, 404, { error: 'not found' });
  }
}

/** OpenAI-compatible: `/v1/models` lists the model with its `created` stamp; `/v1/embeddings` answers data in reverse order. */
export class FakeOpenAi extends FakeEmbedder {
  created = 1714557600;

  protected async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method === 'GET' && req.url?.startsWith('/v1/models')) {
      return send(res, 200, { object: 'list', data: [{ id: this.options.model, object: 'model', created: this.created, owned_by: 'organization-owner' }] });
    }
    if (req.method === 'POST' && req.url === '/v1/embeddings') {
      const body = await bodyOf(req);
      if (this.rateLimited()) {
        return send(res, 429, { error: { message: 'Rate limit reached for requests', type: 'requests', param: null, code: 'rate_limit_exceeded' } }, { 'retry-after': String(this.retryAfterSeconds) });
      }
      if (body['model'] !== this.options.model) {
        return send(res, 404, { error: { message: `The model \`${String(body['model'])}\` does not exist or you do not have access to it.`, type: 'invalid_request_error', param: null, code: 'model_not_found' } });
      }
      const call = await this.record(req, body);
      if (this.tooLong(call.inputs)) {
        return send(res, 400, {
          error: {
            message: "This model's maximum context length is 8192 tokens, however you requested 9120 tokens (9120 in your prompt; 0 for the completion). Please reduce your prompt; or completion length.",
            type: 'invalid_request_error',
            param: null,
            code: null,
          },
        });
      }
      const vectors = this.vectors(call.inputs);
      // Servers owe no order: `index` names the input, so the fake answers back to front.
      const data = vectors.map((embedding, index) => ({ object: 'embedding', index, embedding })).reverse();
      return send(res, 200, { object: 'list', data, model: this.options.model, usage: { prompt_tokens: call.inputs.length * 8, total_tokens: call.inputs.length * 8 } });
    }
    send(res, 404, { error: { message: 'Unknown request URL', type: 'invalid_request_error', param: null, code: 'unknown_url' } });
  }
}
