import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Core, type Params, type Result } from '../../../core/index.js';
import { tempHome, type TempHome } from '../../support/home.js';
import { claudeLine, writeJsonl } from '../../support/transcripts.js';

let home: TempHome;
let core: Core;
let roots: string;
const SESSIONS = 20;
const BASE = Date.UTC(2026, 5, 1);

/** Twenty conversations; several lines share a second, and each line mentions "orchard" a different number of times. */
function writeCorpus(): void {
  for (let s = 0; s < SESSIONS; s += 1) {
    const sessionId = `page-${String(s).padStart(2, '0')}`;
    writeJsonl(
      join(roots, 'projects', '-work-paging', `${sessionId}.jsonl`),
      Array.from({ length: 4 }, (_, i) =>
        claudeLine({
          sessionId,
          cwd: '/work/paging',
          // Sessions two apart share their seconds: ties in time are broken, never dropped.
          ts: new Date(BASE + Math.floor(s / 2) * 60_000 + i * 1000),
          type: i % 2 === 0 ? 'user' : 'assistant',
          text: `${'orchard '.repeat(1 + ((s + i) % 5))}line ${i} of ${sessionId}`,
        }),
      ),
    );
  }
}

beforeAll(async () => {
  home = tempHome('steward-paging-');
  roots = join(home.dir, 'roots');
  writeCorpus();
  home.env.STEWARD_CLAUDE_ROOTS = roots;
  core = Core.open({ home: { dir: home.dir, kind: 'env' }, env: home.env });
  await core.call('Backfill.Run', { all: true });
});

afterAll(async () => {
  await core?.shutdown();
  home?.cleanup();
});

type Query = Params<'Search.Query'>;

async function allPages(query: Query, between?: (page: number) => Promise<void>): Promise<Result<'Search.Query'>['hits']> {
  const hits: Result<'Search.Query'>['hits'] = [];
  let cursor: string | undefined;
  let page = 0;
  do {
    const result = await core.call('Search.Query', { ...query, ...(cursor ? { cursor } : {}) });
    hits.push(...result.hits);
    cursor = result.cursor;
    await between?.(page++);
  } while (cursor);
  return hits;
}

describe('paging is stable', () => {
  it.each(['newest', 'relevance'] as const)('%s: pages of 7 give exactly the one long page, in the same order', async (sort) => {
    const whole = await core.call('Search.Query', { query: 'orchard', sort, limit: 100 });
    expect(whole.hits).toHaveLength(SESSIONS * 4);
    expect(whole.cursor).toBeUndefined();
    const paged = await allPages({ query: 'orchard', sort, limit: 7 });
    expect(paged.map((h) => h.partId)).toEqual(whole.hits.map((h) => h.partId));
    expect(new Set(paged.map((h) => h.partId)).size).toBe(paged.length);
  });

  it('newest is ordered by line time', async () => {
    const { hits } = await core.call('Search.Query', { query: 'orchard', sort: 'newest', limit: 100 });
    const stamps = hits.map((h) => h.ts!);
    expect(stamps).toEqual([...stamps].sort((a, b) => b - a));
  });

  it('relevance ranks the denser mentions first', async () => {
    const { hits } = await core.call('Search.Query', { query: 'orchard', limit: 5 });
    for (const hit of hits) expect(hit.snippet.match(/orchard/g)?.length).toBe(5);
  });

  it.each(['newest', 'relevance'] as const)('%s: parts captured between pages neither repeat nor displace what the first page began', async (sort) => {
    const whole = await core.call('Search.Query', { query: 'orchard', sort, limit: 100 });
    let added = 0;
    const paged = await allPages({ query: 'orchard', sort, limit: 11 }, async (page) => {
      if (page > 2) return;
      added += 1;
      writeJsonl(join(roots, 'projects', '-work-paging', `late-${sort}-${page}.jsonl`), [claudeLine({ sessionId: `late-${sort}-${page}`, cwd: '/work/paging', text: 'orchard orchard orchard orchard orchard late' })]);
      await core.call('Sweep.Tick', {});
    });
    expect(added).toBe(3);
    expect(paged.map((h) => h.partId)).toEqual(whole.hits.map((h) => h.partId));
  });
});

