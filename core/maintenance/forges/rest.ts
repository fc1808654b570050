import type { ForgeBinding } from './binding.js';
import { hasNextOf, lastPageOf, serverDateOf, type HttpReply, type Query, type Transport } from './http.js';
import { itemOf, parseEach, RawItem } from './records.js';
import {
  ForgeError,
  type CommentRecord,
  type Forge,
  type ForgeKind,
  type Gone,
  type ListRequest,
  type ListResult,
  type Order,
  type Stream,
  type StreamRecord,
  type StreamTraits,
  type TreeSource,
  type VerifyTarget,
} from './types.js';

/** What differs between forges: paths, parameters and record shapes. The walking is shared. */
export interface Dialect {
  kind: ForgeKind;
  perPage: number;
  streams: Partial<Record<Stream, StreamTraits>>;
  listPath(stream: Stream): string;
  listQuery(stream: Stream, order: Order, page: number, since: string | undefined, perPage: number): Query;
  parse(stream: Stream, entry: unknown): StreamRecord | null | 'filtered';
  pageQuery(page: number, perPage: number): Query;
  itemCommentsPath(number: number): string;
  /**
   * One cheap request every API root of this forge answers with JSON, and a web host does not: what
   * tells a wrong base URL from a repository the forge does not know, once both answer 404.
   */
  root: { path: string; answers(data: unknown): boolean };
  /** Per-PR review comments for forges without a repo-wide list; undefined when one exists. */
  pullComments?: (get: PagedGet, number: number, perPage: number, signal: AbortSignal) => Promise<{ records: CommentRecord[]; skipped: number }>;
}

export type PagedGet = (path: string, query: Query, signal: AbortSignal) => Promise<HttpReply>;

/** A walk of one child listing stops here even if a broken forge keeps saying "next". */
const MAX_CHILD_PAGES = 100;

/** Where GitHub, Gitea and GitCode alike answer for one item or comment. */
function verifyPath(target: VerifyTarget): string {
  if ('number' in target) return target.kind === 'issues' ? `/issues/${target.number}` : `/pulls/${target.number}`;
  return target.kind === 'issue-comments' ? `/issues/comments/${target.id}` : `/pulls/comments/${target.id}`;
}

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

export class RestForge implements Forge {
  readonly kind: ForgeKind;
  readonly host: string;
  readonly perPage: number;
  readonly streams: Partial<Record<Stream, StreamTraits>>;
  readonly pullComments?: Forge['pullComments'];
  readonly #t: Transport;
  readonly #d: Dialect;
  readonly #repoPath: string;
  readonly #binding: ForgeBinding;
  readonly #wiki: () => TreeSource | null;
  /** Whether the base URL is an API root, asked at most once per client (one client serves one pass). */
  #root: Promise<boolean | null> | null = null;

