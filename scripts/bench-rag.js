// Retrieval benchmark (spec 004's RAG half), on the built maintenance room: a repository cache of
// synthetic issues (Zipf-distributed words, Markdown bodies) indexed with the built-in `hash` profile
// through a real reconcile, then
//   1. index throughput (chunks/s) and the longest event-loop stall during the run,
//   2. query latency p50/p95: hybrid (BM25 + vectors, fused) beside FTS-only, in the same run, on one
//      open connection and through `Repository.Search`'s own path (opening the cache per query),
//   3. how well the binary-quantized vec0 scan + exact re-rank holds up against an exact scan
//      (recall@10 of the vector list),
//   4. re-index work after editing 1% of the items, as a share of the full index (chunks embedded, time).
// Flags: --chunks N (default 100000), --queries N (default 200), --keep.
import { mkdirSync, mkdtempSync, rmSync, statfsSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const REPO = 'bench.example/acme/notes';
const ALIAS = 'acme/notes';

function flag(flags, name, fallback) {
  const i = flags.indexOf(`--${name}`);
  return i >= 0 && flags[i + 1] !== undefined ? Number(flags[i + 1]) : fallback;
}
const fmt = (n, d = 1) => Number(n).toFixed(d);
const quiet = { info() {}, warn() {}, error() {} };
const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};

/** A deterministic PRNG (mulberry32), so every run indexes the same corpus. */
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const TECH =
  'sync vault note notes editor plugin export import search index crash startup slow memory leak window linux windows macos wayland proxy webdav s3 dropbox ' +
  'conflict copy file folder attachment image table markdown preview theme css keyboard shortcut mobile android ios battery update installer token api ' +
  'graph tag frontmatter yaml template daily backup git commit restore trash encryption key password cache database timeout error warning log';

function vocabulary(random, size) {
  const syllables = ['ka', 'lo', 'mi', 'ne', 'ru', 'sa', 'ti', 'vo', 'ze', 'pa', 'qui', 'dor', 'fen', 'gal', 'hum', 'jor', 'bel', 'cra', 'st', 'ion'];
  const words = new Set(TECH.split(' '));
  while (words.size < size) {
    const n = 2 + Math.floor(random() * 3);
    let w = '';
    for (let i = 0; i < n; i += 1) w += syllables[Math.floor(random() * syllables.length)];
    words.add(w);
  }
  return [...words];
}

/** Zipf sampler over the vocabulary (s = 1.05), by inverse CDF over precomputed weights. */
function zipf(words, random) {
  const cdf = [];
  let total = 0;
  for (let r = 1; r <= words.length; r += 1) cdf.push((total += 1 / r ** 1.05));
  return () => {
    const x = random() * total;
    let lo = 0;
    let hi = cdf.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cdf[mid] < x) lo = mid + 1;
      else hi = mid;
    }
    return words[lo];
  };
}

function sentence(word, random, min, max) {
  const n = min + Math.floor(random() * (max - min));
  return Array.from({ length: n }, word).join(' ');
}

/**
 * Issues have topics, as real trackers do: each draws most of its words from its topic's own small
 * vocabulary (Zipf within the topic) and the rest from the whole language, so near neighbours exist.
 */
function topics(words, random, count) {
  const pick = zipf(words, random);
  const all = Array.from({ length: count }, () => {
    const own = [...new Set(Array.from({ length: 40 }, pick))];
    return zipf(own.length > 0 ? own : words, random);
  });
  const choose = zipf(all, random);
  return () => {
    const topic = choose();
    return () => (random() < 0.6 ? topic() : pick());
  };
}

function issueText(topicWord, random) {
  const word = topicWord();
  const title = sentence(word, random, 5, 10);
  const parts = [];
  for (let p = 0, n = 2 + Math.floor(random() * 3); p < n; p += 1) {
    if (random() < 0.2) parts.push(`### ${sentence(word, random, 2, 4)}`);
    parts.push(`${sentence(word, random, 15, 45)}.`);
  }
  if (random() < 0.25) parts.push(['```', `${word()} = ${word()}(${word()})`, `${word()}.${word()}()`, '```'].join('\n'));
  return { title, body: parts.join('\n\n') };
}

function record(n, { title, body }) {
  return {
    type: 'item',
    collection: 'issues',
    externalId: String(n),
    number: n,
    title,
    body,
    state: 'open',
    author: 'bench',
    labels: [],
    url: `https://bench.example/acme/notes/issues/${n}`,
    createdAt: n,
    updatedAt: n,
    closedAt: null,
    commentCount: 0,
  };
}

/** Items written as the sync lanes write them: the lanes' own CacheWriter, one transaction per thousand. */
function seed(lanes, file, items, topicWord, random) {
  const db = new Database(file);
  db.pragma('foreign_keys = ON');
  const writer = new lanes.CacheWriter(db, REPO, Date.now);
  const titles = [];
  for (let start = 1; start <= items; start += 1000) {
    writer.transaction(() => {
      for (let n = start; n < Math.min(items + 1, start + 1000); n += 1) {
        const text = issueText(topicWord, random);
        titles.push(text.title);
        writer.upsertItem(record(n, text), 'issues', 1);
      }
    });
  }
  db.close();
  return titles;
}

