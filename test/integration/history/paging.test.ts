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
