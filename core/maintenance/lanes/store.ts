import { createHash } from 'node:crypto';
import type Database from 'better-sqlite3';
import type { CommentRecord, ItemRecord, TreePage } from '../forges/index.js';

export type Lane = 'head' | 'tail';

/** One row of `sync_frontiers`: a collection's checkpoint in one lane. */
export interface Frontier {
  collection: string;
  lane: Lane;
  /** Tail: the page the next window starts at (overlapping the last one). Head: a continuation page. */
  nextPage: number | null;
  /** Head: the inclusive updated-at watermark proven by the last complete pass. */
  watermark: number | null;
  complete: boolean;
  etag: string | null;
  freshAt: number | null;
  pendingWatermark: number | null;
  pendingFreshAt: number | null;
  pagesDone: number;
  pagesKnown: number | null;
  sweep: number;
  /** A completed full pass whose absences still await a direct check before they are tombstoned. */
  verifySweep: number | null;
  verifiedAt: number | null;
  /** Trees: the version a walk is reading. */
  cursor: string | null;
  /** Trees: the last path covered, in path order (the walker's logical offset). */
  position: string | null;
  skipped: number;
}

type Row = Record<string, unknown>;

const n = (v: unknown): number | null => (typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : null);
const s = (v: unknown): string | null => (typeof v === 'string' ? v : null);

function frontierOf(row: Row | undefined, collection: string, lane: Lane): Frontier {
  return {
    collection,
    lane,
    nextPage: row ? n(row['next_page']) : lane === 'tail' ? 1 : null,
    watermark: row ? n(row['watermark']) : null,
    complete: row ? row['complete'] === 1 : false,
    etag: row ? s(row['etag']) : null,
    freshAt: row ? n(row['fresh_at']) : null,
    pendingWatermark: row ? n(row['pending_watermark']) : null,
    pendingFreshAt: row ? n(row['pending_fresh_at']) : null,
    pagesDone: row ? (n(row['pages_done']) ?? 0) : 0,
    pagesKnown: row ? n(row['pages_known']) : null,
    sweep: row ? (n(row['sweep']) ?? 1) : 1,
    verifySweep: row ? n(row['verify_sweep']) : null,
    verifiedAt: row ? n(row['verified_at']) : null,
    cursor: row ? s(row['cursor']) : null,
    position: row ? s(row['position']) : null,
    skipped: row ? (n(row['skipped']) ?? 0) : 0,
  };
}

export const hashOf = (value: unknown): string => createHash('sha256').update(JSON.stringify(value)).digest('hex');

export type Upserted = 'inserted' | 'updated' | 'unchanged';

export interface CollectionCounts {
  items: number;
  tombstones: number;
}

/**
 * Every SQL statement of the sync lanes over one repository of one cache. Items and comments are
 * upserted by revision (overlap replay is a no-op); each also keeps its `sources` row, whose
 * content hash moves only with content, so the generation triggers see only real changes.
 */
export class CacheWriter {
  readonly db: Database.Database;
  readonly repoId: string;
  readonly #now: () => number;
  readonly #st: ReturnType<typeof prepare>;

  constructor(db: Database.Database, repoId: string, now: () => number) {
    this.db = db;
    this.repoId = repoId;
    this.#now = now;
    this.#st = prepare(db);
  }

  transaction<T>(work: () => T): T {
    return this.db.transaction(work)();
  }

  /**
   * One transaction over several steps, yielding to the event loop between them: a window of many
   * pages commits with its checkpoint atomically without holding the loop for the whole window.
   * The job's writer admission keeps every other writer of this cache away meanwhile.
   */
  async transactionInSteps(steps: ReadonlyArray<() => void>): Promise<void> {
    this.db.exec('BEGIN IMMEDIATE');
    try {
      for (const [i, step] of steps.entries()) {
        step();
        if (i < steps.length - 1) await new Promise<void>((resolve) => setImmediate(resolve));
      }
      this.db.exec('COMMIT');
    } catch (error) {
      if (this.db.inTransaction) this.db.exec('ROLLBACK');
      throw error;
    }
  }

