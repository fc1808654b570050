import type { Forge, Stream, StreamRecord } from '../forges/index.js';
import type { CacheWriter, Upserted } from './store.js';

/** Sizes and intervals of the lanes; every one is bounded so a job's work is bounded. */
export interface LaneSettings {
  /** Pages per tail window; consecutive windows overlap by one page (so at least 2). */
  windowPages: number;
  /** Pages a head pass may read before it leaves a continuation. */
  headPages: number;
  /** Subtracted from a watermark: timestamps have 1 s resolution and clocks drift. */
  skewMs: number;
  pendingPerPass: number;
  verifyPerPass: number;
  pullsPerWindow: number;
  treeReadsPerWindow: number;
  /** How often a complete tail walks again to find deletions (reconcile never forces it). */
  reverifyMs: number;
  headIntervalMs: number;
  /** A tail job stops starting new windows after this long; the next pass resumes from the checkpoint. */
  tailBudgetMs: number;
}

export const DEFAULT_LANE_SETTINGS: LaneSettings = {
  windowPages: 10,
  headPages: 3,
  skewMs: 2_000,
  pendingPerPass: 20,
  verifyPerPass: 50,
  pullsPerWindow: 20,
  treeReadsPerWindow: 50,
  reverifyMs: 7 * 24 * 3_600_000,
  headIntervalMs: 300_000,
  tailBudgetMs: 120_000,
};

export type Collection = 'issues' | 'issue-comments' | 'pulls' | 'pr-comments' | 'wiki';

export interface LaneContext {
  forge: Forge;
  writer: CacheWriter;
  signal: AbortSignal;
  now: () => number;
  settings: LaneSettings;
  /** The policy's collections: records of other collections are read (a stream carries both) but not kept. */
  keep: ReadonlySet<string>;
  /** Counts of this job's work, for progress and the benchmark. */
  tally: Tally;
}

export interface Tally {
  requests: number;
  inserted: number;
  updated: number;
  unchanged: number;
  skipped: number;
  tombstoned: number;
}

export const emptyTally = (): Tally => ({ requests: 0, inserted: 0, updated: 0, unchanged: 0, skipped: 0, tombstoned: 0 });

/** The frontier a stream's checkpoints live under: the policy collection it fills. */
export function frontierName(stream: Stream): Collection {
  return stream === 'review-comments' ? 'pr-comments' : stream;
}

export function count(tally: Tally, outcome: Upserted): void {
  tally[outcome] += 1;
}

/**
 * Stores one record of a stream if the policy keeps its collection (a pull request is kept when
 * its comments are: per-PR forges walk cached pulls). Returns null for a record not kept.
 */
export function store(ctx: LaneContext, record: StreamRecord, stream: Stream, sweep: number): Upserted | null {
  if (record.type === 'item') {
    const kept = ctx.keep.has(record.collection) || (record.collection === 'pulls' && ctx.keep.has('pr-comments'));
    if (!kept) return null;
    const outcome = ctx.writer.upsertItem(record, stream, sweep);
    count(ctx.tally, outcome);
    if (outcome !== 'unchanged' && record.collection === 'issues') noteCommentCount(ctx, record.number, record.commentCount);
    return outcome;
  }
  if (!ctx.keep.has(record.collection)) return null;
  const outcome = ctx.writer.upsertComment(record, stream, sweep);
  count(ctx.tally, outcome);
  return outcome;
}

/**
 * A changed issue whose comment count disagrees with the cache joins the durable pending queue,
 * once the comment backfill is complete (before that, the tail brings the comments anyway).
 */
function noteCommentCount(ctx: LaneContext, number: number, forgeCount: number | null): void {
  if (forgeCount === null || !ctx.keep.has('issue-comments')) return;
  if (!ctx.writer.frontier('issue-comments', 'tail').complete) return;
  if (ctx.writer.liveComments('issue-comments', number).length !== forgeCount) ctx.writer.enqueue('issue-comments', number);
}
