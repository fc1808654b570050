import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, normalize } from 'node:path';

/**
 * A loopback forge for tests: one dataset served in GitHub (`/api/v3`), Gitea (`/api/v1`) and
 * GitCode (`/api/v5`) shapes, driven through Steward's real clients (Octokit for GitHub, fetch for
 * the others). Scripts can mutate the dataset between any two requests and answer 304, 403/429 with
 * retry-after, 500s or malformed JSON. A wiki is a real bare git repository served over git's dumb
 * HTTP protocol (GitHub) or as Gitea's wiki REST.
 */
export type Shape = 'github' | 'gitea' | 'gitcode';

export interface Thread {
  id: number;
  number: number;
  kind: 'issue' | 'pull';
  title: string;
  body: string;
  state: 'open' | 'closed';
  merged: boolean;
  author: string;
  labels: string[];
  createdAt: number;
  updatedAt: number;
  closedAt: number | null;
}

export interface Comment {
  id: number;
  number: number;
  kind: 'conversation' | 'review';
  body: string;
  author: string;
  createdAt: number;
  updatedAt: number;
  path: string | null;
  line: number | null;
  reviewId: number | null;
}

export interface Request {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  /** 0-based count of API requests so far (wiki git traffic is not counted). */
  n: number;
}

/** What a script answers instead of the dataset: a status, headers, and a raw body. */
export interface Reply {
  status: number;
  headers?: Record<string, string>;
  body?: string;
  /** Never answer (the client is killed meanwhile). */
  hang?: boolean;
}

export type Script = (req: Request, forge: FakeForge) => Reply | void;

const ORIGIN = 'http://fake-forge.invalid';

const ts = (ms: number, shape: Shape) => {
  const iso = new Date(Math.floor(ms / 1_000) * 1_000).toISOString().replace(/\.000Z$/, 'Z');
  if (shape !== 'gitcode') return iso;
  // GitCode writes local time with a +08:00 offset.
  return new Date(Math.floor(ms / 1_000) * 1_000 + 8 * 3_600_000).toISOString().replace(/\.000Z$/, '+08:00');
};

export class FakeForge {
  readonly owner: string;
  readonly name: string;
  readonly shape: Shape;
  readonly token: string | null;
  readonly threads = new Map<number, Thread>();
  readonly comments = new Map<number, Comment>();
  /** Numbers moved to another repository, answered with a 301 to their new home. */
  readonly transferred = new Map<number, number>();
  readonly requests: Request[] = [];
  readonly giteaWiki = new Map<string, { title: string; content: string; sha: string; date: number }>();
  /** A bare git repository served as `<owner>/<name>.wiki.git` (GitHub shape). */
  wikiBare: string | null = null;
  /** Refuse the wiki's git traffic (a token without wiki access). */
  wikiDenied = false;
  scripts: Script[] = [];
  /** The clock the dataset's timestamps come from; tests move it forward to make changes visible. */
  now = Date.now();
  #server: Server | null = null;
  /** Conversation comments per thread, kept as comments come and go (the lists report the count). */
  readonly #counts = new Map<number, number>();
  #next = 1;
  #nextComment = 1_000_000;
  #nextReview = 500;
  base = '';

  constructor(options: { owner?: string; name?: string; shape: Shape; token?: string | null }) {
    this.owner = options.owner ?? 'acme';
    this.name = options.name ?? 'widgets';
    this.shape = options.shape;
    this.token = options.token === undefined ? 'fake-forge-token-0123456789' : options.token;
  }

  get apiBase(): string {
    return `${this.base}${{ github: '/api/v3', gitea: '/api/v1', gitcode: '/api/v5' }[this.shape]}`;
  }

  async start(): Promise<string> {
    this.#server = createServer((req, res) => void this.#handle(req, res));
    await new Promise<void>((resolve) => this.#server!.listen(0, '127.0.0.1', resolve));
    this.base = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
    return this.apiBase;
  }

  async stop(): Promise<void> {
    if (!this.#server) return;
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server!.close(() => resolve()));
    this.#server = null;
  }

  // ---- the dataset ------------------------------------------------------------------------------

  #tick(): number {
    this.now += 1_000;
    this.#version += 1;
    return this.now;
  }