/** An edit as the sync lanes make it: new text, a new source hash, the stale chunks dropped. */
function edit(lanes, file, numbers, topicWord, random) {
  const db = new Database(file);
  db.pragma('foreign_keys = ON');
  const writer = new lanes.CacheWriter(db, REPO, Date.now);
  writer.transaction(() => {
    for (const n of numbers) writer.upsertItem({ ...record(n, issueText(topicWord, random)), updatedAt: n + 1 }, 'issues', 1);
  });
  db.close();
}

/** The longest gap between 5 ms timer ticks while `work` runs: how long the event loop was blocked. */
async function stalls(work) {
  let last = performance.now();
  let longest = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last - 5);
    last = now;
  }, 5);
  try {
    const value = await work();
    return { value, longest };
  } finally {
    clearInterval(timer);
  }
}

export async function run(flags) {
  const target = flag(flags, 'chunks', 100_000);
  const queryCount = flag(flags, 'queries', 200);
  const base = mkdtempSync(join(tmpdir(), 'steward-bench-rag-'));
  const free = (() => {
    const s = statfsSync(base);
    return s.bavail * s.bsize;
  })();
  // About 3 KB per chunk across items, chunks, FTS, embeddings and vec0, twice over for headroom.
  const needed = target * 6 * 1024;
  process.stdout.write(`disk: ${fmt(free / 2 ** 30, 1)} GiB free in ${tmpdir()}, about ${fmt(needed / 2 ** 30, 2)} GiB needed\n`);
  if (free < needed) {
    process.stderr.write('bench rag: not enough free disk; pass a smaller --chunks\n');
    rmSync(base, { recursive: true, force: true });
    return false;
  }
  const m = await import(join(ROOT, 'dist', 'core', 'maintenance', 'index.js'));
  const { searchCache } = await import(join(ROOT, 'dist', 'core', 'maintenance', 'rag', 'retrieval.js'));
  const { openRagCache, RagStore } = await import(join(ROOT, 'dist', 'core', 'maintenance', 'rag', 'store.js'));
  const { hashEmbed } = await import(join(ROOT, 'dist', 'core', 'maintenance', 'rag', 'embedders', 'hash.js'));
  const { DEFAULT_CONFIG_SNAPSHOT } = await import(join(ROOT, 'dist', 'core', 'maintenance', 'schema.js'));
  const lanes = await import(join(ROOT, 'dist', 'core', 'maintenance', 'lanes', 'store.js'));
  try {
    const home = join(base, 'home');
    mkdirSync(home);
    const file = join(base, 'bench.db');
    m.createRepositoryCache(file, [{ repoId: REPO, aliases: [ALIAS] }]);
    const random = rng(2024);
    const language = vocabulary(random, 6000);
    const word = zipf(language, random);
    const topicWord = topics(language, random, 400);
    const t0 = performance.now();
    const titles = seed(lanes, file, target, topicWord, random);
    process.stdout.write(`seed: ${target} issues in ${fmt((performance.now() - t0) / 1000, 1)} s\n`);

    const rag = m.ragStage({ home, logger: quiet });
    const maintenance = new m.Maintenance({ home, logger: quiet, runners: { rag } });
    const { registrationId } = maintenance.enroll({ cachePath: file, repo: ALIAS, policy: { sync: 'off', rag: 'maintain' }, idempotencyKey: 'bench' });

    const t1 = performance.now();
    const { value: pass, longest } = await stalls(() => maintenance.reconcile());
    const indexMs = performance.now() - t1;
    if (pass.jobs[0]?.state !== 'succeeded') throw new Error(`index run ${pass.jobs[0]?.state}: ${pass.jobs[0]?.errorClass}`);
    const full = rag.reports.get(registrationId);
    process.stdout.write(
      `index (hash, 384 dims): ${full.chunksWritten} chunks from ${full.sourcesChunked} sources in ${fmt(indexMs / 1000, 1)} s = ${fmt((full.chunksWritten / indexMs) * 1000, 0)} chunks/s; ` +
        `event loop blocked at most ${fmt(longest, 1)} ms\n`,
    );

    const db = openRagCache(file, true);
    const profile = { snapshot: DEFAULT_CONFIG_SNAPSHOT, policy: {}, deps: rag.deps };
    const queries = Array.from({ length: queryCount }, () => {
      const title = titles[Math.floor(random() * titles.length)].split(' ');
      return [title[0], title[Math.floor(title.length / 2)], word()].join(' ');
    });
    for (const q of queries.slice(0, 10)) {
      await searchCache(db, { repoId: REPO, query: q, limit: 10 }, profile);
      await searchCache(db, { repoId: REPO, query: q, limit: 10, mode: 'words' }, profile);
    }
    // Wall time is what a person waits; CPU time is the same work without the other processes of a
    // shared machine (the load average is printed beside them).
    const timed = async (work) => {
      const cpu0 = process.cpuUsage();
      const t = performance.now();
      const value = await work();
      const cpu = process.cpuUsage(cpu0);
      return { value, wall: performance.now() - t, cpu: (cpu.user + cpu.system) / 1000 };
    };
    const hybrid = [];
    const words = [];
    const hybridCpu = [];
    const wordsCpu = [];
    for (const q of queries) {
      const h = await timed(() => searchCache(db, { repoId: REPO, query: q, limit: 10 }, profile));
      if (h.value.degraded) throw new Error(`hybrid search degraded: ${h.value.degraded}`);
      hybrid.push(h.wall);
      hybridCpu.push(h.cpu);
      const w = await timed(() => searchCache(db, { repoId: REPO, query: q, limit: 10, mode: 'words' }, profile));
      words.push(w.wall);
      wordsCpu.push(w.cpu);
    }
    const search = new m.RepositorySearch(() => maintenance.store.current().registrations, rag.deps);
    const opened = [];
    for (const q of queries.slice(0, 50)) {
      const t = performance.now();
      await search.search({ repo: ALIAS, query: q, limit: 10 });
      opened.push(performance.now() - t);
    }
    const row = (name, values) => `${name.padEnd(44)} p50 ${fmt(percentile(values, 50), 1).padStart(6)} ms   p95 ${fmt(percentile(values, 95), 1).padStart(6)} ms`;
    process.stdout.write(`query latency at ${full.chunksWritten} chunks (${queries.length} queries, limit 10; load average ${loadavg().map((l) => fmt(l, 1)).join(' ')} on ${cpus().length} cores):\n`);
    process.stdout.write(`  ${row('FTS only (BM25), wall', words)}\n  ${row('hybrid (BM25 + vectors, RRF), wall', hybrid)}\n`);
    process.stdout.write(`  ${row('FTS only (BM25), CPU', wordsCpu)}\n  ${row('hybrid (BM25 + vectors, RRF), CPU', hybridCpu)}\n`);
    process.stdout.write(`  ${row('hybrid, opening the cache per query, wall', opened)}\n`);
    process.stdout.write(`  hybrid p95 / FTS-only p95 = ${fmt(percentile(hybrid, 95) / percentile(words, 95), 2)} (wall), ${fmt(percentile(hybridCpu, 95) / percentile(wordsCpu, 95), 2)} (CPU)\n`);

    // The vector list as served (sign bits from vec0, then an exact int8 re-rank) against an exact scan of every vector.
    const store = new RagStore(db);
    const ns = store.selection(REPO).namespaceId;
    const all = db.prepare('SELECT e.vector, i.url FROM rag_embeddings e JOIN chunks c ON c.chunk_id = e.chunk_id JOIN sources s ON s.source_id = c.source_id JOIN items i ON i.repo_id = s.repo_id AND i.collection = s.kind AND i.external_id = s.external_id WHERE e.namespace_id = ?').all(ns);
    const vectors = all.map((r) => new Int8Array(r.vector.buffer, r.vector.byteOffset, r.vector.byteLength));
    const norms = vectors.map((v) => Math.sqrt(v.reduce((s, x) => s + x * x, 0)) || 1);
    let overlap = 0;
    const sample = queries.slice(0, 40);
    for (const q of sample) {
      const qv = hashEmbed(q, 384);
      const scores = vectors.map((v, i) => {
        let dot = 0;
        for (let k = 0; k < v.length; k += 1) dot += qv[k] * v[k];
        return [dot / norms[i], i];
      });
      scores.sort((a, b) => b[0] - a[0]);
      const exact = new Set(scores.slice(0, 10).map(([, i]) => all[i].url));
      const served = await searchCache(db, { repoId: REPO, query: q, limit: 10, mode: 'meaning' }, profile);
      overlap += served.hits.filter((h) => exact.has(h.url)).length / 10;
    }
    process.stdout.write(`vector list recall@10 (binary-quantized scan + re-rank vs exact scan): ${fmt(overlap / sample.length, 3)}\n`);
    db.close();

    const edited = Array.from({ length: Math.max(1, Math.round(target / 100)) }, (_, i) => 1 + Math.floor((i * target) / Math.max(1, Math.round(target / 100))));
    edit(lanes, file, edited, topicWord, random);
    const t2 = performance.now();
    await maintenance.reconcile();
    const reindexMs = performance.now() - t2;
    const again = rag.reports.get(registrationId);
    process.stdout.write(
      `re-index after editing ${edited.length} of ${target} items (1%): ${again.chunksEmbedded} chunks embedded in ${fmt(reindexMs / 1000, 2)} s; ` +
        `work ratio ${fmt(again.chunksEmbedded / full.chunksEmbedded, 4)} (chunks), ${fmt(reindexMs / indexMs, 4)} (time) of the full index\n`,
    );
    await maintenance.stop();
    return true;
  } finally {
    if (!flags.includes('--keep')) rmSync(base, { recursive: true, force: true });
    else process.stdout.write(`kept: ${base}\n`);
  }
}
