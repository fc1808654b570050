import type { TreeEntry, TreePage, TreeSource } from '../forges/index.js';
import { count, type LaneContext } from './context.js';

/** A tree of pages walked in path order: a wiki, or one repository-document source. */
export interface TreeTarget {
  source: TreeSource;
  collection: 'wiki' | 'documents';
  /** The frontier name: `wiki`, or `documents:<sourceId>`. */
  frontier: string;
  /** Prefix of the items' external ids (a documents source's id), so sources never collide. */
  prefix: string;
}

export type TreeHead = 'fresh' | 'walking' | 'absent';

/**
 * The tree's head: reads its current version (a wiki fetch, a ref, a worktree listing). A new
 * version starts a walk from the first path; the head is fresh only once a walk has covered it.
 */
export async function headTree(ctx: LaneContext, t: TreeTarget): Promise<TreeHead> {
  const version = await t.source.version(ctx.signal);
  ctx.tally.requests += 1;
  const head = ctx.writer.frontier(t.frontier, 'head');
  let tail = ctx.writer.frontier(t.frontier, 'tail');
  if (version === 'absent') {
    ctx.writer.transaction(() => {
      for (const id of ctx.writer.pageRevisions(t.collection, t.prefix).keys()) {
        ctx.writer.tombstone('items', t.collection, id, 'absent');
        ctx.tally.tombstoned += 1;
      }
      ctx.writer.saveFrontier({ ...tail, cursor: 'absent', position: null, nextPage: null, complete: true, verifiedAt: ctx.now() });
      ctx.writer.saveFrontier({ ...head, cursor: 'absent', freshAt: ctx.now() });
    });
    return 'absent';
  }
  if (version !== tail.cursor) {
    tail = { ...tail, cursor: version, position: null, nextPage: 1, pagesDone: 0, skipped: 0 };
    ctx.writer.saveFrontier(tail);
  }
  const covered = tail.nextPage === null;
  ctx.writer.saveFrontier({ ...head, cursor: version, freshAt: covered ? ctx.now() : head.freshAt });
  return covered ? 'fresh' : 'walking';
}

export function treeHasWork(ctx: Pick<LaneContext, 'writer'>, t: Pick<TreeTarget, 'frontier'>): boolean {
  return ctx.writer.frontier(t.frontier, 'tail').nextPage !== null;
}

/**
 * One bounded window of the walk. The checkpoint is a logical path-order offset (the last path
 * covered): each window revisits the directory metadata, skips pages already covered and pages
 * whose revision the cache holds, and reads at most `treeReadsPerWindow` bodies. A finished walk
 * tombstones the pages the tree no longer has (renames arrive as a new path and a tombstone).
 */
export async function treeWindow(ctx: LaneContext, t: TreeTarget): Promise<void> {
  const f = ctx.writer.frontier(t.frontier, 'tail');
  if (f.nextPage === null || f.cursor === null || f.cursor === 'absent') return;
  const version = f.cursor;
  const entries = await t.source.list(version, ctx.signal);
  const held = ctx.writer.pageRevisions(t.collection, t.prefix);
  const reads: Array<{ entry: TreeEntry; page: TreePage | null }> = [];
  const from = f.position;
  let position = from;
  let skipped = 0;
  let unchanged = 0;
  let finished = true;
  for (const entry of entries) {
    if (from !== null && entry.path <= from) continue;
    if (entry.skip) skipped += 1;
    else if (held.get(`${t.prefix}${entry.path}`) === entry.revision) unchanged += 1;
    else {
      if (reads.length >= ctx.settings.treeReadsPerWindow) {
        finished = false;
        break;
      }
      reads.push({ entry, page: await t.source.read(version, entry, ctx.signal) });
      ctx.tally.requests += 1;
    }
    position = entry.path;
  }
  ctx.writer.transaction(() => {
    // A page that vanished between listing and reading keeps what the cache holds until the next walk.
    for (const { entry, page } of reads) if (page) count(ctx.tally, ctx.writer.upsertPage(t.collection, `${t.prefix}${entry.path}`, entry.revision, page, t.frontier, f.sweep));
    ctx.tally.unchanged += unchanged;
    ctx.tally.skipped += skipped;
    let next = { ...f, position, pagesDone: f.pagesDone + reads.length, pagesKnown: entries.length, skipped: f.skipped + skipped };
    if (finished) {
      // A page listed but too large to read still exists: what the cache holds of it stays live.
      const present = new Set(entries.map((e) => `${t.prefix}${e.path}`));
      for (const id of held.keys()) {
        if (present.has(id)) continue;
        ctx.writer.tombstone('items', t.collection, id, 'deleted');
        ctx.tally.tombstoned += 1;
      }
      next = { ...next, nextPage: null, position: null, complete: true, verifiedAt: ctx.now() };
      const head = ctx.writer.frontier(t.frontier, 'head');
      if (head.cursor === version) ctx.writer.saveFrontier({ ...head, freshAt: ctx.now() });
    }
    ctx.writer.saveFrontier(next);
  });
}