  /** Every change bumps the version; a listing is built once per version and query (the benchmark reads 40k records). */
  #version = 0;
  readonly #lists = new Map<string, unknown[]>();

  #memo(kind: string, q: URLSearchParams, build: () => unknown[]): unknown[] {
    const params = new URLSearchParams(q);
    params.delete('page');
    const key = `${this.#version}|${kind}|${params.toString()}`;
    let list = this.#lists.get(key);
    if (!list) {
      this.#lists.clear();
      list = build();
      this.#lists.set(key, list);
    }
    return list;
  }

  add(kind: Thread['kind'], fields: Partial<Thread> = {}): Thread {
    const at = this.#tick();
    const number = this.#next++;
    const thread: Thread = {
      id: 10_000 + number,
      number,
      kind,
      title: `${kind === 'issue' ? 'Issue' : 'Pull'} ${number}`,
      body: `Body of ${number}`,
      state: 'open',
      merged: false,
      author: 'octocat',
      labels: [],
      createdAt: at,
      updatedAt: at,
      closedAt: null,
      ...fields,
    };
    this.threads.set(number, thread);
    return thread;
  }

  edit(number: number, patch: Partial<Thread>): Thread {
    const t = this.threads.get(number)!;
    Object.assign(t, patch, { updatedAt: this.#tick() });
    return t;
  }

  remove(number: number): void {
    this.#version += 1;
    this.threads.delete(number);
    this.#counts.delete(number);
    for (const c of [...this.comments.values()]) if (c.number === number) this.comments.delete(c.id);
  }

  /** Moves a thread to another repository: gone from every list here, a 301 for its old address. */
  transfer(number: number): void {
    this.remove(number);
    this.transferred.set(number, 90_000 + number);
  }

  comment(number: number, fields: Partial<Comment> = {}): Comment {
    const at = this.#tick();
    const c: Comment = {
      id: this.#nextComment++,
      number,
      kind: 'conversation',
      body: `Comment on ${number}`,
      author: 'hubot',
      createdAt: at,
      updatedAt: at,
      path: null,
      line: null,
      reviewId: null,
      ...fields,
    };
    if (c.kind === 'review' && c.reviewId === null) c.reviewId = this.#nextReview++;
    this.comments.set(c.id, c);
    if (c.kind === 'conversation') this.#counts.set(number, (this.#counts.get(number) ?? 0) + 1);
    const parent = this.threads.get(number);
    if (parent) parent.updatedAt = at;
    return c;
  }

  editComment(id: number, body: string): void {
    const c = this.comments.get(id)!;
    c.body = body;
    c.updatedAt = this.#tick();
    const parent = this.threads.get(c.number);
    if (parent) parent.updatedAt = c.updatedAt;
  }

  deleteComment(id: number): void {
    const c = this.comments.get(id)!;
    this.comments.delete(id);
    if (c.kind === 'conversation') this.#counts.set(c.number, (this.#counts.get(c.number) ?? 1) - 1);
    const parent = this.threads.get(c.number);
    if (parent) parent.updatedAt = this.#tick();
  }

  /** Requests to the API (not the wiki's git traffic), optionally only those matching a path fragment. */
  apiRequests(fragment = ''): Request[] {
    return this.requests.filter((r) => r.path.includes('/api/') && r.path.includes(fragment));
  }

  // ---- serving ------------------------------------------------------------------------------------

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', ORIGIN);
    const request: Request = { method: req.method ?? 'GET', path: url.pathname, query: url.searchParams, headers: req.headers, n: this.apiRequests().length };
    this.requests.push(request);
    try {
      if (url.pathname.includes('.wiki.git/')) return await this.#serveGit(url.pathname, req, res);
      for (const script of [...this.scripts]) {
        const reply = script(request, this);
        if (reply?.hang) return;
        if (reply) return this.#send(res, reply.status, reply.body ?? '', reply.headers ?? {});
      }
      // Outside /api/ this is the forge's web host: pages, never JSON (what a base URL without its API root reaches).
      if (!url.pathname.startsWith('/api/')) return this.#send(res, url.pathname === '/' ? 200 : 404, '<!DOCTYPE html><title>Forge</title>', { 'content-type': 'text/html; charset=utf-8' });
      if (this.token && !(req.headers.authorization ?? '').includes(this.token)) {
        return this.#send(res, 401, JSON.stringify({ message: 'Bad credentials' }));
      }
      const answer = this.#route(url);
      if (!answer) return this.#send(res, 404, JSON.stringify({ message: 'Not Found' }));
      if ('redirect' in answer) return this.#send(res, 301, '', { location: answer.redirect });
      const body = JSON.stringify(answer.data);
      const etag = `W/"${createHash('sha1').update(body).digest('hex')}"`;
      const headers = { etag, ...answer.headers };
      if (req.headers['if-none-match'] === etag) return this.#send(res, 304, '', headers);
      this.#send(res, answer.status ?? 200, body, headers);
    } catch (error) {
      this.#send(res, 500, JSON.stringify({ message: String(error) }));
    }
  }

  #send(res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
    // The forge's own clock: watermarks are taken from the Date the forge answers with.
    const date = new Date(this.now).toUTCString();
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', date, 'x-ratelimit-limit': '5000', 'x-ratelimit-remaining': '4999', ...headers });
    res.end(status === 304 ? undefined : body);
  }

  async #serveGit(pathname: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
    const prefix = `/${this.owner}/${this.name}.wiki.git/`;
    if (!this.wikiBare || !pathname.startsWith(prefix)) return this.#send(res, 404, 'Repository not found.', { 'content-type': 'text/plain' });
    if (this.wikiDenied) return this.#send(res, 403, 'Forbidden', { 'content-type': 'text/plain' });
    if (this.token && !(req.headers.authorization ?? '').includes(Buffer.from(`x-access-token:${this.token}`).toString('base64'))) {
      res.writeHead(401, { 'www-authenticate': 'Basic realm="wiki"' });
      return void res.end();
    }
    const rel = normalize(pathname.slice(prefix.length));
    if (rel.startsWith('..')) return this.#send(res, 404, '');
    try {
      const data = await readFile(join(this.wikiBare, rel));
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      res.end(data);
    } catch {
      res.writeHead(404);
      res.end();
    }
  }

  #route(url: URL): { data: unknown; headers?: Record<string, string>; status?: number } | { redirect: string } | null {
    const api = `/api/${{ github: 'v3', gitea: 'v1', gitcode: 'v5' }[this.shape]}`;
    const repo = `${api}/repos/${this.owner}/${this.name}`;
    const path = url.pathname;
    const q = url.searchParams;
    // What each API root answers to the check Steward makes of a base URL.
    if (path === `${api}${{ github: '/meta', gitea: '/version', gitcode: '/user' }[this.shape]}`) {
      return { data: { github: { verifiable_password_authentication: true }, gitea: { version: '1.21.0' }, gitcode: this.#user('octocat') }[this.shape] };
    }
    if (!path.startsWith(repo)) {
      // The new home of a transferred issue answers with its new repository's URLs.
      const moved = new RegExp(`^${api}/repos/elsewhere/moved/issues/(\\d+)$`).exec(path);
      if (moved) return { data: { ...(this.#issueJson(this.#stub(Number(moved[1]))) as object), html_url: `${this.base}/elsewhere/moved/issues/${moved[1]}` } };
      return null;
    }
    const rest = path.slice(repo.length);
    let m: RegExpExecArray | null;
    if (rest === '/issues') return this.#page(this.#memo('issues', q, () => this.#issuesList(q)), q);
    if (rest === '/pulls') return this.#page(this.#memo('pulls', q, () => this.#pullsList(q)), q);
    if (rest === '/issues/comments') return this.#page(this.#memo('comments', q, () => this.#commentsList(q)), q);
    if (rest === '/pulls/comments' && this.shape === 'github') return this.#page(this.#memo('reviews', q, () => this.#reviewList(q)), q);
    if ((m = /^\/issues\/(\d+)$/.exec(rest))) return this.#one(Number(m[1]), (t) => this.#issueJson(t));
    if ((m = /^\/pulls\/(\d+)$/.exec(rest))) return this.#one(Number(m[1]), (t) => (t.kind === 'pull' ? this.#pullJson(t) : null));
    if ((m = /^\/issues\/(\d+)\/comments$/.exec(rest))) {
      const n = Number(m[1]);
      return this.#page(this.#sorted([...this.comments.values()].filter((c) => c.number === n && c.kind === 'conversation'), 'created', 'asc').map((c) => this.#commentJson(c)), q);
    }
    if ((m = /^\/issues\/comments\/(\d+)$/.exec(rest))) {
      const c = this.comments.get(Number(m[1]));
      return c && c.kind === 'conversation' ? { data: this.#commentJson(c) } : null;
    }
    if ((m = /^\/pulls\/comments\/(\d+)$/.exec(rest))) {
      const c = this.comments.get(Number(m[1]));
      return c && c.kind === 'review' ? { data: this.#reviewJson(c) } : null;
    }
    if ((m = /^\/pulls\/(\d+)\/reviews$/.exec(rest)) && this.shape === 'gitea') {
      const ids = [...new Set([...this.comments.values()].filter((c) => c.number === Number(m![1]) && c.kind === 'review').map((c) => c.reviewId))];
      return this.#page(
        ids.map((id) => ({ id, state: 'COMMENT' })),
        q,
      );
    }
    if ((m = /^\/pulls\/(\d+)\/reviews\/(\d+)\/comments$/.exec(rest)) && this.shape === 'gitea') {
      const [n, rid] = [Number(m[1]), Number(m[2])];
      return { data: [...this.comments.values()].filter((c) => c.number === n && c.reviewId === rid).map((c) => this.#reviewJson(c)) };
    }
    if ((m = /^\/pulls\/(\d+)\/comments$/.exec(rest)) && this.shape === 'gitcode') {
      const n = Number(m[1]);
      return this.#page(this.#sorted([...this.comments.values()].filter((c) => c.number === n), 'created', 'asc').map((c) => this.#reviewJson(c)), q);
    }
    if (rest === '/wiki/pages' && this.shape === 'gitea') {
      if (this.giteaWiki.size === 0) return null;
      const pages = [...this.giteaWiki.entries()].sort(([a], [b]) => (a < b ? -1 : 1));
      return this.#page(
        pages.map(([sub, p]) => ({ title: p.title, sub_url: sub, html_url: `${this.base}/${this.owner}/${this.name}/wiki/${sub}`, last_commit: { sha: p.sha, committer: { date: ts(p.date, 'gitea') } } })),
        q,
      );
    }
    if ((m = /^\/wiki\/page\/(.+)$/.exec(rest)) && this.shape === 'gitea') {
      const p = this.giteaWiki.get(decodeURIComponent(m[1]!));
      if (!p) return null;
      return {
        data: {
          title: p.title,
          content_base64: Buffer.from(p.content).toString('base64'),
          html_url: `${this.base}/${this.owner}/${this.name}/wiki/${m[1]}`,
          last_commit: { sha: p.sha, committer: { date: ts(p.date, 'gitea') } },
        },
      };
    }
    return null;
  }

  #stub(number: number): Thread {
    return { id: 1, number, kind: 'issue', title: 'moved', body: '', state: 'open', merged: false, author: 'x', labels: [], createdAt: this.now, updatedAt: this.now, closedAt: null };
  }

  #one(number: number, render: (t: Thread) => unknown): { data: unknown } | { redirect: string } | null {
    const moved = this.transferred.get(number);
    if (moved !== undefined) return { redirect: `${this.apiBase}/repos/elsewhere/moved/issues/${moved}` };
    const t = this.threads.get(number);
    const data = t ? render(t) : null;
    return data === null ? null : { data };
  }

  #sorted<T extends { createdAt: number; updatedAt: number; id: number }>(list: T[], sort: string, direction: string): T[] {
    const key = sort === 'updated' ? (x: T) => x.updatedAt : (x: T) => x.createdAt;
    const sign = direction === 'desc' ? -1 : 1;
    return [...list].sort((a, b) => sign * (key(a) - key(b) || a.id - b.id));
  }

  #since<T extends { updatedAt: number }>(list: T[], q: URLSearchParams): T[] {
    const since = q.get('since');
    if (!since) return list;
    const at = Date.parse(since);
    return list.filter((x) => Math.floor(x.updatedAt / 1_000) * 1_000 >= at);
  }

  #issuesList(q: URLSearchParams): unknown[] {
    let list = [...this.threads.values()];
    if (this.shape !== 'github' || q.get('type') === 'issues') list = list.filter((t) => t.kind === 'issue');
    list = this.#since(list, q);
    // Gitea's issue list takes no sort: newest created first.
    const ordered = this.shape === 'gitea' ? this.#sorted(list, 'created', 'desc') : this.#sorted(list, q.get('sort') ?? 'created', q.get('direction') ?? 'desc');
    return ordered.map((t) => this.#issueJson(t));
  }

  #pullsList(q: URLSearchParams): unknown[] {
    const list = [...this.threads.values()].filter((t) => t.kind === 'pull');
    const sort = this.shape === 'gitea' ? (q.get('sort') === 'recentupdate' ? ['updated', 'desc'] : ['created', 'asc']) : [q.get('sort') ?? 'created', q.get('direction') ?? 'desc'];
    return this.#sorted(list, sort[0]!, sort[1]!).map((t) => this.#pullJson(t));
  }

  #commentsList(q: URLSearchParams): unknown[] {
    let list = [...this.comments.values()].filter((c) => c.kind === 'conversation');
    // GitCode's repo-wide list carries issue comments only; pull-request comments are read per PR.
    if (this.shape === 'gitcode') list = list.filter((c) => this.threads.get(c.number)?.kind === 'issue');
    list = this.#since(list, q);
    const sort = this.shape === 'github' ? [q.get('sort') ?? 'created', q.get('direction') ?? 'asc'] : ['created', 'asc'];
    return this.#sorted(list, sort[0]!, sort[1]!).map((c) => this.#commentJson(c));
  }

  #reviewList(q: URLSearchParams): unknown[] {
    const list = this.#since(
      [...this.comments.values()].filter((c) => c.kind === 'review'),
      q,
    );
    return this.#sorted(list, q.get('sort') ?? 'created', q.get('direction') ?? 'asc').map((c) => this.#reviewJson(c));
  }

  #page(all: unknown[], q: URLSearchParams): { data: unknown; headers: Record<string, string> } {
    const perParam = this.shape === 'gitea' ? 'limit' : 'per_page';
    const cap = this.shape === 'gitea' ? 50 : 100;
    const per = Math.min(cap, Number(q.get(perParam) ?? 30));
    const page = Math.max(1, Number(q.get('page') ?? 1));
    const last = Math.max(1, Math.ceil(all.length / per));
    const data = all.slice((page - 1) * per, page * per);
    const headers: Record<string, string> = {};
    const link = (p: number, rel: string) => {
      const params = new URLSearchParams(q);
      params.set('page', String(p));
      return `<${this.base}/page?${params.toString()}>; rel="${rel}"`;
    };
    if (this.shape === 'gitcode') {
      headers['total_count'] = String(all.length);
      headers['total_page'] = String(last);
    } else {
      const links = [];
      if (page < last) links.push(link(page + 1, 'next'), link(last, 'last'));
      if (page > 1) links.push(link(1, 'first'), link(page - 1, 'prev'));
      headers['link'] = links.join(', ');
      if (this.shape === 'gitea') headers['x-total-count'] = String(all.length);
    }
    return { data, headers };
  }

  #user(login: string): unknown {
    return { login, id: login.length };
  }

  #threadUrl(t: Thread): string {
    const kind = t.kind === 'pull' ? (this.shape === 'github' ? 'pull' : 'pulls') : 'issues';
    return `${this.base}/${this.owner}/${this.name}/${kind}/${t.number}`;
  }

  #issueJson(t: Thread): unknown {
    const base = {
      id: t.id,
      number: this.shape === 'gitcode' ? String(t.number) : t.number,
      title: t.title,
      body: t.body,
      state: t.state,
      user: this.#user(t.author),
      labels: t.labels.map((name) => ({ name, color: 'ededed' })),
      comments: this.#counts.get(t.number) ?? 0,
      created_at: ts(t.createdAt, this.shape),
      updated_at: ts(t.updatedAt, this.shape),
      closed_at: t.closedAt === null ? null : ts(t.closedAt, this.shape),
      html_url: this.#threadUrl(t),
    };
    return t.kind === 'pull' ? { ...base, pull_request: { url: `${this.apiBase}/repos/${this.owner}/${this.name}/pulls/${t.number}`, merged_at: null } } : base;
  }

  #pullJson(t: Thread): unknown {
    return {
      id: t.id,
      number: t.number,
      title: t.title,
      body: t.body,
      state: t.state,
      user: this.#user(t.author),
      labels: t.labels.map((name) => ({ name })),
      created_at: ts(t.createdAt, this.shape),
      updated_at: ts(t.updatedAt, this.shape),
      closed_at: t.closedAt === null ? null : ts(t.closedAt, this.shape),
      merged_at: t.merged ? ts(t.closedAt ?? t.updatedAt, this.shape) : null,
      ...(this.shape === 'gitea' ? { merged: t.merged } : {}),
      html_url: this.#threadUrl(t),
      head: { ref: `feature-${t.number}` },
      base: { ref: 'main' },
    };
  }

  #commentJson(c: Comment): unknown {
    const parent = this.threads.get(c.number);
    const onPull = parent?.kind === 'pull';
    const html = `${this.base}/${this.owner}/${this.name}/${onPull ? (this.shape === 'github' ? 'pull' : 'pulls') : 'issues'}/${c.number}#issuecomment-${c.id}`;
    const common = { id: c.id, body: c.body, user: this.#user(c.author), created_at: ts(c.createdAt, this.shape), updated_at: ts(c.updatedAt, this.shape), html_url: html };
    if (this.shape === 'github') return { ...common, issue_url: `${this.apiBase}/repos/${this.owner}/${this.name}/issues/${c.number}` };
    if (this.shape === 'gitea') {
      return {
        ...common,
        issue_url: onPull ? '' : `${this.base}/${this.owner}/${this.name}/issues/${c.number}`,
        pull_request_url: onPull ? `${this.base}/${this.owner}/${this.name}/pulls/${c.number}` : '',
      };
    }
    return { ...common, html_url: undefined, target: { issue: { number: String(c.number), title: parent?.title ?? '' } } };
  }

  #reviewJson(c: Comment): unknown {
    const pr = `${this.base}/${this.owner}/${this.name}/${this.shape === 'github' ? 'pull' : 'pulls'}/${c.number}`;
    return {
      id: c.id,
      body: c.body,
      user: this.#user(c.author),
      created_at: ts(c.createdAt, this.shape),
      updated_at: ts(c.updatedAt, this.shape),
      html_url: `${pr}#discussion_r${c.id}`,
      pull_request_url: this.shape === 'github' ? `${this.apiBase}/repos/${this.owner}/${this.name}/pulls/${c.number}` : pr,
      pull_request_review_id: c.reviewId,
      path: c.path,
      line: c.line,
      diff_hunk: '@@ -1 +1 @@',
    };
  }
}

/** A page of an answer that is not JSON at all: the page fails, nothing of it is stored. */
export const MALFORMED_JSON: Reply = { status: 200, body: '[{"id": 1, "number": ', headers: { 'content-type': 'application/json' } };
