import { setTimeout as sleep } from 'node:timers/promises';
import type { ForgeBinding } from './binding.js';
import { DEFAULT_TRANSPORT, rateLimitUntil, type HttpReply, type Transport, type TransportOptions } from './http.js';
import { commentOf, itemOf, numberFromUrl, RawComment, RawItem } from './records.js';
import type { Dialect } from './rest.js';
import { ForgeError, RateLimited, type StreamRecord, type StreamTraits } from './types.js';

/** Octokit and its plugins load at a transport's first request, not when the Core opens: most runs never reach a forge. */
async function loadSyncOctokit() {
  const [{ Octokit }, { retry }, { throttling }] = await Promise.all([import('@octokit/rest'), import('@octokit/plugin-retry'), import('@octokit/plugin-throttling')]);
  return Octokit.plugin(throttling, retry);
}

let syncOctokit: ReturnType<typeof loadSyncOctokit> | undefined;

const SILENT = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

interface RequestErrorLike {
  status: number;
  response?: { headers?: Record<string, string | number | undefined>; data?: unknown };
}

function isRequestError(error: unknown): error is RequestErrorLike {
  return typeof error === 'object' && error !== null && typeof (error as { status?: unknown }).status === 'number';
}

function flatHeaders(headers: Record<string, string | number | undefined> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers ?? {})) if (v !== undefined) out[k.toLowerCase()] = String(v);
  return out;
}

/** Turns an Octokit failure into a reply (304/404/410) or the error the lanes know. */
function replyOrThrow(error: unknown, clock: () => number): HttpReply {
  if (error instanceof ForgeError) throw error;
  if (!isRequestError(error)) throw new ForgeError('forge_unavailable', 'GitHub did not answer.');
  const replyHeaders = flatHeaders(error.response?.headers);
  if (error.status === 304) return { status: 304, data: null, headers: replyHeaders };
  if (error.status === 404 || error.status === 410) return { status: error.status, data: null, headers: replyHeaders };
  if (error.status === 401) throw new ForgeError('forge_unauthorized', 'GitHub did not accept the token.');
  if (error.status === 403 || error.status === 429) {
    const until = rateLimitUntil(error.status, replyHeaders, error.response?.data, clock());
    if (until !== null) throw new RateLimited(until);
    throw new ForgeError('forge_refused', 'GitHub refused the request.');
  }
  if (error.status >= 500) throw new ForgeError('forge_unavailable', `GitHub answered HTTP ${error.status}.`);
  throw new ForgeError('forge_refused', `GitHub answered HTTP ${error.status}.`);
}

/**
 * GitHub through Octokit: its retry plugin retries 5xx with backoff; rate limits (primary or
 * secondary, 403 or 429) are never re-sent by a plugin, since GitHub asks for no request before
 * Retry-After (or a minute) and the retry plugin would re-send a 429 within seconds. A short
 * wait is waited out here once, as the fetch transport does; a long one surfaces as `RateLimited`
 * (the next run time). The throttling plugin stays for its request pacing. Octokit's own logging is
 * silenced: its lines carry URLs.
 */
export function octokitTransport(binding: ForgeBinding, token: string, options: TransportOptions = {}): Transport {
  const o = { ...DEFAULT_TRANSPORT, ...options };
  const clock = options.clock ?? Date.now;
  const neverInPlace = () => false;
  let made: Promise<InstanceType<Awaited<ReturnType<typeof loadSyncOctokit>>>> | undefined;
  const client = () =>
    (made ??= (syncOctokit ??= loadSyncOctokit()).then(
      (SyncOctokit) =>
        new SyncOctokit({
          auth: token,
          baseUrl: binding.apiBase,
          userAgent: 'steward',
          log: SILENT,
          throttle: { onRateLimit: neverInPlace, onSecondaryRateLimit: neverInPlace },
          retry: { retries: o.retries, retryAfterBaseValue: o.retryBaseMs, doNotRetry: [400, 401, 403, 404, 410, 422, 429, 451] },
        }),
    ));
  return {
    async get(path, query, { etag, signal }) {
      const octokit = await client();
      const headers: Record<string, string> = { 'x-github-api-version': '2022-11-28' };
      if (etag) headers['if-none-match'] = etag;
      for (let attempt = 0; ; attempt += 1) {
        try {
          const res = await octokit.request(`GET ${path}`, { ...query, headers, request: { signal, timeout: o.timeoutMs } });
          if (typeof res.data === 'string') throw new ForgeError('forge_malformed', 'GitHub sent a reply that is not JSON.');
          return { status: res.status, data: res.data as unknown, headers: flatHeaders(res.headers as Record<string, string>) };
        } catch (error) {
          if (signal.aborted) throw signal.reason instanceof Error ? signal.reason : error;
          try {
            return replyOrThrow(error, clock);
          } catch (failure) {
            if (!(failure instanceof RateLimited) || attempt > 0 || failure.until - clock() > o.inlineWaitMs) throw failure;
            await sleep(Math.max(0, failure.until - clock()), undefined, { signal });
          }
        }
      }
    },
  };
}

