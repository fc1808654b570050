import { MarkerError, parseMarkers } from '../markers.js';
import { CuratorError, type CuratorReply } from './types.js';

export interface Turn {
  role: 'user' | 'assistant';
  content: string;
}

export type StopKind = 'end' | 'stop_sequence' | 'max_tokens' | 'refusal' | 'other';

export interface RawReply {
  text: string;
  stop: StopKind;
  tokensIn: number;
  tokensOut: number;
}

export interface RemoteOptions {
  /** The host (and port) the requests go to, named in every failure so a person knows what was tried. */
  host?: string;
  /** Model requests per sweep, the first answer and its format repairs together (spec: at most 4). */
  maxTurns?: number;
  /** Retries of one request on overload, rate limits and 5xx; spend limits and auth are never retried. */
  maxRetries?: number;
  retryBaseMs?: number;
  retryCapMs?: number;
}

type Settings = Required<Omit<RemoteOptions, 'host'>> & Pick<RemoteOptions, 'host'>;

const REPAIR =
  'Your reply did not follow the required format. Resend the whole answer with the four markers, each alone on its own line and in this order: <<<OVERVIEW>>>, <<<CHANGELOG>>>, <<<CLAUDE>>>, <<<END>>>. Nothing else.';

interface ErrorShape {
  status?: unknown;
  error?: unknown;
  headers?: { get?(name: string): string | null } | undefined;
  name?: unknown;
}

function bodyText(error: ErrorShape): string {
  try {
    return JSON.stringify(error.error ?? '').slice(0, 2_000);
  } catch {
    return '';
  }
}

const SPEND = /spend_limit|insufficient_quota|billing_error|credit balance|quota exceeded|payment required|billing/i;

/** "at api.openai.com": where a request went, for messages; the scheme, path and any credential stay out. */
export function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'an endpoint that is not a valid URL';
  }
}

const at = (host: string | undefined) => (host ? ` at ${host}` : '');

/** Maps an SDK error (Anthropic or openai; both share the Stainless shapes) onto a curator failure naming the host tried. */
export function classifyError(error: unknown, host?: string): CuratorError {
  if (error instanceof CuratorError) return error;
  const shape = (error ?? {}) as ErrorShape;
  const name = typeof shape.name === 'string' ? shape.name : '';
  if (name === 'APIUserAbortError') return new CuratorError('cancelled', 'The sweep was cancelled');
  if (name === 'APIConnectionTimeoutError') return new CuratorError('timeout', `The model${at(host)} did not answer in time`);
  const status = typeof shape.status === 'number' ? shape.status : null;
  if (status === null) return new CuratorError('connection', `The model endpoint${at(host)} could not be reached`);
  const body = bodyText(shape);
  if (status === 402 || ((status === 429 || status === 400 || status === 403) && SPEND.test(body))) {
    return new CuratorError('spend_limit', `The model provider${at(host)} refused for billing or spend limits (HTTP ${status})`, status);
  }
  if (status === 401 || status === 403) return new CuratorError('auth', `The model provider${at(host)} rejected the credentials (HTTP ${status})`, status);
  if (status === 404) return new CuratorError('http', `The model endpoint${at(host)} answered HTTP 404: check the base URL and the model name`, status);
  return new CuratorError('http', `The model endpoint${at(host)} answered HTTP ${status}`, status);
}

/** Failures of the connection itself, before any byte of the request left: no model saw it. */
const UNSENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EAI_NONAME', 'EAI_FAIL', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL', 'UND_ERR_CONNECT_TIMEOUT']);

/**
 * Whether a request never reached the model (refused, no such host, a port fetch will not use):
 * such an attempt is not a model call and is not spent. A reset or a timeout may have reached it.
 */
export function neverSent(error: unknown): boolean {
  const seen = new Set<unknown>();
  const queue: unknown[] = [error];
  while (queue.length > 0 && seen.size < 16) {
    const next = queue.shift();
    if (next === null || typeof next !== 'object' || seen.has(next)) continue;
    seen.add(next);
    const shape = next as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
    if (typeof shape.code === 'string' && UNSENT_CODES.has(shape.code)) return true;
    // undici refuses ports on the fetch standard's block list (e.g. 9) before connecting.
    if (shape.message === 'bad port') return true;
    queue.push(shape.cause, ...(Array.isArray(shape.errors) ? shape.errors : []));
  }
  return false;
}