describe('paging holds to what the first page saw', () => {
  const DAY = 24 * 60 * 60_000;

  it.each(['newest', 'relevance'] as const)('%s: parts dated before every hit (a backfill of old history), captured between pages, neither repeat nor join a later page', async (sort) => {
    const whole = await core.call('Search.Query', { query: 'orchard', sort, limit: 100 });
    const early: string[] = [];
    const paged = await allPages({ query: 'orchard', sort, limit: 11 }, async (page) => {
      if (page > 2) return;
      const sessionId = `early-${sort}-${page}`;
      early.push(sessionId);
      // Dense and short: ranked above most of the corpus, and keyed below all of it.
      writeJsonl(join(roots, 'projects', '-work-paging', `${sessionId}.jsonl`), [claudeLine({ sessionId, cwd: '/work/paging', ts: new Date(BASE - DAY - page * 1000), text: 'orchard orchard orchard orchard orchard early' })]);
      await core.call('Sweep.Tick', {});
    });
    expect(paged.map((h) => h.partId)).toEqual(whole.hits.map((h) => h.partId));
    // They were captured: a search begun now finds them.
    const after = await core.call('Search.Query', { query: 'orchard', sort, limit: 100 });
    for (const id of early) expect(after.hits.some((h) => h.sessionId === id)).toBe(true);
    expect(after.hits).toHaveLength(whole.hits.length + early.length);
  });

  it.each(['relevance', 'newest'] as const)('%s: a conversation forgotten between pages takes only its own hits out; the rest keep their order, none repeated or skipped', async (sort) => {
    const whole = await core.call('Search.Query', { query: 'orchard', sort, limit: 100 });
    // Past the one-line conversations the tests above captured, which lead both orders.
    const limit = 20;
    // A conversation with hits on the first page and further on.
    const gone = whole.hits.slice(0, limit).find((h) => whole.hits.slice(limit).some((later) => later.sessionId === h.sessionId))?.sessionId;
    if (gone === undefined) throw new Error('no conversation spans the first page and a later one');
    const paged = await allPages({ query: 'orchard', sort, limit }, async (page) => {
      if (page === 0) await core.call('Forget.Session', { sessionId: gone });
    });
    const expected = whole.hits.filter((h, i) => i < limit || h.sessionId !== gone);
    expect(paged.map((h) => h.partId)).toEqual(expected.map((h) => h.partId));
  });

  it('relevance: a query of very many words still pages whole, its cursor within the contract’s length', async () => {
    const query = ['orchard', ...Array.from({ length: 110 }, (_, i) => `zq${i}`)].join(' OR ');
    const whole = await core.call('Search.Query', { query, limit: 100 });
    expect(whole.cursor).toBeUndefined();
    const paged = await allPages({ query, limit: 7 });
    expect(paged.map((h) => h.partId)).toEqual(whole.hits.map((h) => h.partId));
  });

  it('relevance among more matches than it ranks: a forget between pages lets no older match in, and every page says how many were ranked', async () => {
    const quince = (sessionId: string, lines: number, from: number) =>
      writeJsonl(
        join(roots, 'projects', '-work-paging', `${sessionId}.jsonl`),
        Array.from({ length: lines }, (_, i) => claudeLine({ sessionId, cwd: '/work/paging', ts: new Date(from + i * 1000), text: `${'quince '.repeat(1 + (i % 7))}note ${i}` })),
      );
    quince('quince-old', 520, BASE - 2 * DAY);
    quince('quince-recent', 40, BASE + DAY);
    await core.call('Sweep.Tick', {});
    const pages = async (between?: () => Promise<void>) => {
      const hits: Result<'Search.Query'>['hits'] = [];
      let cursor: string | undefined;
      do {
        const result = await core.call('Search.Query', { query: 'quince', limit: 100, ...(cursor ? { cursor } : {}) });
        expect(result.rankedAmong).toBe(500);
        hits.push(...result.hits);
        cursor = result.cursor;
        if (hits.length === 100) await between?.();
      } while (cursor);
      return hits;
    };
    const whole = await pages();
    expect(whole).toHaveLength(500);
    const paged = await pages(async () => void (await core.call('Forget.Session', { sessionId: 'quince-recent' })));
    const expected = whole.filter((h, i) => i < 100 || h.sessionId !== 'quince-recent');
    expect(expected.length).toBeLessThan(500);
    expect(paged.map((h) => h.partId)).toEqual(expected.map((h) => h.partId));
  });
});
