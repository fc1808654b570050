import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MALFORMED_JSON, type Reply, type Request, type Shape } from '../../support/fake-forge.js';
import { cacheContent, datasetContent, rig, seed, untilComplete, type Rig } from './sync-rig.js';

const NO_WIKI = { collections: ['issues', 'issue-comments', 'pulls', 'pr-comments'] };

/** A request of the issues list in its stable (backfill) order. */
function tailIssues(req: Request): boolean {
  if (!/\/repos\/acme\/widgets\/issues$/.test(req.path) || req.query.has('since')) return false;
  return req.query.get('sort') !== 'updated';
}

function generation(r: Rig): number {
  return r.read<{ g: number }>('SELECT content_generation AS g FROM repositories WHERE repo_id = ?', r.repoId)[0]!.g;
}

describe.each<Shape>(['github', 'gitea', 'gitcode'])('sync lanes against a %s-shaped forge', (shape) => {
  let r: Rig | undefined;
  afterEach(async () => {
    await r?.close();
    r = undefined;
  });

  it('backfills every collection until the cache equals the dataset exactly', async () => {
    r = await rig(shape);
    seed(r.forge, 47);
    await untilComplete(r);
    expect(cacheContent(r)).toEqual(datasetContent(r.forge));
    const status = r.m.list().registrations[0]!;
    expect(status.collections.map((c) => [c.collection, c.tail.state])).toEqual([
      ['issues', 'complete'],
      ['issue-comments', 'complete'],
      ['pulls', 'complete'],
      ['pr-comments', 'complete'],
      ...(shape === 'gitcode' ? [] : [['wiki', 'complete']]),
    ]);
    const issues = status.collections.find((c) => c.collection === 'issues')!;
    expect(issues).toMatchObject({ items: datasetContent(r.forge).issues.length, tombstones: 0, skipped: 0, head: { state: 'fresh' } });
    expect(status.collections.find((c) => c.collection === 'wiki')?.reason ?? null).toBe(shape === 'gitcode' ? null : 'absent');
    expect(status.state).toBe('ready');
  });

  it('loses nothing and doubles nothing while edits, creates, deletions and transfers shift pages between fetches', async () => {
    r = await rig(shape, { policy: NO_WIKI, settings: { reverifyMs: 3_600_000 } });
    seed(r.forge, 60, 5, 1);
    const forge = r.forge;
    // Victims on pages already read: the oldest issues in created-ascending order, the newest in Gitea's newest-first.
    const [a, b, c, d] = shape === 'gitea' ? [59, 54, 51, 49] : [2, 11, 13, 7];
    const reads = new Map<string, number>();
    forge.scripts.push((req) => {
      if (!tailIssues(req)) return;
      const page = req.query.get('page') ?? '1';
      reads.set(page, (reads.get(page) ?? 0) + 1);
      // Inside the first window: an edit, two creations, and a deletion on a page already read.
      if (page === '2' && reads.get(page) === 1) {
        forge.edit(5, { body: 'edited during the backfill' });
        forge.add('issue');
        forge.add('issue', { title: 'created during the backfill' });
        forge.remove(a);
      }
      // Between windows (the next window re-reads page 3): two deletions shift every later record
      // left across the boundary, and one issue leaves for another repository.
      if (page === '3' && reads.get(page) === 2) {
        forge.remove(b);
        forge.remove(c);
        forge.transfer(d);
      }
    });
    await untilComplete(r);
    const afterFirst = cacheContent(r);
    const dataset = datasetContent(forge);
    // The one-page overlap between windows: whatever shifted across a window boundary was read.
    const cachedNumbers = new Set(afterFirst.issues.map((i) => i.number));
    const missing = dataset.issues.filter((i) => !cachedNumbers.has(i.number)).map((i) => i.number);
    // At most the one record a deletion inside a window pushed back onto a page already read.
    expect(missing.length, JSON.stringify(missing)).toBeLessThanOrEqual(1);
    // Only the re-verification walk (its own interval, never forced by reconcile) finds the rest.
    const before = forge.apiRequests().length;
    await r.reconcile();
    expect(forge.apiRequests().slice(before).some(tailIssues)).toBe(false);
    r.advance(3_600_000);
    await untilComplete(r);
    for (let pass = 0; pass < 5 && r.m.list().registrations[0]!.collections.some((c) => c.tail.verifiedAt === null || c.tail.verifiedAt < Date.now()); pass += 1) await r.reconcile();
    expect(cacheContent(r)).toEqual(datasetContent(forge));
    // Every removed issue the cache ever held is tombstoned (kept, marked) with why; an issue removed
    // before it was ever read has nothing to mark.
    const rows = r.read<{ number: number; reason: string | null }>("SELECT number, tombstone_reason AS reason FROM items WHERE collection = 'issues' ORDER BY number");
    const removed = new Set([a, b, c, d]);
    expect(rows.filter((x) => x.reason !== null)).toEqual(rows.filter((x) => removed.has(x.number)).map((x) => ({ number: x.number, reason: x.number === d ? 'transferred' : 'deleted' })));
    expect(rows.filter((x) => x.reason !== null).length).toBeGreaterThanOrEqual(3);
    const issues = r.m.list().registrations[0]!.collections.find((c) => c.collection === 'issues')!;
    expect(issues).toMatchObject({ items: datasetContent(forge).issues.length, tombstones: rows.filter((x) => x.reason !== null).length });
  });

  it('refreshes an unchanged head with one conditional request per collection, all answered 304', async () => {
    r = await rig(shape, { policy: NO_WIKI });
    seed(r.forge, 25);
    await untilComplete(r);
    // The first head pass after the backfill settles the watermark; from then on an idle pass is conditional.
    await r.reconcile();
    const before = r.forge.requests.length;
    const pass = await r.reconcile();
    const sent = r.forge.requests.slice(before);
    const streams = shape === 'github' ? 4 : 3;
    expect(sent).toHaveLength(streams);
    expect(sent.every((q) => typeof q.headers['if-none-match'] === 'string')).toBe(true);
    expect(pass.jobs.map((j) => `${j.lane}:${j.state}`)).toEqual(['head:succeeded']);
    expect(pass.skipped).toContainEqual(expect.objectContaining({ lane: 'tail', reason: 'tail_complete' }));
    const heads = r.m.list().registrations[0]!.collections.map((c) => c.head.state);
    expect(heads.every((h) => h === 'fresh')).toBe(true);
  });

  it("shows freshness in this machine's clock when the forge's clock runs ahead", async () => {
    r = await rig(shape, { policy: NO_WIKI });
    seed(r.forge, 5);
    r.forge.now += 3_600_000;
    await untilComplete(r);
    await r.reconcile();
    const local = Date.now();
    for (const c of r.m.list().registrations[0]!.collections) {
      expect(c.head.state).toBe('fresh');
      expect(c.head.freshAt!).toBeLessThanOrEqual(local);
      expect(c.head.freshAt!).toBeGreaterThan(local - 600_000);
    }
  });

  it('advances the content generation only when content changes', async () => {
    r = await rig(shape, { policy: NO_WIKI });
    seed(r.forge, 12);
    await untilComplete(r);
    await r.reconcile();
    const g0 = generation(r);
    // A timestamp-only change (the forge bumps updated_at, nothing else) is read and stored, but is no new content.
    r.forge.edit(3, {});
    await r.reconcile();
    expect(r.read<{ n: number }>("SELECT COUNT(*) AS n FROM items WHERE collection = 'issues' AND number = 3")[0]!.n).toBe(1);
    expect(generation(r)).toBe(g0);
    r.forge.edit(3, { body: 'new words' });
    await r.reconcile();
    expect(generation(r)).toBe(g0 + 1);
    expect(r.read<{ body: string }>("SELECT body FROM items WHERE collection = 'issues' AND number = 3")[0]!.body).toBe('new words');
    r.forge.comment(3, { body: 'a new comment' });
    await r.reconcile();
    // One new source (the comment); the issue's new comment count is not content.
    expect(generation(r)).toBe(g0 + 2);
  });

  it('counts and skips a malformed record without losing its page, and fails a malformed page into backoff', async () => {
    r = await rig(shape, { policy: NO_WIKI });
    seed(r.forge, 15, 100, 0);
    r.forge.add('issue', { title: 42 as unknown as string });
    let broken = false;
    r.forge.scripts.push((req) => {
      if (!broken && tailIssues(req) && req.query.get('page') === '2') {
        broken = true;
        return MALFORMED_JSON;
      }
    });
    const first = await r.reconcile();
    expect(first.jobs.find((j) => j.lane === 'tail')).toMatchObject({ state: 'failed', errorClass: 'forge_malformed' });
    const failing = r.m.list().registrations[0]!;
    expect(failing.stages.sync).toMatchObject({ errorClass: 'forge_malformed', failures: 1 });
    expect(failing.state).toBe('degraded');
    expect((await r.reconcile()).skipped).toContainEqual(expect.objectContaining({ stage: 'sync', reason: 'backoff' }));
    r.advance(60_000);
    await untilComplete(r);
    const expected = datasetContent(r.forge);
    expected.issues = expected.issues.filter((i) => typeof i.title === 'string');
    expect(cacheContent(r).issues).toEqual(expected.issues);
    expect(r.m.list().registrations[0]!.collections.find((c) => c.collection === 'issues')!.skipped).toBeGreaterThanOrEqual(1);
  });
});

