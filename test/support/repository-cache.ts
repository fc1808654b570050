import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';

/**
 * Filling a repository cache the way the sync lanes do, for retrieval tests: items and comments
 * carry the forge's text and metadata, and each keeps one `sources` row whose content hash moves
 * only with content (the generation triggers see only real changes); a changed source loses its
 * chunks, which the RAG stage cuts again.
 *
 * The items/comments tables are the sync half's (schema 18, Maintain II). Until that migration is on
 * this branch, a cache created at 17 gets the same columns here; once `createRepositoryCache` makes
 * them itself, `ensureItemTables` leaves them alone.
 */
const ITEM_TABLES = `
CREATE TABLE IF NOT EXISTS items (
  item_id INTEGER PRIMARY KEY,
  repo_id TEXT NOT NULL REFERENCES repositories(repo_id) ON DELETE CASCADE,
  collection TEXT NOT NULL,
  external_id TEXT NOT NULL,
  number INTEGER,
  title TEXT NOT NULL DEFAULT '',
  body TEXT NOT NULL DEFAULT '',
  state TEXT,
  author TEXT,
  labels TEXT NOT NULL DEFAULT '[]',
  url TEXT,
  created_at INTEGER,
  updated_at INTEGER,
  closed_at INTEGER,
  comment_count INTEGER,
  revision TEXT NOT NULL,
  children_revision TEXT,
  stream TEXT NOT NULL,
  last_seen_sweep INTEGER NOT NULL DEFAULT 0,
  tombstoned_at INTEGER,
  tombstone_reason TEXT,
  UNIQUE (repo_id, collection, external_id)
);
CREATE TABLE IF NOT EXISTS comments (
  comment_id INTEGER PRIMARY KEY,
  repo_id TEXT NOT NULL REFERENCES repositories(repo_id) ON DELETE CASCADE,
  collection TEXT NOT NULL,
  external_id TEXT NOT NULL,
  item_number INTEGER NOT NULL,
  body TEXT NOT NULL DEFAULT '',
  author TEXT,
  url TEXT,
  created_at INTEGER,
  updated_at INTEGER,
  path TEXT,
  line INTEGER,
  review_id TEXT,
  in_reply_to TEXT,
  revision TEXT NOT NULL,
  stream TEXT NOT NULL,
  last_seen_sweep INTEGER NOT NULL DEFAULT 0,
  tombstoned_at INTEGER,
  tombstone_reason TEXT,
  UNIQUE (repo_id, collection, external_id)
);`;

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

const hash = (value: unknown) => createHash('sha256').update(JSON.stringify(value)).digest('hex');
const ms = (iso: string | null) => (iso ? Date.parse(iso) : null);

/** A writer over one repository of a cache file, shaped like the sync lanes' CacheWriter. */
export class CorpusWriter {
  readonly db: Database.Database;
  readonly repoId: string;

  constructor(file: string, repoId: string) {
    this.db = new Database(file);
    this.db.pragma('foreign_keys = ON');
    this.db.pragma('busy_timeout = 5000');
    this.db.exec(ITEM_TABLES);
    this.repoId = repoId;
  }

  close(): void {
    this.db.close();
  }

