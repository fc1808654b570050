import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { vecTableOf, type RagStore } from '../../../core/maintenance/rag/store.js';
import { DEFAULT_CONFIG_SNAPSHOT } from '../../../core/maintenance/schema.js';
import { ragRig, REPO, type RagRig } from './rag-rig.js';

/** Rows in each place a chunk's index lives: chunks, the FTS index, embeddings and the vec0 table. */
function counts(s: RagStore): { chunks: number; fts: number; embeddings: number; vec: number; orphans: number } {
  const one = (sql: string) => s.db.prepare(sql).pluck().get() as number;
  const ns = s.selection(REPO)!.namespaceId!;
  return {
    chunks: one('SELECT COUNT(*) FROM chunks'),
    fts: one('SELECT COUNT(*) FROM rag_chunks_fts_docsize'),
    embeddings: one('SELECT COUNT(*) FROM rag_embeddings'),
    vec: one(`SELECT COUNT(*) FROM ${vecTableOf(ns)}`),
    orphans: one('SELECT COUNT(*) FROM rag_vec_orphans'),
  };
}

describe('the index run keeps chunks, full-text rows, embeddings and vec0 rows in step', () => {
  let rig: RagRig;
  afterEach(() => rig?.cleanup());

  it('indexes every source once, and a second pass over unchanged content does no work', async () => {
    rig = ragRig({ issues: 20 });
    await rig.maintenance.reconcile();
    const report = rig.rag.reports.get(rig.registrationId)!;
    const sources = rig.peek((s) => s.db.prepare('SELECT COUNT(*) FROM sources').pluck().get() as number);
    expect(report.sourcesChunked).toBe(sources);
    expect(report.skipped).toEqual({ no_text: 0, changed: 0 });
    const c = rig.peek(counts);
    expect(c).toEqual({ chunks: report.chunksWritten, fts: report.chunksWritten, embeddings: report.chunksWritten, vec: report.chunksWritten, orphans: 0 });

    // A timestamp-only rewrite moves no generation and costs nothing.
    const w = rig.writer();
    const generation = w.generation();
    w.db.prepare('UPDATE sources SET updated_at = updated_at + 1000').run();
    expect(w.generation()).toBe(generation);
    await rig.maintenance.reconcile();
    expect(rig.rag.reports.get(rig.registrationId)).toMatchObject({ sourcesChunked: 0, chunksEmbedded: 0, changedDuringRun: false });
  });

  it("skips the owner's timer pass while the index is current, runs again once content changes, and records a person's pass only when it did work", async () => {
    rig = ragRig({ issues: 6, wiki: false, stage: { resolveIntervalMs: 3_600_000 } });
    expect((await rig.maintenance.reconcile()).jobs.map((j) => `${j.stage}/${j.state}`)).toEqual(['rag/succeeded']);
    const idle = await rig.maintenance.reconcile();
    expect(idle.jobs).toEqual([]);
    expect(idle.skipped).toEqual([expect.objectContaining({ stage: 'rag', lane: 'index', reason: 'index_current' })]);
    expect(rig.maintenance.list().registrations[0]!.state).toBe('ready');

    const w = rig.writer();
    w.issue({ ...rig.corpus.issues[0]!, body: 'A new body that the index has not seen.' });
    expect(rig.maintenance.list().registrations[0]!.generations.covered).toBeLessThan(w.generation());
    w.close();
    expect((await rig.maintenance.reconcile()).jobs.map((j) => `${j.stage}/${j.state}`)).toEqual(['rag/succeeded']);
    const asked = await rig.maintenance.reconcileNow();
    expect(asked.jobs).toEqual([]);
    expect(asked.skipped).toEqual([expect.objectContaining({ stage: 'rag', lane: 'index', reason: 'index_current' })]);
  });

  it('replaces an edited source: its old chunks leave the FTS index, their embeddings cascade and their vec0 rows are drained', async () => {
    rig = ragRig({ issues: 20, wiki: false });
    await rig.maintenance.reconcile();
    const before = rig.peek(counts);
    const issue = rig.corpus.issues[4]!;
    expect((await rig.search('wayland fractional scaling blank window')).hits[0]!.number).toBe(issue.number);

    const w = rig.writer();
    w.issue({ ...issue, title: 'Blank window with a tiling window manager', body: 'Under the sway compositor the window never paints; xdg-decoration seems involved.' });
    // The sync writer dropped the source's chunks: their embeddings went by cascade, their vec0 rows wait in the queue.
    const dropped = rig.peek(counts);
    expect(dropped.chunks).toBe(before.chunks - 1);
    expect(dropped.embeddings).toBe(before.embeddings - 1);
    expect(dropped.vec).toBe(before.vec);
    expect(dropped.orphans).toBe(1);

    await rig.maintenance.reconcile();
    expect(rig.rag.reports.get(rig.registrationId)).toMatchObject({ sourcesChunked: 1, chunksEmbedded: 1 });
    expect(rig.peek(counts)).toEqual({ ...before, orphans: 0 });
    const after = await rig.search('sway compositor xdg-decoration');
    expect(after.hits[0]).toMatchObject({ number: issue.number, title: 'Blank window with a tiling window manager' });
    const old = await rig.search('fractional scaling');
    expect(old.hits.filter((h) => h.number === issue.number && h.collection === 'issues')).toEqual([]);
  });

  it('a tombstoned item leaves every index, through the foreign-key cascade and the orphan queue', async () => {
    rig = ragRig({ issues: 20, wiki: false });
    await rig.maintenance.reconcile();
    const before = rig.peek(counts);
    const issue = rig.corpus.issues[10]!;
    const w = rig.writer();
    w.tombstoneIssue(issue);
    await rig.maintenance.reconcile();
    const after = rig.peek(counts);
    expect(after.chunks).toBe(before.chunks - 1);
    expect(after).toEqual({ chunks: after.chunks, fts: after.chunks, embeddings: after.chunks, vec: after.chunks, orphans: 0 });
    const { hits } = await rig.search(issue.title);
    expect(hits.some((h) => h.collection === 'issues' && h.number === issue.number)).toBe(false);
  });

  it('re-cuts every source under a new chunk policy, in a new namespace, leaving nothing of the old one', async () => {
    rig = ragRig({ issues: 20 });
    await rig.maintenance.reconcile();
    const oldNs = rig.peek((s) => s.selection(REPO)!.namespaceId!);
    rig.reconfigure({ ...DEFAULT_CONFIG_SNAPSHOT, chunk: { max_chars: 300, overlap: 40 } });
    await rig.maintenance.reconcile();
    const report = rig.rag.reports.get(rig.registrationId)!;
    expect(report.sourcesChunked).toBe(rig.peek((s) => s.db.prepare('SELECT COUNT(*) FROM sources').pluck().get() as number));
    const c = rig.peek(counts);
    expect(c.chunks).toBeGreaterThan(report.sourcesChunked);
    expect(c).toEqual({ chunks: c.chunks, fts: c.chunks, embeddings: c.chunks, vec: c.chunks, orphans: 0 });
    expect(rig.peek((s) => s.namespace(oldNs))).toBeNull();
    expect(rig.peek((s) => s.db.prepare("SELECT COUNT(*) FROM sqlite_master WHERE name = ?").pluck().get(vecTableOf(oldNs)))).toBe(0);
  });

  it('counts a source with no text to index instead of dropping it silently', async () => {
    rig = ragRig({ issues: 3, wiki: false });
    const db = new Database(rig.cache);
    db.prepare("INSERT INTO sources (repo_id, kind, external_id, content_hash, updated_at) VALUES (?, 'pulls', 'gone-77', 'h', 0)").run(REPO);
    db.close();
    await rig.maintenance.reconcile();
    expect(rig.rag.reports.get(rig.registrationId)!.skipped).toEqual({ no_text: 1, changed: 0 });
    const info = rig.f.logger.lines.find((l) => l.includes('rag index run'));
    expect(info).toMatch(/skippedNoText[^0-9]+1\b/);
  });
});
