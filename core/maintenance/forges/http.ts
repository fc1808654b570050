import { setTimeout as sleep } from 'node:timers/promises';
import { ForgeError, RateLimited } from './types.js';

export type Query = Record<string, string | number | undefined>;

/** A reply the dialects read: 200 with data, 304 (not modified), or 404/410/301 for a direct fetch. */
export interface HttpReply {
  status: number;
  data: unknown;
  headers: Record<string, string>;
}

export interface Transport {
  get(path: string, query: Query, options: { etag?: string | null; signal: AbortSignal }): Promise<HttpReply>;
}

export interface TransportOptions {
  /** Retries of a 5xx or a dropped connection before the call fails. */
  retries?: number;
  /** Base of the quadratic retry delay (1, 4, 9 × base). */
  retryBaseMs?: number;
  /** A rate-limit wait at most this long is waited out in place (once); a longer one becomes the next run time. */
  inlineWaitMs?: number;
  timeoutMs?: number;
  clock?: () => number;
}

export const DEFAULT_TRANSPORT: Required<Omit<TransportOptions, 'clock'>> = { retries: 3, retryBaseMs: 1_000, inlineWaitMs: 5_000, timeoutMs: 60_000 };

const MESSAGE_RATE_LIMIT = /rate limit/i;

/**
 * When a 403/429 is a rate limit, the time it lifts: `retry-after` first, then an exhausted
 * `x-ratelimit-reset`, then a minute for a secondary limit that names no time. Null for a plain refusal.
 */
export function rateLimitUntil(status: number, headers: Record<string, string>, data: unknown, now: number): number | null {
  if (status !== 403 && status !== 429) return null;
  const retryAfter = headers['retry-after'];
  if (retryAfter !== undefined) {
    const seconds = Number(retryAfter);
    if (Number.isFinite(seconds) && seconds >= 0) return now + seconds * 1_000;
    const at = Date.parse(retryAfter);
    if (Number.isFinite(at)) return Math.max(now, at);
  }
  if (headers['x-ratelimit-remaining'] === '0') {
    const reset = Number(headers['x-ratelimit-reset']);
    if (Number.isFinite(reset) && reset > 0) return Math.max(now, reset * 1_000);
  }
  const message = typeof data === 'object' && data !== null && 'message' in data ? String((data as { message: unknown }).message) : typeof data === 'string' ? data : '';
  if (status === 429 || MESSAGE_RATE_LIMIT.test(message)) return now + 60_000;
  return null;
}

/** The page count a reply names: Link rel="last", X-Total-Count, or GitCode's total_page. */
export function lastPageOf(headers: Record<string, string>, page: number, perPage: number, hasNext: boolean): number | null {
  const link = parseLink(headers['link']);
  const last = link.last ? Number(new URL(link.last, 'http://x').searchParams.get('page')) : NaN;
  if (Number.isSafeInteger(last) && last > 0) return last;
  const total = Number(headers['x-total-count'] ?? headers['total_count'] ?? headers['total-count']);
  if (Number.isSafeInteger(total) && total >= 0) return Math.max(1, Math.ceil(total / perPage));
  const pages = Number(headers['total_page'] ?? headers['total-page']);
  if (Number.isSafeInteger(pages) && pages >= 0) return Math.max(1, pages);
  return hasNext ? null : page;
}

/**
 * Whether another page follows: a Link rel="next" when the forge sends Link headers, else the page
 * count, else a full page (an empty next page then ends the walk).
 */
export function hasNextOf(headers: Record<string, string>, page: number, perPage: number, raw: number): boolean {
  if (headers['link'] !== undefined) return parseLink(headers['link']).next !== undefined;
  const total = Number(headers['x-total-count'] ?? headers['total_count'] ?? headers['total-count']);
  if (Number.isSafeInteger(total)) return page * perPage < total;
  const pages = Number(headers['total_page'] ?? headers['total-page']);
  if (Number.isSafeInteger(pages)) return page < pages;
  return raw >= perPage;
}

function parseLink(header: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (header ?? '').split(',')) {
    const match = /<([^>]*)>\s*;\s*rel="?([a-z]+)"?/i.exec(part);
    if (match) out[match[2]!.toLowerCase()] = match[1]!;
  }
  return out;
}

export function serverDateOf(headers: Record<string, string>): number | null {
  const at = Date.parse(headers['date'] ?? '');
  return Number.isFinite(at) ? at : null;
}

function cancelled(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : Object.assign(new Error('cancelled'), { name: 'AbortError' });
}

/**
 * Plain fetch for forges without an SDK worth its weight (Gitea/Forgejo, GitCode): quadratic retries
 * of 5xx and dropped connections, rate limits turned into `RateLimited`, JSON parsed defensively.
 * The token rides in a header only, never in a URL, a message or a log line.
 */
export function fetchTransport(apiBase: string, auth: Record<string, string>, options: TransportOptions = {}): Transport {
  const o = { ...DEFAULT_TRANSPORT, ...options };
  const clock = options.clock ?? Date.now;
  return {
    async get(path, query, { etag, signal }) {
      const url = new URL(`${apiBase}${path}`);
      for (const [k, v] of Object.entries(query)) if (v !== undefined) url.searchParams.set(k, String(v));
      const headers: Record<string, string> = { accept: 'application/json', 'user-agent': 'steward', ...auth };
      if (etag) headers['if-none-match'] = etag;
      for (let attempt = 0; ; attempt += 1) {
        let res: Response;
        try {
          res = await fetch(url, { headers, signal: AbortSignal.any([signal, AbortSignal.timeout(o.timeoutMs)]) });
        } catch {
          if (signal.aborted) throw cancelled(signal);
          if (attempt < o.retries) {
            await sleep(o.retryBaseMs * (attempt + 1) ** 2, undefined, { signal });
            continue;
          }
          throw new ForgeError('forge_unavailable', 'The forge did not answer.');
        }
        const replyHeaders = Object.fromEntries([...res.headers].map(([k, v]) => [k.toLowerCase(), v]));
        if (res.status === 304) return { status: 304, data: null, headers: replyHeaders };
        const text = await res.text().catch(() => '');
        if (res.status === 403 || res.status === 429) {
          const until = rateLimitUntil(res.status, replyHeaders, safeJson(text), clock());
          if (until === null) throw new ForgeError('forge_refused', 'The forge refused the request.');
          if (until - clock() <= o.inlineWaitMs && attempt === 0) {
            await sleep(Math.max(0, until - clock()), undefined, { signal });
            continue;
          }
          throw new RateLimited(until);
        }
        if (res.status >= 500) {
          if (attempt < o.retries) {
            await sleep(o.retryBaseMs * (attempt + 1) ** 2, undefined, { signal });
            continue;
          }
          throw new ForgeError('forge_unavailable', `The forge answered HTTP ${res.status}.`);
        }
        if (res.status === 401) throw new ForgeError('forge_unauthorized', 'The forge did not accept the token.');
        if (res.status === 404 || res.status === 410) return { status: res.status, data: null, headers: replyHeaders };
        if (res.status >= 300) throw new ForgeError('forge_refused', `The forge answered HTTP ${res.status}.`);
        const data = safeJson(text);
        if (data === undefined) throw new ForgeError('forge_malformed', 'The forge sent a reply that is not JSON.');
        return { status: 200, data, headers: replyHeaders };
      }
    },
  };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
