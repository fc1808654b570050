import { createHash } from 'node:crypto';
import { readFileSync, realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import type { Params } from '../../core/api/index.js';
import { Core } from '../../core/core.js';
import { createRepositoryCache, openCacheForWrite, type RepositorySeed } from '../../core/maintenance/cache.js';
import { commentOf, itemOf, numberFromUrl, RawComment, RawItem } from '../../core/maintenance/forges/records.js';
import { CacheWriter } from '../../core/maintenance/lanes/store.js';
import type { TempHome } from './home.js';

/**
 * Filling a repository cache the way the sync lanes do, for retrieval tests: the fixture's GitHub
 * records go through the forge room's own parsers (`RawItem`, `RawComment`) and the lanes' own
 * `CacheWriter`, so items and comments carry their text, each keeps its `sources` row whose content
 * hash moves only with content, and a changed source loses its chunks for the RAG stage to cut again.
 */
export interface GitHubIssue {
  id: number;
  number: number;
  title: string;
  body: string | null;
  state: string;
  labels: Array<{ name: string }>;
  user: { login: string } | null;
  comments: number;
  created_at: string;
  updated_at: string;
  closed_at: string | null;
  html_url: string;
}

export interface GitHubComment {
  id: number;
  issue_url: string;
  body: string;
  user: { login: string } | null;
  created_at: string;
  updated_at: string;
  html_url: string;
}

export interface WikiPage {
  path: string;
  title: string;
  body: string;
  html_url: string;
}

export interface FixtureCorpus {
  repository: string;
  issues: GitHubIssue[];
  comments: GitHubComment[];
  wiki: WikiPage[];
}

export function loadFixtureCorpus(): FixtureCorpus {
  return JSON.parse(readFileSync(fileURLToPath(new URL('../fixtures/rag/corpus.json', import.meta.url)), 'utf8')) as FixtureCorpus;
}

/** A writer over one repository of a cache file: the sync lanes' CacheWriter on its own connection. */
export class CorpusWriter {
  readonly db: Database.Database;
  readonly repoId: string;
  readonly #writer: CacheWriter;

  constructor(file: string, repoId: string) {
    this.db = openCacheForWrite(realpathSync(file), 'pf_test');
    this.repoId = repoId;
    this.#writer = new CacheWriter(this.db, repoId, Date.now);
  }

  close(): void {
    this.db.close();
  }

  issue(issue: GitHubIssue): void {
    this.#writer.transaction(() => this.#writer.upsertItem(itemOf('issues', RawItem.parse(issue)), 'issues', 1));
  }

  comment(comment: GitHubComment): void {
    const raw = RawComment.parse(comment);
    this.#writer.transaction(() => this.#writer.upsertComment(commentOf(raw, 'issue-comments', numberFromUrl(raw.issue_url)!), 'issue-comments', 1));
  }

  wiki(page: WikiPage): void {
    const revision = createHash('sha1').update(page.body).digest('hex');
    this.#writer.transaction(() => this.#writer.upsertPage('wiki', page.path, revision, { title: page.title, body: page.body, url: page.html_url, updatedAt: null }, 'wiki', 1));
  }

  /** A deletion a completed sweep confirmed: the item is kept and marked, its content leaves `sources`. */
  tombstoneIssue(issue: GitHubIssue): void {
    this.#writer.transaction(() => this.#writer.tombstone('items', 'issues', String(issue.id), 'deleted'));
  }

  seed(corpus: FixtureCorpus): void {
    for (const issue of corpus.issues) this.issue(issue);
    for (const comment of corpus.comments) this.comment(comment);
    for (const page of corpus.wiki) this.wiki(page);
  }

  generation(): number {
    return this.db.prepare('SELECT content_generation FROM repositories WHERE repo_id = ?').pluck().get(this.repoId) as number;
  }
}

/** Labels of the fixture's documents by forge URL: issue:N, comment:N#K (K-th comment of issue N), wiki:PATH. */
export function labelsByUrl(corpus: FixtureCorpus): Map<string, string> {
  const labels = new Map<string, string>();
  for (const issue of corpus.issues) labels.set(issue.html_url, `issue:${issue.number}`);
  const seen = new Map<number, number>();
  for (const comment of corpus.comments) {
    const n = Number(comment.issue_url.split('/').pop());
    seen.set(n, (seen.get(n) ?? 0) + 1);
    labels.set(comment.html_url, `comment:${n}#${seen.get(n)}`);
  }
  for (const page of corpus.wiki) labels.set(page.html_url, `wiki:${page.path}`);
  return labels;
}

/** A repository a test maintains: its cache's binding, what the cache holds, and how it is enrolled. */
export interface SeededRepository extends RepositorySeed {
  /** The name it is enrolled under (OWNER/NAME or HOST/OWNER/NAME), resolved through the binding. */
  repo: string;
  policy: Params<'Maintenance.Enroll'>['policy'];
  /** What its cache holds, written as the sync lanes write it; none: an empty cache. */
  corpus?: FixtureCorpus;
}

/**
 * Creates each repository's cache in `caches` (one file per repository), seeds it, and enrolls it on a
 * Core opened on `home`; `then` runs on that Core before it shuts (a first maintenance pass, say).
 * Returns each registration id by repoId.
 */
export async function seedAndEnroll(
  home: TempHome,
  caches: string,
  repositories: readonly SeededRepository[],
  then?: (core: Core) => Promise<unknown>,
): Promise<Record<string, string>> {
  const registrations: Record<string, string> = {};
  const core = Core.open({ home: { dir: home.dir, kind: 'env' }, env: home.env });
  try {
    for (const { repo, policy, corpus, ...seed } of repositories) {
      const name = seed.repoId.replaceAll('/', '_');
      const cache = join(caches, `${name}.db`);
      createRepositoryCache(cache, [seed]);
      if (corpus) {
        const writer = new CorpusWriter(cache, seed.repoId);
        writer.seed(corpus);
        writer.close();
      }
      const enrolled = await core.call('Maintenance.Enroll', { cachePath: cache, repo, policy, idempotencyKey: `seed-${name}` });
      registrations[seed.repoId] = enrolled.registrationId;
    }
    await then?.(core);
  } finally {
    await core.shutdown();
  }
  return registrations;
}