const SORTED: StreamTraits = { recent: 'sorted', stable: 'created-asc' };

function parseComment(entry: unknown, review: boolean): StreamRecord | null {
  const raw = RawComment.parse(entry);
  const number = review ? numberFromUrl(raw.pull_request_url, raw.html_url) : numberFromUrl(raw.issue_url, raw.html_url);
  if (number === null) return null;
  // The repo-wide issue-comment list carries pull-request conversation too; its page URL tells them apart.
  const onPull = review || /\/pull\/\d+/.test(raw.html_url ?? '');
  return commentOf(raw, onPull ? 'pr-comments' : 'issue-comments', number);
}

/** GitHub REST v3 (api.github.com, or GHE at https://HOST/api/v3). */
export const githubDialect: Dialect = {
  kind: 'github',
  perPage: 100,
  streams: { issues: SORTED, pulls: SORTED, 'issue-comments': SORTED, 'review-comments': SORTED },
  listPath: (stream) => ({ issues: '/issues', pulls: '/pulls', 'issue-comments': '/issues/comments', 'review-comments': '/pulls/comments' })[stream],
  listQuery(stream, order, page, since, perPage) {
    const sort = order === 'stable' ? { sort: 'created', direction: 'asc' } : { sort: 'updated', direction: 'desc' };
    const state = stream === 'issues' || stream === 'pulls' ? { state: 'all' } : {};
    // Pulls have no `since`: the recent pass stops at its watermark instead.
    const filter = since !== undefined && stream !== 'pulls' && order === 'recent' ? { since } : {};
    return { ...state, ...sort, ...filter, per_page: perPage, page };
  },
  parse(stream, entry) {
    if (stream === 'issues') {
      const raw = RawItem.parse(entry);
      // The issues list carries pull requests too; those are the pulls stream's.
      return raw.pull_request !== undefined && raw.pull_request !== null ? 'filtered' : itemOf('issues', raw);
    }
    if (stream === 'pulls') return itemOf('pulls', RawItem.parse(entry));
    return parseComment(entry, stream === 'review-comments');
  },
  pageQuery: (page, perPage) => ({ per_page: perPage, page }),
  itemCommentsPath: (number) => `/issues/${number}/comments`,
  // api.github.com and GHE's /api/v3 answer /meta with a JSON object; a GHE web host answers 404 or a page.
  root: { path: '/meta', answers: (data) => typeof data === 'object' && data !== null && !Array.isArray(data) },
};

/** Where GitHub keeps a wiki: `<web origin>/<owner>/<name>.wiki.git`, beside the API root. */
export function githubWikiRemote(binding: ForgeBinding): string {
  const url = new URL(binding.apiBase);
  const origin = url.hostname === 'api.github.com' ? 'https://github.com' : url.origin + url.pathname.replace(/\/api\/v3$/, '');
  return `${origin}/${binding.owner}/${binding.name}.wiki.git`;
}

export function githubWikiPageUrl(binding: ForgeBinding, page: string): string {
  return githubWikiRemote(binding).replace(/\.wiki\.git$/, `/wiki/${encodeURIComponent(page)}`);
}