function retryable(failure: CuratorError): boolean {
  if (failure.failure === 'connection') return true;
  if (failure.failure !== 'http' || failure.status === null) return false;
  return failure.status === 408 || failure.status === 409 || failure.status === 429 || failure.status >= 500;
}

function retryDelay(error: unknown, attempt: number, base: number, cap: number): number {
  const headers = (error as ErrorShape | null)?.headers;
  const ms = Number(headers?.get?.('retry-after-ms'));
  if (Number.isFinite(ms) && ms >= 0) return Math.min(ms, cap);
  const seconds = Number(headers?.get?.('retry-after'));
  if (Number.isFinite(seconds) && seconds >= 0) return Math.min(seconds * 1000, cap);
  return Math.min(base * 2 ** attempt, cap);
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new CuratorError('cancelled', 'The sweep was cancelled'));
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(new CuratorError('cancelled', 'The sweep was cancelled'));
    });
  });
}

/**
 * Our own retry policy instead of the SDKs' (constructed with maxRetries 0): the SDKs decide on
 * status alone and would retry a spend-limit 429, which never clears within a sweep.
 */
async function sendWithRetries(send: () => Promise<RawReply>, options: Settings, counter: { calls: number }, signal?: AbortSignal): Promise<RawReply> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      const reply = await send();
      counter.calls += 1;
      return reply;
    } catch (error) {
      const failure = classifyError(error, options.host);
      // Only a request that may have reached the model counts against the daily budget; a curator's
      // own refusal to send (no key) and a connection that never opened do not.
      if (!(error instanceof CuratorError) && !(failure.failure === 'connection' && neverSent(error))) counter.calls += 1;
      failure.calls = counter.calls;
      if (!retryable(failure) || attempt >= options.maxRetries) throw failure;
      await sleep(retryDelay(error, attempt, options.retryBaseMs, options.retryCapMs), signal);
    }
  }
}

/**
 * A tool-less exchange of at most `maxTurns` requests. Turns after the first exist only to repair
 * the format; a truncated or refused answer is never repaired, it fails the sweep.
 */
export async function converse(
  prompt: string,
  send: (turns: Turn[]) => Promise<RawReply>,
  options: RemoteOptions = {},
  signal?: AbortSignal,
): Promise<CuratorReply> {
  const settings: Settings = { maxTurns: 4, maxRetries: 2, retryBaseMs: 500, retryCapMs: 10_000, ...options };
  const turns: Turn[] = [{ role: 'user', content: prompt }];
  const counter = { calls: 0 };
  let tokensIn = 0;
  let tokensOut = 0;
  let lastProblem = 'no reply';
  for (let turn = 1; turn <= settings.maxTurns; turn += 1) {
    const reply = await sendWithRetries(() => send(turns), settings, counter, signal);
    tokensIn += reply.tokensIn;
    tokensOut += reply.tokensOut;
    if (reply.stop === 'max_tokens') throw new CuratorError('truncated', `The model${at(settings.host)} stopped at its output limit; nothing was written`, null, counter.calls);
    if (reply.stop === 'refusal') throw new CuratorError('refusal', `The model${at(settings.host)} refused; nothing was written`, null, counter.calls);
    try {
      const sections = parseMarkers(reply.text, { endOptional: reply.stop === 'stop_sequence' });
      return { sections, tokensIn, tokensOut, calls: counter.calls };
    } catch (error) {
      if (!(error instanceof MarkerError)) throw error;
      lastProblem = error.message;
      turns.push({ role: 'assistant', content: reply.text.slice(0, 20_000) || '(empty)' }, { role: 'user', content: REPAIR });
    }
  }
  throw new CuratorError('format', `The reply of the model${at(settings.host)} did not follow the marker format (${lastProblem})`, null, counter.calls);
}