  constructor(binding: ForgeBinding, transport: Transport, dialect: Dialect, wiki: () => TreeSource | null, perPage?: number) {
    this.kind = binding.kind;
    this.host = binding.host;
    // A smaller page is allowed (tests use one), never one above what the forge serves.
    this.perPage = Math.max(1, Math.min(dialect.perPage, perPage ?? dialect.perPage));
    this.streams = dialect.streams;
    this.#t = transport;
    this.#d = dialect;
    this.#binding = binding;
    this.#repoPath = `/repos/${encodeURIComponent(binding.owner)}/${encodeURIComponent(binding.name)}`;
    this.#wiki = wiki;
    const pull = dialect.pullComments;
    if (pull) this.pullComments = (number, signal) => pull((path, query, s) => this.#t.get(`${this.#repoPath}${path}`, query, { signal: s }), number, this.perPage, signal);
  }

  async list(request: ListRequest, signal: AbortSignal): Promise<ListResult> {
    const since = request.since === undefined ? undefined : iso(request.since);
    const query = this.#d.listQuery(request.stream, request.order, request.page, since, this.perPage);
    const reply = await this.#t.get(`${this.#repoPath}${this.#d.listPath(request.stream)}`, query, { etag: request.etag, signal });
    if (reply.status === 304) return { notModified: true, serverDate: serverDateOf(reply.headers) };
    if (reply.status !== 200) throw await this.#notFound(signal);
    const parsed = parseEach(reply.data, (entry) => this.#d.parse(request.stream, entry));
    if (!parsed) throw new ForgeError('forge_malformed', 'The forge sent a page that is not a list.');
    const hasNext = hasNextOf(reply.headers, request.page, this.perPage, parsed.raw);
    return {
      notModified: false,
      records: parsed.records,
      skipped: parsed.skipped,
      raw: parsed.raw,
      etag: reply.headers['etag'] ?? null,
      hasNext,
      lastPage: lastPageOf(reply.headers, request.page, this.perPage, hasNext),
      serverDate: serverDateOf(reply.headers),
    };
  }

  async verify(target: VerifyTarget, signal: AbortSignal): Promise<StreamRecord | Gone> {
    const reply = await this.#t.get(`${this.#repoPath}${verifyPath(target)}`, {}, { signal });
    if (reply.status === 404 || reply.status === 410) {
      // A wrong base URL answers 404 for every record: that is no proof of a deletion.
      if ((await this.#isApiRoot(signal)) === false) throw this.#wrongRoot();
      return { gone: 'deleted' };
    }
    const record = this.#parseVerified(target, reply.data);
    if (!record) throw new ForgeError('forge_malformed', 'The forge sent a record that cannot be read.');
    // A transferred issue answers from its new repository (the redirect is followed): not ours any more.
    if (record.url && !this.#ownsUrl(record.url)) return { gone: 'transferred' };
    return record;
  }

  /** A repository request answered 404: a repository the forge does not know, or no API root at all. */
  async #notFound(signal: AbortSignal): Promise<ForgeError> {
    const root = await this.#isApiRoot(signal);
    if (root === false) return this.#wrongRoot();
    // Whether the root answered is what tells the person if the base URL can be the mistake.
    if (root === null) return new ForgeError('forge_not_found_unchecked', 'The forge does not know this repository; its root could not be checked.');
    return new ForgeError('forge_not_found', 'The forge does not know this repository.');
  }

  #wrongRoot(): ForgeError {
    return new ForgeError('forge_api_root', 'The base URL is not the forge API root.');
  }

  /**
   * True when the root answers as an API root does, false when it answers 404 or not with JSON (a
   * web page), null when it cannot tell (no answer, a refusal): then the 404 stands as it is. A rate
   * limit or a cancel is the pass's own and is thrown on.
   */
  #isApiRoot(signal: AbortSignal): Promise<boolean | null> {
    this.#root ??= this.#t.get(this.#d.root.path, {}, { signal }).then(
      (reply) => (reply.status === 200 ? this.#d.root.answers(reply.data) : reply.status === 404 || reply.status === 410 ? false : null),
      (error: unknown) => {
        if (!(error instanceof ForgeError)) {
          this.#root = null;
          throw error;
        }
        return error.errorClass === 'forge_malformed' ? false : null;
      },
    );
    return this.#root;
  }

  /**
   * One re-read record. An item is taken as it is (the issue list's pull-request filter does not
   * apply to a record asked for by number); a comment reads as its stream's entries do.
   */
  #parseVerified(target: VerifyTarget, data: unknown): StreamRecord | null {
    try {
      if (target.kind === 'issues' || target.kind === 'pulls') return itemOf(target.kind, RawItem.parse(data));
      const record = this.#d.parse(target.kind, data);
      return record === 'filtered' ? null : record;
    } catch {
      return null;
    }
  }

  #ownsUrl(url: string): boolean {
    const path = `/${this.#binding.owner}/${this.#binding.name}/`.toLowerCase();
    return url.toLowerCase().includes(path);
  }

  async itemComments(number: number, signal: AbortSignal): Promise<{ records: CommentRecord[]; skipped: number }> {
    const get: PagedGet = (path, query, s) => this.#t.get(`${this.#repoPath}${path}`, query, { signal: s });
    const { records, skipped } = await allPages(get, this.#d.itemCommentsPath(number), (page) => this.#d.pageQuery(page, this.perPage), this.perPage, (entry) => this.#d.parse('issue-comments', entry), signal);
    const comments = records.filter((r): r is CommentRecord => r.type === 'comment').map((r) => ({ ...r, itemNumber: number, collection: 'issue-comments' as const }));
    return { records: comments, skipped };
  }

  wiki(): TreeSource | null {
    return this.#wiki();
  }
}

/** Walks every page of a child listing (bounded), for dialects' per-PR review comments. */
export async function allPages<T>(
  get: PagedGet,
  path: string,
  pageQuery: (page: number) => Query,
  perPage: number,
  parse: (entry: unknown) => T | null | 'filtered',
  signal: AbortSignal,
): Promise<{ records: T[]; skipped: number }> {
  const records: T[] = [];
  let skipped = 0;
  for (let page = 1; page <= MAX_CHILD_PAGES; page += 1) {
    const reply = await get(path, pageQuery(page), signal);
    if (reply.status !== 200) break;
    const parsed = parseEach(reply.data, parse);
    if (!parsed) throw new ForgeError('forge_malformed', 'The forge sent a page that is not a list.');
    records.push(...parsed.records);
    skipped += parsed.skipped;
    if (!hasNextOf(reply.headers, page, perPage, parsed.raw)) break;
  }
  return { records, skipped };
}