describe('forge rate limits and failures', () => {
  let r: Rig | undefined;
  afterEach(async () => {
    await r?.close();
    r = undefined;
  });

  it.each<Shape>(['github', 'gitea'])('waits for a %s rate-limit reset as the next run time, not as a failure, keeping what ran', async (shape) => {
    r = await rig(shape, { policy: NO_WIKI });
    seed(r.forge, 80, 100, 0);
    const reset = Math.floor(Date.now() / 1_000) + 3_600;
    let limited = false;
    r.forge.scripts.push((req): Reply | void => {
      if (!limited && tailIssues(req) && req.query.get('page') === '3') {
        limited = true;
        return shape === 'github'
          ? { status: 403, headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(reset) }, body: JSON.stringify({ message: 'API rate limit exceeded' }) }
          : { status: 429, headers: { 'retry-after': '3600' }, body: 'Too Many Requests' };
      }
    });
    const pass = await r.reconcile();
    expect(pass.jobs.find((j) => j.lane === 'tail')).toMatchObject({ state: 'waiting', errorClass: null });
    const waiting = r.m.list().registrations[0]!;
    expect(waiting.state).toBe('waiting');
    expect(waiting.waiting).toMatchObject({ reason: 'rate_limited', host: new URL(r.forge.base).host });
    expect(Math.abs(waiting.waiting!.until! - reset * 1_000)).toBeLessThan(5_000 + (shape === 'gitea' ? 10_000 : 0));
    expect(waiting.stages.sync).toMatchObject({ errorClass: null, failures: 0 });
    expect(waiting.degraded).toEqual([]);
    expect(waiting.nextRunAt).toBe(waiting.waiting!.until);
    expect(waiting.collections.find((c) => c.collection === 'issues')!.reason).toBe('rate_limited');
    // What the window read before the limit is kept with its checkpoint.
    expect(r.read<{ n: number }>("SELECT COUNT(*) AS n FROM items WHERE collection = 'issues'")[0]!.n).toBeGreaterThanOrEqual(20);
    const before = r.forge.requests.length;
    expect((await r.reconcile()).skipped).toContainEqual(expect.objectContaining({ stage: 'sync', reason: 'rate_limited', nextAttemptAt: waiting.waiting!.until }));
    expect(r.forge.requests.length).toBe(before);
    r.advance(3_700_000);
    await untilComplete(r);
    expect(cacheContent(r).issues).toEqual(datasetContent(r.forge).issues);
    expect(r.m.list().registrations[0]!.waiting).toBeNull();
  });

  // GitHub's rule for a secondary limit: wait Retry-After (or a minute) and never re-send sooner.
  const SECONDARY = JSON.stringify({ message: 'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.' });
  it.each<[Shape, string, Reply, number]>([
    ['github', '429 with retry-after', { status: 429, headers: { 'retry-after': '600' }, body: 'Too Many Requests' }, 600_000],
    ['github', '429 secondary limit with retry-after', { status: 429, headers: { 'retry-after': '600' }, body: SECONDARY }, 600_000],
    ['github', '403 secondary limit with retry-after', { status: 403, headers: { 'retry-after': '600' }, body: SECONDARY }, 600_000],
    ['github', '403 secondary limit without retry-after', { status: 403, body: SECONDARY }, 60_000],
    ['gitea', '429 with retry-after', { status: 429, headers: { 'retry-after': '600' }, body: 'Too Many Requests' }, 600_000],
  ])('sends no second %s request before a %s lifts, and waits as for the primary limit', async (shape, _kind, reply, waitMs) => {
    r = await rig(shape, { policy: NO_WIKI, transport: { retries: 3, retryBaseMs: 5, inlineWaitMs: 5_000 } });
    seed(r.forge, 40, 100, 0);
    let limitedAt: number | null = null;
    let after = 0;
    r.forge.scripts.push((req): Reply | void => {
      if (!tailIssues(req) || req.query.get('page') !== '2') return;
      if (limitedAt !== null) {
        after += 1;
        return reply;
      }
      limitedAt = Date.now();
      return reply;
    });
    const pass = await r.reconcile();
    expect(after).toBe(0);
    expect(pass.jobs.find((j) => j.lane === 'tail')).toMatchObject({ state: 'waiting', errorClass: null });
    const waiting = r.m.list().registrations[0]!;
    expect(waiting.waiting).toMatchObject({ reason: 'rate_limited', host: new URL(r.forge.base).host });
    expect(Math.abs(waiting.waiting!.until! - (limitedAt! + waitMs))).toBeLessThan(5_000);
    expect(waiting.stages.sync).toMatchObject({ errorClass: null, failures: 0 });
    expect(waiting.nextRunAt).toBe(waiting.waiting!.until);
    expect((await r.reconcile()).skipped).toContainEqual(expect.objectContaining({ stage: 'sync', reason: 'rate_limited' }));
    expect(after).toBe(0);
  });

  it('waits out a short github retry-after in place once, no sooner than it asks', async () => {
    r = await rig('github', { policy: NO_WIKI, transport: { inlineWaitMs: 3_000, retries: 3, retryBaseMs: 5 } });
    seed(r.forge, 30, 100, 0);
    const at: number[] = [];
    r.forge.scripts.push((req): Reply | void => {
      if (!tailIssues(req) || req.query.get('page') !== '2') return;
      at.push(Date.now());
      if (at.length === 1) return { status: 429, headers: { 'retry-after': '1' }, body: 'Too Many Requests' };
    });
    await untilComplete(r);
    expect(at.length).toBeGreaterThanOrEqual(2);
    expect(at[1]! - at[0]!).toBeGreaterThanOrEqual(950);
    expect(r.m.list().registrations[0]!.waiting).toBeNull();
    expect(cacheContent(r).issues).toEqual(datasetContent(r.forge).issues);
  });

  it('waits out a short retry-after in place and retries a 500 before failing the stage', async () => {
    r = await rig('gitea', { policy: NO_WIKI, transport: { inlineWaitMs: 3_000, retries: 3, retryBaseMs: 5 } });
    seed(r.forge, 30, 100, 0);
    let n = 0;
    r.forge.scripts.push((req) => {
      if (!tailIssues(req)) return;
      n += 1;
      if (n === 2) return { status: 429, headers: { 'retry-after': '1' }, body: '' };
      if (n === 3 || n === 4) return { status: 502, body: 'bad gateway' };
    });
    await untilComplete(r);
    expect(r.m.list().registrations[0]!.jobs.every((j) => j.state === 'succeeded')).toBe(true);
    expect(cacheContent(r).issues).toEqual(datasetContent(r.forge).issues);
    r.forge.scripts = [() => ({ status: 500, body: 'down' })];
    r.advance(3_600_000 * 24 * 8);
    r.forge.edit(1, { body: 'changed' });
    const pass = await r.reconcile();
    expect(pass.jobs[0]).toMatchObject({ lane: 'head', state: 'failed', errorClass: 'forge_unavailable' });
    expect(r.m.list().registrations[0]!.stages.sync).toMatchObject({ failures: 1, errorClass: 'forge_unavailable' });
  });

  it('treats a missing token as a status reason, not a failure loop, and never calls the forge', async () => {
    r = await rig('github', { token: null });
    seed(r.forge, 5);
    for (let i = 0; i < 3; i += 1) {
      const pass = await r.reconcile();
      expect(pass.jobs).toEqual([]);
      expect(pass.skipped).toContainEqual(expect.objectContaining({ stage: 'sync', reason: 'token_missing' }));
    }
    expect(r.forge.requests).toEqual([]);
    const status = r.m.list().registrations[0]!;
    expect(status).toMatchObject({ state: 'waiting', waiting: { reason: 'token_missing', host: new URL(r.forge.base).host, until: null }, degraded: [], jobs: [] });
    expect(status.stages.sync.failures).toBe(0);
    expect(status.collections.every((c) => c.reason === 'token_missing' && c.head.state === 'never')).toBe(true);
    expect(status.nextRunAt).not.toBeNull();
  });

  it('never puts the token into logs, status, errors, the registry or the cache', async () => {
    r = await rig('github');
    seed(r.forge, 20);
    let n = 0;
    r.forge.scripts.push(() => {
      n += 1;
      if (n === 2) return { status: 500, body: JSON.stringify({ message: `boom ${r!.forge.token}` }) };
      if (n === 5) return { status: 401, body: JSON.stringify({ message: 'Bad credentials' }) };
    });
    const seen: string[] = [];
    for (let i = 0; i < 4; i += 1) {
      r.advance(3_600_000);
      seen.push(JSON.stringify(await r.reconcile()));
    }
    seen.push(JSON.stringify(r.m.list()));
    seen.push(...r.logger.lines);
    seen.push(readFileSync(join(r.home.dir, 'managed-caches.json'), 'utf8'));
    seen.push(readFileSync(r.cachePath).toString('latin1'));
    expect(seen.join('\n')).toContain('forge_unauthorized');
    for (const text of seen) expect(text).not.toContain(r.forge.token!);
  });
});
