import type { CommentRecord } from '../forges/index.js';
import { count, type LaneContext } from './context.js';

/** The stream name of comments read per pull request (their absences are judged per PR, not by sweep). */
export const PR_REVIEW_STREAM = 'pr-review';

/** Replaces one parent's comments of one stream: upserts what the forge lists, tombstones the rest. */
function replaceChildren(ctx: LaneContext, collection: 'issue-comments' | 'pr-comments', number: number, stream: string, records: CommentRecord[], skipped: number): void {
  const sweep = ctx.writer.frontier(collection, 'tail').sweep;
  const listed = new Set(records.map((r) => r.externalId));
  for (const r of records) count(ctx.tally, ctx.writer.upsertComment({ ...r, collection, itemNumber: number }, stream, sweep));
  // A skipped (malformed) entry might be one we hold: nothing is tombstoned on a page with skips.
  if (skipped === 0) {
    for (const held of ctx.writer.liveComments(collection, number, stream)) {
      if (listed.has(held.externalId)) continue;
      ctx.writer.tombstone('comments', collection, held.externalId, 'deleted');
      ctx.tally.tombstoned += 1;
    }
  }
  ctx.tally.skipped += skipped;
}

/**
 * Issue comments drain a durable pending queue in bounded units: each queued issue's comments are
 * read whole and replace what the cache holds for it (this is how deletions of comments surface).
 */
export async function drainPendingComments(ctx: LaneContext): Promise<number> {
  if (!ctx.keep.has('issue-comments')) return 0;
  const queued = ctx.writer.pending('issue-comments', ctx.settings.pendingPerPass);
  for (const number of queued) {
    const { records, skipped } = await ctx.forge.itemComments(number, ctx.signal);
    ctx.tally.requests += 1;
    ctx.writer.transaction(() => {
      replaceChildren(ctx, 'issue-comments', number, 'issue-comments', records, skipped);
      ctx.writer.dequeue('issue-comments', number);
    });
  }
  return ctx.writer.pendingCount('issue-comments');
}

async function readPull(ctx: LaneContext, pull: { number: number; revision: string }, after?: (number: number) => void): Promise<void> {
  const { records, skipped } = await ctx.forge.pullComments!(pull.number, ctx.signal);
  ctx.tally.requests += 1;
  ctx.writer.transaction(() => {
    replaceChildren(ctx, 'pr-comments', pull.number, PR_REVIEW_STREAM, records, skipped);
    ctx.writer.setChildrenRevision('pulls', pull.number, pull.revision);
    after?.(pull.number);
  });
}

/** Whether this forge reads review comments per cached pull request (Gitea, GitCode). */
export function perPullComments(ctx: Pick<LaneContext, 'forge' | 'keep'>): boolean {
  return ctx.keep.has('pr-comments') && ctx.forge.pullComments !== undefined;
}

/**
 * PR comments resume over stable windows of cached pull requests, in number order: the checkpoint
 * is the last number covered, committed with that PR's comments. Reaching the last cached PR is
 * complete only once the pulls backfill itself is.
 */
export async function pullCommentsWindow(ctx: LaneContext): Promise<void> {
  if (!perPullComments(ctx)) return;
  const f = ctx.writer.frontier('pr-comments', 'tail');
  const cursor = Number(f.position ?? '0');
  const pulls = ctx.writer.pullsAfter(cursor, ctx.settings.pullsPerWindow);
  for (const pull of pulls) {
    await readPull(ctx, pull, (number) => {
      const now = ctx.writer.frontier('pr-comments', 'tail');
      ctx.writer.saveFrontier({ ...now, position: String(number), pagesDone: now.pagesDone + 1 });
    });
  }
  if (pulls.length < ctx.settings.pullsPerWindow && ctx.writer.frontier('pulls', 'tail').complete) {
    const now = ctx.writer.frontier('pr-comments', 'tail');
    ctx.writer.saveFrontier({ ...now, complete: true, nextPage: null, verifiedAt: ctx.now() });
  }
}

/**
 * PRs the window already passed whose revision moved (or that arrived later) are re-read by the
 * head. The PR comments are as fresh as the pull list once none is left to re-read.
 */
export async function changedPullComments(ctx: LaneContext, headOnly: boolean): Promise<void> {
  if (!perPullComments(ctx)) return;
  const f = ctx.writer.frontier('pr-comments', 'tail');
  const upTo = headOnly ? Number.MAX_SAFE_INTEGER : Number(f.position ?? '0');
  for (const pull of ctx.writer.pullsChanged(upTo, ctx.settings.pendingPerPass)) await readPull(ctx, pull);
  const left = ctx.writer.pullsChanged(upTo, 1).length > 0;
  const head = ctx.writer.frontier('pr-comments', 'head');
  const pulls = ctx.writer.frontier('pulls', 'head');
  ctx.writer.saveFrontier({ ...head, nextPage: left ? 1 : null, freshAt: left ? head.freshAt : pulls.freshAt, watermark: pulls.watermark });
}

/** Whether the per-PR walker has a window to read. */
export function pullCommentsHaveWork(ctx: Pick<LaneContext, 'forge' | 'keep' | 'writer'>): boolean {
  if (!perPullComments(ctx)) return false;
  const f = ctx.writer.frontier('pr-comments', 'tail');
  if (ctx.writer.pullsAfter(Number(f.position ?? '0'), 1).length > 0) return true;
  return !f.complete && ctx.writer.frontier('pulls', 'tail').complete;
}
