import { afterEach, describe, expect, it } from 'vitest';
import { cacheContent, datasetContent, rig, seed, untilComplete, type Rig } from './sync-rig.js';

const NO_WIKI = { collections: ['issues', 'issue-comments', 'pulls', 'pr-comments'] };

describe('child coverage', () => {
  let r: Rig | undefined;
  afterEach(async () => {
    await r?.close();
    r = undefined;
  });

  it('drains the durable pending queue: an issue whose comment count disagrees is re-read whole, and a deleted comment is tombstoned', async () => {
    r = await rig('github', { policy: NO_WIKI });
    seed(r.forge, 12, 100, 3);
    await untilComplete(r);
    const victim = [...r.forge.comments.values()].find((c) => c.number === 3)!;
    r.forge.deleteComment(victim.id);
    const before = r.forge.requests.length;
    await r.reconcile();
    const sent = r.forge.requests.slice(before).map((q) => q.path);
    expect(sent.filter((p) => p.endsWith('/issues/3/comments'))).toHaveLength(1);
    expect(r.read<{ reason: string }>('SELECT tombstone_reason AS reason FROM comments WHERE external_id = ?', String(victim.id))).toEqual([{ reason: 'deleted' }]);
    expect(r.read<{ n: number }>('SELECT COUNT(*) AS n FROM pending_children')[0]!.n).toBe(0);
    expect(cacheContent(r)).toEqual(datasetContent(r.forge));
  });

  it.each(['gitea', 'gitcode'] as const)('walks %s review comments over stable windows of cached pull requests, then re-reads only changed ones', async (shape) => {
    r = await rig(shape, { policy: NO_WIKI, settings: { tailBudgetMs: 0 } });
    seed(r.forge, 40, 2, 1);
    // One window per pass: the PR walk advances its checkpoint (the last PR number) window by window.
    const positions: string[] = [];
    for (let pass = 0; pass < 40; pass += 1) {
      await r.reconcile();
      const [row] = r.read<{ position: string | null; complete: number }>("SELECT position, complete FROM sync_frontiers WHERE collection = 'pr-comments' AND lane = 'tail'");
      if (row?.position) positions.push(row.position);
      if (row?.complete === 1) break;
    }
    const distinct = [...new Set(positions.map(Number))];
    expect(distinct.length).toBeGreaterThanOrEqual(3);
    expect(distinct).toEqual([...distinct].sort((x, y) => x - y));
    await untilComplete(r);
    expect(cacheContent(r)).toEqual(datasetContent(r.forge));
    const pull = [...r.forge.threads.values()].find((t) => t.kind === 'pull')!;
    const fresh = r.forge.comment(pull.number, { kind: 'review', body: 'a new review comment', path: 'b.ts', line: 3 });
    const before = r.forge.requests.length;
    await r.reconcile();
    const perPull = r.forge.requests.slice(before).filter((q) => /\/pulls\/\d+\/(reviews|comments)/.test(q.path));
    expect(new Set(perPull.map((q) => /\/pulls\/(\d+)\//.exec(q.path)![1]))).toEqual(new Set([String(pull.number)]));
    expect(r.read<{ body: string }>('SELECT body FROM comments WHERE external_id = ?', String(fresh.id))).toEqual([{ body: 'a new review comment' }]);
    r.forge.deleteComment(fresh.id);
    await r.reconcile();
    expect(cacheContent(r)).toEqual(datasetContent(r.forge));
  });
});
