import type Database from 'better-sqlite3';
import type { ChunkSource } from './chunking.js';

/**
 * What retrieval reads of the cache's content: the text of each source and what a hit shows. The
 * sync lanes keep one `sources` row per item or comment (its `kind` is the collection, its
 * `external_id` the record's); the text and metadata live in `items` and `comments` (schema 18).
 * A cache without those tables (schema 17) has sources but no text to index.
 */
export interface DocumentMeta {
  collection: string;
  number: number | null;
  title: string;
  url: string | null;
  state: string | null;
  author: string | null;
  labels: string[];
  updatedAt: number | null;
  /** A document's path within its source, or a review comment's file (see `RepositoryHit.path`). */
  path?: string | null;
}

export interface SourceDocument extends ChunkSource {
  meta: DocumentMeta;
}

export interface SourceRef {
  sourceId: number;
  kind: string;
  externalId: string;
}

const COMMENT_PARENT: Record<string, string> = { 'issue-comments': 'issues', 'pr-comments': 'pulls' };

function labelsOf(raw: unknown): string[] {
  if (typeof raw !== 'string') return [];
  try {
    const parsed: unknown = JSON.parse(raw);
    return Array.isArray(parsed) ? parsed.filter((l): l is string => typeof l === 'string') : [];
  } catch {
    return [];
  }
}

/** Only web links reach a hit: a local document's location is a path, and paths never leave. */
function webUrl(raw: unknown): string | null {
  return typeof raw === 'string' && /^https?:\/\//i.test(raw) ? raw : null;
}

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** Only a relative path reaches a hit: one that names a local location is dropped. */
function relativePath(raw: string | null): string | null {
  if (!raw || raw.startsWith('/') || raw.startsWith('\\') || /^[A-Za-z]:/.test(raw) || raw.split(/[\\/]/).includes('..')) return null;
  return raw;
}

/** A document's external id is `<source id>:<path within the source>`. */
const documentPath = (externalId: string): string | null => relativePath(externalId.includes(':') ? externalId.slice(externalId.indexOf(':') + 1) : null);
const num = (v: unknown): number | null => (typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : null);

type Row = Record<string, unknown>;

export class Corpus {
  readonly available: boolean;
  readonly #item: Database.Statement | null = null;
  readonly #comment: Database.Statement | null = null;
  readonly #parent: Database.Statement | null = null;

  constructor(db: Database.Database) {
    const tables = new Set((db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ('items', 'comments')").all() as Array<{ name: string }>).map((r) => r.name));
    this.available = tables.has('items') && tables.has('comments');
    if (!this.available) return;
    this.#item = db.prepare(
      'SELECT collection, number, title, body, state, author, labels, url, updated_at FROM items WHERE repo_id = ? AND collection = ? AND external_id = ? AND tombstoned_at IS NULL',
    );
    this.#comment = db.prepare(
      'SELECT collection, item_number, body, author, url, updated_at, path, line FROM comments WHERE repo_id = ? AND collection = ? AND external_id = ? AND tombstoned_at IS NULL',
    );
    this.#parent = db.prepare('SELECT title, state, labels FROM items WHERE repo_id = ? AND collection = ? AND number = ? ORDER BY tombstoned_at IS NOT NULL LIMIT 1');
  }

  /** The source's text and metadata, or null when the cache holds no live record for it. */
  document(repoId: string, ref: SourceRef): SourceDocument | null {
    if (!this.available) return null;
    if (COMMENT_PARENT[ref.kind]) return this.#commentDocument(repoId, ref);
    const row = this.#item!.get(repoId, ref.kind, ref.externalId) as Row | undefined;
    if (!row) return null;
    const meta: DocumentMeta = {
      collection: ref.kind,
      number: num(row['number']),
      title: str(row['title']) ?? '',
      url: webUrl(row['url']),
      state: str(row['state']),
      author: str(row['author']),
      labels: labelsOf(row['labels']),
      updatedAt: num(row['updated_at']),
      path: ref.kind === 'documents' ? documentPath(ref.externalId) : null,
    };
    const labels = meta.labels.length > 0 ? `\n\nLabels: ${meta.labels.join(', ')}` : '';
    return { title: meta.title || ref.externalId, body: `${str(row['body']) ?? ''}${labels}`, meta };
  }

  #commentDocument(repoId: string, ref: SourceRef): SourceDocument | null {
    const row = this.#comment!.get(repoId, ref.kind, ref.externalId) as Row | undefined;
    if (!row) return null;
    const number = num(row['item_number']);
    const parent = number === null ? undefined : (this.#parent!.get(repoId, COMMENT_PARENT[ref.kind], number) as Row | undefined);
    const title = str(parent?.['title']) ?? (number === null ? 'Comment' : `#${number}`);
    const path = str(row['path']);
    const where = path ? ` on ${path}${num(row['line']) !== null ? `:${num(row['line'])}` : ''}` : '';
    return {
      title,
      context: number === null ? `Comment${where}` : `Comment on #${number}${where}`,
      body: str(row['body']) ?? '',
      meta: {
        collection: ref.kind,
        number,
        title,
        url: webUrl(row['url']),
        state: str(parent?.['state']),
        author: str(row['author']),
        labels: labelsOf(parent?.['labels']),
        updatedAt: num(row['updated_at']),
        path: relativePath(path),
      },
    };
  }
}