  frontier(collection: string, lane: Lane): Frontier {
    return frontierOf(this.#st.frontier.get(this.repoId, collection, lane) as Row | undefined, collection, lane);
  }

  saveFrontier(f: Frontier): void {
    this.#st.saveFrontier.run({
      repo: this.repoId,
      collection: f.collection,
      lane: f.lane,
      next_page: f.nextPage,
      watermark: f.watermark,
      complete: f.complete ? 1 : 0,
      etag: f.etag,
      fresh_at: f.freshAt,
      pending_watermark: f.pendingWatermark,
      pending_fresh_at: f.pendingFreshAt,
      pages_done: f.pagesDone,
      pages_known: f.pagesKnown,
      sweep: f.sweep,
      verify_sweep: f.verifySweep,
      verified_at: f.verifiedAt,
      cursor: f.cursor,
      position: f.position,
      skipped: f.skipped,
    });
  }

  #source(kind: string, externalId: string, contentHash: string, updatedAt: number | null): void {
    const old = this.#st.source.get(this.repoId, kind, externalId) as { source_id: number; content_hash: string } | undefined;
    if (old && old.content_hash === contentHash) {
      this.#st.touchSource.run(updatedAt ?? this.#now(), old.source_id);
      return;
    }
    if (old) {
      // Stale chunks go with the old content; the RAG stage chunks the new content again.
      this.#st.dropChunks.run(old.source_id);
      this.#st.updateSource.run(contentHash, updatedAt ?? this.#now(), old.source_id);
      return;
    }
    this.#st.insertSource.run(this.repoId, kind, externalId, contentHash, updatedAt ?? this.#now());
  }

  upsertItem(r: ItemRecord, stream: string, sweep: number): Upserted {
    const revision = hashOf([r.title, r.body, r.state, r.author, r.labels, r.url, r.createdAt, r.updatedAt, r.closedAt, r.commentCount, r.number]);
    return this.#upsertItemRow(r.collection, r.externalId, revision, stream, sweep, {
      number: r.number,
      title: r.title,
      body: r.body,
      state: r.state,
      author: r.author,
      labels: JSON.stringify(r.labels),
      url: r.url,
      created_at: r.createdAt,
      updated_at: r.updatedAt,
      closed_at: r.closedAt,
      comment_count: r.commentCount,
      content: hashOf([r.title, r.body, r.state, r.labels]),
    });
  }

  upsertPage(collection: 'wiki' | 'documents', externalId: string, revision: string, page: TreePage, stream: string, sweep: number): Upserted {
    return this.#upsertItemRow(collection, externalId, revision, stream, sweep, {
      number: null,
      title: page.title,
      body: page.body,
      state: null,
      author: null,
      labels: '[]',
      url: page.url,
      created_at: null,
      updated_at: page.updatedAt,
      closed_at: null,
      comment_count: null,
      content: hashOf([page.title, page.body]),
    });
  }

  #upsertItemRow(collection: string, externalId: string, revision: string, stream: string, sweep: number, fields: Record<string, string | number | null>): Upserted {
    const old = this.#st.item.get(this.repoId, collection, externalId) as { revision: string; tombstoned_at: number | null; last_seen_sweep: number } | undefined;
    if (old && old.revision === revision && old.tombstoned_at === null) {
      if (old.last_seen_sweep < sweep) this.#st.seeItem.run(sweep, this.repoId, collection, externalId);
      return 'unchanged';
    }
    const { content, ...row } = fields;
    this.#st.upsertItem.run({ ...row, repo: this.repoId, collection, external_id: externalId, revision, stream, sweep });
    this.#source(collection, externalId, content as string, fields['updated_at'] as number | null);
    return old ? 'updated' : 'inserted';
  }

  upsertComment(r: CommentRecord, stream: string, sweep: number): Upserted {
    const revision = hashOf([r.body, r.author, r.url, r.createdAt, r.updatedAt, r.path, r.line, r.reviewId, r.inReplyTo, r.itemNumber]);
    const old = this.#st.comment.get(this.repoId, r.collection, r.externalId) as { revision: string; tombstoned_at: number | null; last_seen_sweep: number } | undefined;
    if (old && old.revision === revision && old.tombstoned_at === null) {
      if (old.last_seen_sweep < sweep) this.#st.seeComment.run(sweep, this.repoId, r.collection, r.externalId);
      return 'unchanged';
    }
    this.#st.upsertComment.run({
      repo: this.repoId,
      collection: r.collection,
      external_id: r.externalId,
      item_number: r.itemNumber,
      body: r.body,
      author: r.author,
      url: r.url,
      created_at: r.createdAt,
      updated_at: r.updatedAt,
      path: r.path,
      line: r.line,
      review_id: r.reviewId,
      in_reply_to: r.inReplyTo,
      revision,
      stream,
      sweep,
    });
    this.#source(r.collection, r.externalId, hashOf([r.body]), r.updatedAt);
    return old ? 'updated' : 'inserted';
  }

  /** Kept and marked, never deleted; its content leaves `sources`, so the generation moves. */
  tombstone(table: 'items' | 'comments', collection: string, externalId: string, reason: string): void {
    const changed = (table === 'items' ? this.#st.tombItem : this.#st.tombComment).run(this.#now(), reason, this.repoId, collection, externalId).changes;
    if (changed > 0) this.#st.dropSource.run(this.repoId, collection, externalId);
  }

  /** Live rows of one stream not seen in `sweep`: the absences a completed full pass must check. */
  absentees(stream: string, sweep: number, limit: number): Array<{ table: 'items' | 'comments'; collection: string; externalId: string; number: number | null }> {
    const items = this.#st.absentItems.all(this.repoId, stream, sweep, limit) as Array<{ collection: string; external_id: string; number: number | null }>;
    const comments = this.#st.absentComments.all(this.repoId, stream, sweep, limit) as Array<{ collection: string; external_id: string }>;
    return [
      ...items.map((r) => ({ table: 'items' as const, collection: r.collection, externalId: r.external_id, number: r.number })),
      ...comments.map((r) => ({ table: 'comments' as const, collection: r.collection, externalId: r.external_id, number: null })),
    ].slice(0, limit);
  }

  markSeen(table: 'items' | 'comments', collection: string, externalId: string, sweep: number): void {
    (table === 'items' ? this.#st.seeItem : this.#st.seeComment).run(sweep, this.repoId, collection, externalId);
  }

  liveComments(collection: string, number: number, stream?: string): Array<{ externalId: string }> {
    const rows = this.#st.liveComments.all(this.repoId, collection, number) as Array<{ external_id: string; stream: string }>;
    return rows.filter((r) => stream === undefined || r.stream === stream).map((r) => ({ externalId: r.external_id }));
  }

  enqueue(collection: string, number: number): void {
    this.#st.enqueue.run(this.repoId, collection, number, this.#now());
  }

  pending(collection: string, limit: number): number[] {
    return (this.#st.pending.all(this.repoId, collection, limit) as Array<{ item_number: number }>).map((r) => r.item_number);
  }

  pendingCount(collection: string): number {
    return (this.#st.pendingCount.get(this.repoId, collection) as { c: number }).c;
  }

  dequeue(collection: string, number: number): void {
    this.#st.dequeue.run(this.repoId, collection, number);
  }

  /** Cached pull requests after `afterNumber`, in number order: the stable windows of PR children. */
  pullsAfter(afterNumber: number, limit: number): Array<{ number: number; revision: string }> {
    return this.#st.pullsAfter.all(this.repoId, afterNumber, limit) as Array<{ number: number; revision: string }>;
  }

  /** Pull requests up to `maxNumber` whose comments were never read, or whose revision moved since. */
  pullsChanged(maxNumber: number, limit: number): Array<{ number: number; revision: string }> {
    return this.#st.pullsChanged.all(this.repoId, maxNumber, limit) as Array<{ number: number; revision: string }>;
  }

  setChildrenRevision(collection: string, number: number, revision: string): void {
    this.#st.childrenRevision.run(revision, this.repoId, collection, number);
  }

  itemNumbers(collection: string): Set<number> {
    return new Set((this.#st.numbers.all(this.repoId, collection) as Array<{ number: number }>).map((r) => r.number));
  }

  pageRevisions(collection: string, prefix: string): Map<string, string> {
    const rows = this.#st.pageRevisions.all(this.repoId, collection, prefix.length, prefix) as Array<{ external_id: string; revision: string }>;
    return new Map(rows.map((r) => [r.external_id, r.revision]));
  }

  counts(): Map<string, CollectionCounts> {
    const out = new Map<string, CollectionCounts>();
    for (const row of [...this.#st.itemCounts.all(this.repoId), ...this.#st.commentCounts.all(this.repoId)] as Array<{ collection: string; live: number; dead: number }>) {
      out.set(row.collection, { items: row.live, tombstones: row.dead });
    }
    return out;
  }
}

function prepare(db: Database.Database) {
  return {
    frontier: db.prepare('SELECT * FROM sync_frontiers WHERE repo_id = ? AND collection = ? AND lane = ?'),
    saveFrontier: db.prepare(
      `INSERT INTO sync_frontiers (repo_id, collection, lane, next_page, watermark, complete, etag, fresh_at, pending_watermark, pending_fresh_at,
         pages_done, pages_known, sweep, verify_sweep, verified_at, cursor, position, skipped)
       VALUES (@repo, @collection, @lane, @next_page, @watermark, @complete, @etag, @fresh_at, @pending_watermark, @pending_fresh_at,
         @pages_done, @pages_known, @sweep, @verify_sweep, @verified_at, @cursor, @position, @skipped)
       ON CONFLICT (repo_id, collection, lane) DO UPDATE SET next_page = excluded.next_page, watermark = excluded.watermark,
         complete = excluded.complete, etag = excluded.etag, fresh_at = excluded.fresh_at, pending_watermark = excluded.pending_watermark,
         pending_fresh_at = excluded.pending_fresh_at, pages_done = excluded.pages_done, pages_known = excluded.pages_known,
         sweep = excluded.sweep, verify_sweep = excluded.verify_sweep, verified_at = excluded.verified_at, cursor = excluded.cursor,
         position = excluded.position, skipped = excluded.skipped`,
    ),
    source: db.prepare('SELECT source_id, content_hash FROM sources WHERE repo_id = ? AND kind = ? AND external_id = ?'),
    touchSource: db.prepare('UPDATE sources SET updated_at = ? WHERE source_id = ?'),
    updateSource: db.prepare('UPDATE sources SET content_hash = ?, updated_at = ? WHERE source_id = ?'),
    insertSource: db.prepare('INSERT INTO sources (repo_id, kind, external_id, content_hash, updated_at) VALUES (?, ?, ?, ?, ?)'),
    dropChunks: db.prepare('DELETE FROM chunks WHERE source_id = ?'),
    dropSource: db.prepare('DELETE FROM sources WHERE repo_id = ? AND kind = ? AND external_id = ?'),
    item: db.prepare('SELECT revision, tombstoned_at, last_seen_sweep FROM items WHERE repo_id = ? AND collection = ? AND external_id = ?'),
    seeItem: db.prepare('UPDATE items SET last_seen_sweep = ? WHERE repo_id = ? AND collection = ? AND external_id = ?'),
    upsertItem: db.prepare(
      `INSERT INTO items (repo_id, collection, external_id, number, title, body, state, author, labels, url, created_at, updated_at, closed_at,
         comment_count, revision, stream, last_seen_sweep)
       VALUES (@repo, @collection, @external_id, @number, @title, @body, @state, @author, @labels, @url, @created_at, @updated_at, @closed_at,
         @comment_count, @revision, @stream, @sweep)
       ON CONFLICT (repo_id, collection, external_id) DO UPDATE SET number = excluded.number, title = excluded.title, body = excluded.body,
         state = excluded.state, author = excluded.author, labels = excluded.labels, url = excluded.url, created_at = excluded.created_at,
         updated_at = excluded.updated_at, closed_at = excluded.closed_at, comment_count = excluded.comment_count, revision = excluded.revision,
         stream = excluded.stream, last_seen_sweep = MAX(items.last_seen_sweep, excluded.last_seen_sweep), tombstoned_at = NULL, tombstone_reason = NULL`,
    ),
    comment: db.prepare('SELECT revision, tombstoned_at, last_seen_sweep FROM comments WHERE repo_id = ? AND collection = ? AND external_id = ?'),
    seeComment: db.prepare('UPDATE comments SET last_seen_sweep = ? WHERE repo_id = ? AND collection = ? AND external_id = ?'),
    upsertComment: db.prepare(
      `INSERT INTO comments (repo_id, collection, external_id, item_number, body, author, url, created_at, updated_at, path, line, review_id,
         in_reply_to, revision, stream, last_seen_sweep)
       VALUES (@repo, @collection, @external_id, @item_number, @body, @author, @url, @created_at, @updated_at, @path, @line, @review_id,
         @in_reply_to, @revision, @stream, @sweep)
       ON CONFLICT (repo_id, collection, external_id) DO UPDATE SET item_number = excluded.item_number, body = excluded.body,
         author = excluded.author, url = excluded.url, created_at = excluded.created_at, updated_at = excluded.updated_at, path = excluded.path,
         line = excluded.line, review_id = excluded.review_id, in_reply_to = excluded.in_reply_to, revision = excluded.revision,
         stream = excluded.stream, last_seen_sweep = MAX(comments.last_seen_sweep, excluded.last_seen_sweep), tombstoned_at = NULL, tombstone_reason = NULL`,
    ),
    tombItem: db.prepare('UPDATE items SET tombstoned_at = ?, tombstone_reason = ? WHERE repo_id = ? AND collection = ? AND external_id = ? AND tombstoned_at IS NULL'),
    tombComment: db.prepare('UPDATE comments SET tombstoned_at = ?, tombstone_reason = ? WHERE repo_id = ? AND collection = ? AND external_id = ? AND tombstoned_at IS NULL'),
    absentItems: db.prepare(
      'SELECT collection, external_id, number FROM items WHERE repo_id = ? AND stream = ? AND last_seen_sweep < ? AND tombstoned_at IS NULL ORDER BY item_id LIMIT ?',
    ),
    absentComments: db.prepare(
      'SELECT collection, external_id FROM comments WHERE repo_id = ? AND stream = ? AND last_seen_sweep < ? AND tombstoned_at IS NULL ORDER BY comment_id LIMIT ?',
    ),
    liveComments: db.prepare('SELECT external_id, stream FROM comments WHERE repo_id = ? AND collection = ? AND item_number = ? AND tombstoned_at IS NULL'),
    enqueue: db.prepare('INSERT OR IGNORE INTO pending_children (repo_id, collection, item_number, enqueued_at) VALUES (?, ?, ?, ?)'),
    pending: db.prepare('SELECT item_number FROM pending_children WHERE repo_id = ? AND collection = ? ORDER BY enqueued_at, item_number LIMIT ?'),
    pendingCount: db.prepare('SELECT COUNT(*) AS c FROM pending_children WHERE repo_id = ? AND collection = ?'),
    dequeue: db.prepare('DELETE FROM pending_children WHERE repo_id = ? AND collection = ? AND item_number = ?'),
    pullsAfter: db.prepare(
      "SELECT number, revision FROM items WHERE repo_id = ? AND collection = 'pulls' AND tombstoned_at IS NULL AND number > ? ORDER BY number LIMIT ?",
    ),
    pullsChanged: db.prepare(
      `SELECT number, revision FROM items WHERE repo_id = ? AND collection = 'pulls' AND tombstoned_at IS NULL
         AND number <= ? AND children_revision IS NOT revision ORDER BY number LIMIT ?`,
    ),
    childrenRevision: db.prepare('UPDATE items SET children_revision = ? WHERE repo_id = ? AND collection = ? AND number = ?'),
    numbers: db.prepare('SELECT number FROM items WHERE repo_id = ? AND collection = ? AND number IS NOT NULL'),
    pageRevisions: db.prepare('SELECT external_id, revision FROM items WHERE repo_id = ? AND collection = ? AND substr(external_id, 1, ?) = ? AND tombstoned_at IS NULL'),
    itemCounts: db.prepare(
      'SELECT collection, SUM(tombstoned_at IS NULL) AS live, SUM(tombstoned_at IS NOT NULL) AS dead FROM items WHERE repo_id = ? GROUP BY collection',
    ),
    commentCounts: db.prepare(
      'SELECT collection, SUM(tombstoned_at IS NULL) AS live, SUM(tombstoned_at IS NOT NULL) AS dead FROM comments WHERE repo_id = ? GROUP BY collection',
    ),
  };
}
