import { readFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ragStage } from '../../../core/maintenance/index.js';
import { searchCache, type SearchRequest } from '../../../core/maintenance/rag/retrieval.js';
import { openRagCache } from '../../../core/maintenance/rag/store.js';
import { DEFAULT_CONFIG_SNAPSHOT } from '../../../core/maintenance/schema.js';
import { fixture, type Fixture } from '../../unit/maintenance/support.js';
import { CorpusWriter, labelsByUrl, loadFixtureCorpus } from '../../support/repository-cache.js';

interface Labelled {
  id: string;
  query: string;
  relevant: string[];
}

const QUERIES = (JSON.parse(readFileSync(fileURLToPath(new URL('../../fixtures/rag/queries.json', import.meta.url)), 'utf8')) as { queries: Labelled[] }).queries;
const REPO = 'github.com/inkwell-app/inkwell';

/**
 * Retrieval quality on the fixture corpus (206 issues, comments and wiki pages) with the 43 queries
 * labelled before any retrieval code existed: recall@5 for BM25 alone, the `hash` embedder alone and
 * hybrid (reciprocal rank fusion), through the real index run and the real search path.
 */
describe('retrieval quality on the labelled fixture corpus', () => {
  let f: Fixture;
  let cache: string;
  const recall: Record<'words' | 'meaning' | 'hybrid' | 'quantized', number> = { words: 0, meaning: 0, hybrid: 0, quantized: 0 };
  const perQuery: Array<{ id: string; words: number; meaning: number; hybrid: number; quantized: number }> = [];

  beforeAll(async () => {
    f = fixture();
    cache = f.cache('inkwell.db', [{ repoId: REPO, aliases: ['inkwell-app/inkwell'] }]);
    const corpus = loadFixtureCorpus();
    const writer = new CorpusWriter(cache, REPO);
    writer.seed(corpus);
    writer.close();
    const rag = ragStage({ home: f.home.dir });
    const maintenance = f.open({ runners: { rag } });
    maintenance.enroll({ cachePath: cache, repo: 'inkwell-app/inkwell', policy: { sync: 'off', rag: 'maintain' }, idempotencyKey: 'quality' });
    const pass = await maintenance.reconcile();
    expect(pass.jobs.map((j) => [j.stage, j.state])).toEqual([['rag', 'succeeded']]);
    const labels = labelsByUrl(corpus);
    const db = openRagCache(cache, true);
    try {
      for (const q of QUERIES) {
        const row = { id: q.id, words: 0, meaning: 0, hybrid: 0, quantized: 0 };
        for (const mode of ['words', 'meaning', 'hybrid', 'quantized'] as const) {
          // `quantized`: the vectors alone through the sign-bit scan large indexes use, instead of an exact re-rank of all.
          const request: SearchRequest = { repoId: REPO, query: q.query, limit: 5, ...(mode === 'quantized' ? { mode: 'meaning', vectorScan: 'quantized' } : { mode }) };
          const { hits } = await searchCache(db, request, { snapshot: DEFAULT_CONFIG_SNAPSHOT, policy: {}, deps: rag.deps });
          const found = hits.map((h) => labels.get(h.url ?? '')).filter((l) => l !== undefined && q.relevant.includes(l)).length;
          row[mode] = found / Math.min(q.relevant.length, 5);
          recall[mode] += row[mode] / QUERIES.length;
        }
        perQuery.push(row);
      }
    } finally {
      db.close();
    }
  });

  afterAll(() => {
    f?.home.cleanup();
    if (f) rmSync(f.caches, { recursive: true, force: true });
  });

  it('reports recall@5 for BM25 alone, hash alone and hybrid; hybrid is at least 0.8 and at least BM25 alone; quantization keeps hash recall', () => {
    const line = (name: string, value: number) => `${name.padEnd(30)} recall@5 = ${value.toFixed(3)}`;
    process.stdout.write(`\n${line('bm25', recall.words)}\n${line('hash', recall.meaning)}\n${line('hybrid', recall.hybrid)}\n${line('hash, sign-bit scan + re-rank', recall.quantized)}\n`);
    process.stdout.write(
      `weakest hybrid queries: ${perQuery
        .filter((q) => q.hybrid < 0.5)
        .map((q) => `${q.id} (${q.hybrid.toFixed(2)})`)
        .join(', ') || 'none'}\n`,
    );
    expect(QUERIES.length).toBeGreaterThanOrEqual(30);
    expect(recall.hybrid).toBeGreaterThanOrEqual(0.8);
    expect(recall.hybrid).toBeGreaterThanOrEqual(recall.words);
    // The vectors must carry signal of their own, or "hybrid" is BM25 with noise added.
    expect(recall.meaning).toBeGreaterThan(0.4);
    // Binary quantization is allowed where recall holds: the scan large indexes use loses little here.
    expect(recall.quantized).toBeGreaterThanOrEqual(recall.meaning - 0.05);
  });
});
