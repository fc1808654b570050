import type { ForgeKind } from '../../api/index.js';

/** The forge kinds Steward syncs from (the contract's word list); each sits behind the one Forge interface below. */
export { FORGE_KINDS, type ForgeKind } from '../../api/index.js';

/**
 * A repo-wide paginated listing. `review-comments` is GitHub's repo-wide PR review-comment list;
 * forges without one fetch review comments per cached pull request instead.
 */
export type Stream = 'issues' | 'pulls' | 'issue-comments' | 'review-comments';

export interface ItemRecord {
  type: 'item';
  collection: 'issues' | 'pulls';
  externalId: string;
  number: number;
  title: string;
  body: string;
  state: string;
  author: string | null;
  labels: string[];
  url: string | null;
  createdAt: number | null;
  updatedAt: number | null;
  closedAt: number | null;
  /** The forge's own count of conversation comments, when it reports one. */
  commentCount: number | null;
}

export interface CommentRecord {
  type: 'comment';
  /** Conversation comments on a pull request belong to `pr-comments`, not `issue-comments`. */
  collection: 'issue-comments' | 'pr-comments';
  externalId: string;
  itemNumber: number;
  body: string;
  author: string | null;
  url: string | null;
  createdAt: number | null;
  updatedAt: number | null;
  path: string | null;
  line: number | null;
  reviewId: string | null;
  inReplyTo: string | null;
}

export type StreamRecord = ItemRecord | CommentRecord;

/** `stable`: an order that edits do not move (created); `recent`: most recently updated first. */
export type Order = 'stable' | 'recent';

export interface ListRequest {
  stream: Stream;
  order: Order;
  page: number;
  /** Only records updated at or after this time (epoch ms), where the forge can filter. */
  since?: number;
  etag?: string | null;
}

export type ListResult =
  | { notModified: true; serverDate: number | null }
  | {
      notModified: false;
      records: StreamRecord[];
      /** Malformed entries: counted and skipped, never the page. */
      skipped: number;
      /** How many raw entries the page carried (a page of the issues list also carries pull requests). */
      raw: number;
      etag: string | null;
      hasNext: boolean;
      lastPage: number | null;
      serverDate: number | null;
    };

export interface StreamTraits {
  /** `sorted`: the recent order is updated-descending, so a pass can stop at its watermark. */
  recent: 'sorted' | 'since-only';
  /** Whether the stable order is created-ascending or newest-created first. */
  stable: 'created-asc' | 'created-desc';
}

export type VerifyTarget = { kind: 'issues' | 'pulls'; number: number } | { kind: 'issue-comments' | 'review-comments'; id: string };

/** A record that a direct fetch proved gone: deleted outright, or moved to another repository. */
export interface Gone {
  gone: 'deleted' | 'transferred';
}

/** One wiki or document page as a walker sees it before reading its body. */
export interface TreeEntry {
  path: string;
  /** Changes whenever the body does (a git blob sha, a last-commit sha, a size/mtime pair). */
  revision: string;
  /** Why this page is listed but not read (counted as skipped, never dropped silently). */
  skip?: 'too_large';
}

export interface TreePage {
  title: string;
  body: string;
  url: string | null;
  updatedAt: number | null;
}

/**
 * A path-ordered tree of pages: a wiki (git or REST) or a local repository's documents. `version`
 * names the whole tree's state; `list` is its directory metadata in path order.
 */
export interface TreeSource {
  version(signal: AbortSignal): Promise<string | 'absent'>;
  list(version: string, signal: AbortSignal): Promise<TreeEntry[]>;
  /** Null when the page vanished between listing and reading. */
  read(version: string, entry: TreeEntry, signal: AbortSignal): Promise<TreePage | null>;
  close?(): void;
}

export interface Forge {
  readonly kind: ForgeKind;
  /** The web host (github.com, a GHE or Gitea host): shown in status, never a URL. */
  readonly host: string;
  readonly perPage: number;
  readonly streams: Readonly<Partial<Record<Stream, StreamTraits>>>;
  list(request: ListRequest, signal: AbortSignal): Promise<ListResult>;
  /** A direct fetch of one record, to confirm an absence before tombstoning it. */
  verify(target: VerifyTarget, signal: AbortSignal): Promise<StreamRecord | Gone>;
  /** Every conversation comment of one issue (drains the pending child queue). */
  itemComments(number: number, signal: AbortSignal): Promise<{ records: CommentRecord[]; skipped: number }>;
  /** Review comments of one pull request, for forges without a repo-wide list. */
  pullComments?(number: number, signal: AbortSignal): Promise<{ records: CommentRecord[]; skipped: number }>;
  /** The wiki as a path-ordered tree, or null when this forge has none Steward can read. */
  wiki(): TreeSource | null;
}

/**
 * A typed failure of a forge call; `errorClass` is what status and logs carry, never a message.
 * `forge_api_root`: the base URL answers, but is not the forge's API root (a web host without its
 * `/api/v3` or `/api/v1`), so every repository reads as missing: a setting only the person can fix.
 * `forge_not_found`: the repository is missing and the root answered as an API root;
 * `forge_not_found_unchecked`: missing, and the root could not be checked (the base URL may be wrong).
 */
export class ForgeError extends Error {
  readonly errorClass: 'forge_unavailable' | 'forge_malformed' | 'forge_unauthorized' | 'forge_not_found' | 'forge_not_found_unchecked' | 'forge_api_root' | 'forge_refused' | 'wiki_unavailable';

  constructor(errorClass: ForgeError['errorClass'], message: string) {
    super(message);
    this.name = 'ForgeError';
    this.errorClass = errorClass;
  }
}

/** The forge asked us to wait: not a failure, the reset is the next run time. */
export class RateLimited extends Error {
  readonly errorClass = 'rate_limited';
  readonly until: number;

  constructor(until: number) {
    super('The forge rate limit is exhausted.');
    this.name = 'RateLimited';
    this.until = until;
  }
}
