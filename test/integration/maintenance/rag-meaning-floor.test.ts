import { afterEach, describe, expect, it } from 'vitest';
import { formatHits } from '../../../core/cli/commands/repository-search.js';
import { FakeOllama } from '../../support/fake-embedders.js';
import { ollamaConfig, ragRig, type RagRig } from './rag-rig.js';

/**
 * Search by meaning does not fill a list with unrelated items: a hit found by meaning alone must
 * score above what the best unrelated chunk scores by chance for this query, whatever the
 * embedder's scale (the built-in `hash` embedder, and a model served by a loopback Ollama whose
 * unrelated texts sit far from 0). When no item contains the words, the result says so.
 */
const UNRELATED = ['recipe for banana bread with walnuts', 'zebra giraffe elephant', 'quantum chromodynamics lattice gauge theory'];

describe('hits on meaning alone', () => {
  let rig: RagRig | undefined;
  let fake: FakeOllama | undefined;
  afterEach(async () => {
    rig?.cleanup();
    rig = undefined;
    await fake?.stop();
    fake = undefined;
  });

  it('with the hash embedder: a query nothing relates to finds nothing, while words keep every hit they find', async () => {
    rig = ragRig();
    await rig.maintenance.reconcile();
    for (const query of UNRELATED) {
      const answer = await rig.search(query);
      expect(answer.degraded).toBeUndefined();
      expect({ query, hits: answer.hits.map((h) => h.title), wordMatches: answer.wordMatches }).toEqual({ query, hits: [], wordMatches: 0 });
      // The sign-bit scan large indexes use measures chance on a sample of chunks instead of all: the same answer.
      expect((await rig.search(query, { vectorScan: 'quantized' })).hits).toEqual([]);
    }
    const worded = await rig.search('wayland');
    expect(worded.hits.length).toBeGreaterThan(0);
    expect(worded.wordMatches).toBe(worded.hits.length);
    // Only stopwords: the hash embedder gives the zero vector, which is near nothing at all.
    const stopwords = await rig.search('what is this about');
    expect(stopwords.hits.every((h) => h.matchedBy.includes('words'))).toBe(true);
  });

  it('with a model on a loopback Ollama, whose unrelated texts score well above 0: still nothing for an unrelated query', async () => {
    fake = await new FakeOllama({ model: 'nomic-embed-text', dimensions: 64, revision: 'sha256:1111' }).start();
    rig = ragRig({ config: ollamaConfig(fake.url) });
    await rig.maintenance.reconcile();
    const before = fake.calls.length;
    for (const query of UNRELATED) {
      const answer = await rig.search(query);
      expect(answer.degraded).toBeUndefined();
      expect({ query, hits: answer.hits.map((h) => h.title), wordMatches: answer.wordMatches }).toEqual({ query, hits: [], wordMatches: 0 });
    }
    // The queries were embedded by the model: vectors were asked, and found nothing above chance.
    expect(fake.calls.length - before).toBe(UNRELATED.length);
    const related = await rig.search('app crashes after the auto update');
    expect(related.hits.length).toBe(10);
    expect(related.wordMatches).toBeGreaterThan(0);
    expect(related.hits.some((h) => h.matchedBy.includes('meaning'))).toBe(true);
  });

  it('says so plainly when no item contains the words and the hits are only the closest in meaning', async () => {
    fake = await new FakeOllama({ model: 'nomic-embed-text', dimensions: 64, revision: 'sha256:1111' }).start();
    rig = ragRig({ config: ollamaConfig(fake.url) });
    await rig.maintenance.reconcile();
    // The corpus says "encryption" and "encrypted", never this word: words find nothing, the model still ranks some items close.
    const answer = await rig.search('unencrypted');
    expect(answer.wordMatches).toBe(0);
    expect(answer.hits.length).toBeGreaterThan(0);
    expect(answer.hits.length).toBeLessThan(10);
    expect(answer.hits.every((h) => h.matchedBy.join() === 'meaning')).toBe(true);
    expect((await rig.search('unencrypted', { vectorScan: 'quantized' })).hits.length).toBeGreaterThan(0);
    const text = formatHits(answer).split('\n');
    expect(text[0]).toBe('No items contain these words; these are the closest in meaning.');
    expect(text[1]).toMatch(/^1\. .*\[[a-z-]+, meaning\]$/);
    // With words, the sentence is not said.
    expect(formatHits(await rig.search('encryption'))).not.toContain('closest in meaning');
  });
});