  #source(kind: string, externalId: string, contentHash: string, updatedAt: number | null): void {
    const old = this.db.prepare('SELECT source_id, content_hash FROM sources WHERE repo_id = ? AND kind = ? AND external_id = ?').get(this.repoId, kind, externalId) as
      | { source_id: number; content_hash: string }
      | undefined;
    if (old && old.content_hash === contentHash) return;
    if (old) {
      this.db.prepare('DELETE FROM chunks WHERE source_id = ?').run(old.source_id);
      this.db.prepare('UPDATE sources SET content_hash = ?, updated_at = ? WHERE source_id = ?').run(contentHash, updatedAt ?? Date.now(), old.source_id);
      return;
    }
    this.db.prepare('INSERT INTO sources (repo_id, kind, external_id, content_hash, updated_at) VALUES (?, ?, ?, ?, ?)').run(this.repoId, kind, externalId, contentHash, updatedAt ?? Date.now());
  }

  #item(collection: string, externalId: string, fields: { number: number | null; title: string; body: string; state: string | null; author: string | null; labels: string[]; url: string | null; createdAt: number | null; updatedAt: number | null; closedAt: number | null }): void {
    const revision = hash(fields);
    this.db
      .prepare(
        `INSERT INTO items (repo_id, collection, external_id, number, title, body, state, author, labels, url, created_at, updated_at, closed_at, revision, stream)
         VALUES (@repo, @collection, @external_id, @number, @title, @body, @state, @author, @labels, @url, @created_at, @updated_at, @closed_at, @revision, @collection)
         ON CONFLICT (repo_id, collection, external_id) DO UPDATE SET number = excluded.number, title = excluded.title, body = excluded.body, state = excluded.state,
           author = excluded.author, labels = excluded.labels, url = excluded.url, updated_at = excluded.updated_at, closed_at = excluded.closed_at,
           revision = excluded.revision, tombstoned_at = NULL`,
      )
      .run({
        repo: this.repoId,
        collection,
        external_id: externalId,
        number: fields.number,
        title: fields.title,
        body: fields.body,
        state: fields.state,
        author: fields.author,
        labels: JSON.stringify(fields.labels),
        url: fields.url,
        created_at: fields.createdAt,
        updated_at: fields.updatedAt,
        closed_at: fields.closedAt,
        revision,
      });
    this.#source(collection, externalId, hash([fields.title, fields.body, fields.state, fields.labels]), fields.updatedAt);
  }

  issue(issue: GitHubIssue): void {
    this.db.transaction(() =>
      this.#item('issues', String(issue.id), {
        number: issue.number,
        title: issue.title,
        body: issue.body ?? '',
        state: issue.state,
        author: issue.user?.login ?? null,
        labels: issue.labels.map((l) => l.name),
        url: issue.html_url,
        createdAt: ms(issue.created_at),
        updatedAt: ms(issue.updated_at),
        closedAt: ms(issue.closed_at),
      }),
    )();
  }

  wiki(page: WikiPage): void {
    this.db.transaction(() =>
      this.#item('wiki', page.path, { number: null, title: page.title, body: page.body, state: null, author: null, labels: [], url: page.html_url, createdAt: null, updatedAt: null, closedAt: null }),
    )();
  }

  comment(comment: GitHubComment): void {
    const itemNumber = Number(comment.issue_url.split('/').pop());
    this.db.transaction(() => {
      this.db
        .prepare(
          `INSERT INTO comments (repo_id, collection, external_id, item_number, body, author, url, created_at, updated_at, revision, stream)
           VALUES (?, 'issue-comments', ?, ?, ?, ?, ?, ?, ?, ?, 'issue-comments')
           ON CONFLICT (repo_id, collection, external_id) DO UPDATE SET body = excluded.body, updated_at = excluded.updated_at, revision = excluded.revision, tombstoned_at = NULL`,
        )
        .run(this.repoId, String(comment.id), itemNumber, comment.body, comment.user?.login ?? null, comment.html_url, ms(comment.created_at), ms(comment.updated_at), hash(comment));
      this.#source('issue-comments', String(comment.id), hash([comment.body]), ms(comment.updated_at));
    })();
  }

  /** A deletion seen by a completed sweep: the item is kept and marked, its content leaves `sources`. */
  tombstoneIssue(issue: GitHubIssue): void {
    this.db.transaction(() => {
      this.db.prepare("UPDATE items SET tombstoned_at = ?, tombstone_reason = 'deleted' WHERE repo_id = ? AND collection = 'issues' AND external_id = ?").run(Date.now(), this.repoId, String(issue.id));
      this.db.prepare("DELETE FROM sources WHERE repo_id = ? AND kind = 'issues' AND external_id = ?").run(this.repoId, String(issue.id));
    })();
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
