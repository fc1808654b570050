// Maintenance benchmark (spec 004), on the built Core room: repository caches at schema 17 are
// created and enrolled, then we report
//   1. enrollment time per registration as the registry grows (each is one atomic 0600 write + receipt),
//   2. one reconciliation pass over every registration (identity validation, job records, observation),
//      and the longest single registry write (the event loop is blocked for at most that long),
//   3. writer admission: requests per second under identical/different work on one cache UUID,
//   4. migrating a version-1 registry of alias-derived duplicates,
//   5. sync (spec 004's lanes, issue 13): backfilling --issues N issues with --comments N comments from
//      a loopback GitHub-shaped fake forge through Octokit and the cache writer, at 100 per page:
//      requests ÷ the minimum possible (ceil(n/100) per collection), with and without the one-page
//      window overlaps; items/s; the longest event-loop stall; then an idle head refresh (requests per
//      collection, all conditional and answered 304).
// Flags: --caches N (default 20), --repos N per cache (default 5), --issues N (10000), --comments N (30000),
// --only sync, --keep.
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

function flag(flags, name, fallback) {
  const i = flags.indexOf(`--${name}`);
  return i >= 0 && flags[i + 1] !== undefined ? Number(flags[i + 1]) : fallback;
}
const fmt = (n, d = 1) => Number(n).toFixed(d);
const quiet = { info() {}, warn() {}, error() {} };

export async function run(flags) {
  if (flags.includes('--only') && flags[flags.indexOf('--only') + 1] === 'sync') return runSync(flags);
  const ok = await runRegistry(flags);
  return ok && (await runSync(flags));
}

async function runRegistry(flags) {
  const m = await import(join(ROOT, 'dist', 'core', 'maintenance', 'index.js'));
  const caches = flag(flags, 'caches', 20);
  const repos = flag(flags, 'repos', 5);
  const base = mkdtempSync(join(tmpdir(), 'steward-bench-maint-'));
  try {
    const home = join(base, 'home');
    const dir = join(base, 'caches');
    mkdirSync(home);
    mkdirSync(dir);
    const files = [];
    for (let c = 0; c < caches; c += 1) {
      const file = join(dir, `cache-${c}.db`);
      m.createRepositoryCache(file, Array.from({ length: repos }, (_, r) => ({ repoId: `github.com/bench${c}/repo${r}`, aliases: [`bench${c}/repo${r}`] })));
      files.push(file);
    }

    // Track the longest registry write by timing each commit of the live store.
    let longestWrite = 0;
    // A stand-in sync stage: this part measures the coordinator (validation, job records), not sync (part 5 does).
    const maintenance = new m.Maintenance({ home, logger: quiet, runners: { sync: async () => undefined } });
    const commit = maintenance.store.commit.bind(maintenance.store);
    maintenance.store.commit = (mutate) => {
      const t = performance.now();
      try {
        return commit(mutate);
      } finally {
        longestWrite = Math.max(longestWrite, performance.now() - t);
      }
    };

    const t0 = performance.now();
    let n = 0;
    for (let c = 0; c < caches; c += 1)
      for (let r = 0; r < repos; r += 1) maintenance.enroll({ cachePath: files[c], repo: `bench${c}/repo${r}`, idempotencyKey: `bench-${n++}` });
    const enrollMs = performance.now() - t0;
    process.stdout.write(`enrollment: ${n} registrations in ${fmt(enrollMs)} ms (${fmt(enrollMs / n, 2)} ms each, registry ${caches} caches × ${repos} repos)\n`);

    longestWrite = 0;
    const t1 = performance.now();
    const pass = await maintenance.reconcile();
    const passMs = performance.now() - t1;
    process.stdout.write(`reconcile: ${pass.visited} registrations, ${pass.jobs.length} jobs in ${fmt(passMs)} ms; longest registry write ${fmt(longestWrite, 2)} ms\n`);

    const admission = new m.WriterAdmission();
    const requests = 100_000;
    const t2 = performance.now();
    let busy = 0;
    for (let i = 0; i < requests; i += 100) {
      let release;
      const gate = new Promise((resolve) => (release = resolve));
      const batch = Array.from({ length: 100 }, (_, k) => admission.admit('uuid', k % 2 === 0 ? 'same' : `other-${k}`, 'sync', () => gate));
      release();
      for (const outcome of await Promise.allSettled(batch)) if (outcome.status === 'rejected') busy += 1;
    }
    const admitMs = performance.now() - t2;
    process.stdout.write(`admission: ${requests} requests in ${fmt(admitMs)} ms (${fmt((requests / admitMs) * 1000, 0)}/s), ${busy} typed busy\n`);

    const legacyHome = join(base, 'legacy');
    mkdirSync(legacyHome);
    const legacy = [];
    for (let c = 0; c < caches; c += 1)
      for (let r = 0; r < repos; r += 1)
        for (const alias of [`bench${c}/repo${r}`, `Bench${c}/Repo${r}`]) legacy.push({ id: `alias:${alias}`, alias, cachePath: files[c], enabled: true, updatedAt: c * 100 + r });
    copyFileSync(files[0], join(dir, 'clone.db'));
    legacy.push({ id: 'alias:bench0/repo0@clone', alias: 'bench0/repo0', cachePath: join(dir, 'clone.db'), enabled: true, updatedAt: 1 });
    writeFileSync(join(legacyHome, 'managed-caches.json'), JSON.stringify({ version: 1, registrations: legacy }));
    const t3 = performance.now();
    const migrated = new m.Maintenance({ home: legacyHome, logger: quiet });
    const migrateMs = performance.now() - t3;
    const status = migrated.list();
    process.stdout.write(
      `migration: ${legacy.length} v1 records -> ${status.registrations.length} registrations + ${status.conflicts.length} conflict(s) in ${fmt(migrateMs)} ms\n`,
    );
    return true;
  } finally {
    if (!flags.includes('--keep')) rmSync(base, { recursive: true, force: true });
  }
}


// ---------------------------------------------------------------- sync through a fake forge

/** The test suite's fake forge, transpiled on the fly (it is test code, not part of dist/). */
async function transpileFakeForge(dir) {
  const ts = (await import('typescript')).default;
  const source = readFileSync(join(ROOT, 'test', 'support', 'fake-forge.ts'), 'utf8');
  const { outputText } = ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } });
  const file = join(dir, 'fake-forge.mjs');
  writeFileSync(file, outputText);
  return file;
}

/**
 * The fake forge runs in a worker thread with its own event loop, so the stall measured on this
 * thread is Steward's (the lanes and the cache writer), not the fake's page building.
 */
function forgeWorker(file, dataset) {
  const source = `
    import { parentPort, workerData } from 'node:worker_threads';
    const { FakeForge } = await import(workerData.file);
    const forge = new FakeForge({ shape: 'github', token: workerData.token });
    for (let i = 0; i < workerData.issues; i += 1) forge.add('issue');
    for (let c = 0; c < workerData.comments; c += 1) forge.comment(1 + (c % workerData.issues));
    const apiBase = await forge.start();
    parentPort.postMessage({ apiBase });
    parentPort.on('message', async (msg) => {
      if (msg === 'requests') parentPort.postMessage({ requests: forge.requests.map((r) => ({ path: r.path, query: r.query.toString(), conditional: typeof r.headers['if-none-match'] === 'string' })) });
      if (msg === 'stop') { await forge.stop(); parentPort.postMessage({ stopped: true }); }
    });
  `;
  const worker = new Worker(new URL(`data:text/javascript,${encodeURIComponent(source)}`), { workerData: { file: pathToFileURL(file).href, ...dataset } });
  const next = () => new Promise((resolve, reject) => { worker.once('message', resolve); worker.once('error', reject); });
  return {
    ready: next(),
    async requests() {
      const reply = next();
      worker.postMessage('requests');
      return (await reply).requests.map((r) => ({ ...r, query: new URLSearchParams(r.query) }));
    },
    async stop() {
      const reply = next();
      worker.postMessage('stop');
      await reply;
      await worker.terminate();
    },
  };
}

async function runSync(flags) {
  const m = await import(join(ROOT, 'dist', 'core', 'maintenance', 'index.js'));
  const issues = flag(flags, 'issues', 10_000);
  const comments = flag(flags, 'comments', 30_000);
  const base = mkdtempSync(join(tmpdir(), 'steward-bench-sync-'));
  const token = 'ghp_BenchToken0123456789abcdefABCDEF';
  const t0 = performance.now();
  const forge = forgeWorker(await transpileFakeForge(base), { token, issues, comments });
  const { apiBase } = await forge.ready;
  process.stdout.write(`sync dataset: ${issues} issues, ${comments} comments generated in a worker in ${fmt(performance.now() - t0)} ms\n`);
  const home = join(base, 'home');
  mkdirSync(home);
  const maintenance = new m.Maintenance({
    home,
    logger: quiet,
    runners: { sync: m.syncStage({ home, token: () => token }) },
  });
  try {
    maintenance.add({ repo: 'acme/widgets', forge: 'github', baseUrl: apiBase, policy: { collections: ['issues', 'issue-comments'] }, idempotencyKey: 'bench' });

    // Node loads its fetch (undici) on first use: a one-time cost that is not the lanes' own.
    await fetch(apiBase).then((r) => r.arrayBuffer());
    const stall = monitorEventLoopDelay({ resolution: 10 });
    stall.enable();
    const t1 = performance.now();
    let passes = 0;
    for (; passes < 50; passes += 1) {
      await maintenance.reconcileNow();
      const [status] = maintenance.list().registrations;
      if (status.collections.every((c) => c.tail.state === 'complete' && c.head.state === 'fresh')) break;
    }
    const backfillMs = performance.now() - t1;
    stall.disable();
    const [status] = maintenance.list().registrations;
    const listOf = (path) => (r) => r.path.endsWith(path);
    const tailOf = (r) => r.query.get('sort') === 'created';
    const requests = (await forge.requests()).filter((r) => r.path.includes('/api/'));
    const count = (path) => {
      const all = requests.filter(listOf(path));
      const tail = all.filter(tailOf);
      const pages = tail.map((r) => r.query.get('page'));
      return { all: all.length, tail: tail.length, overlap: pages.length - new Set(pages).size };
    };
    const issueReq = count('/repos/acme/widgets/issues');
    const commentReq = count('/repos/acme/widgets/issues/comments');
    const minimum = Math.ceil(issues / 100) + Math.ceil(comments / 100);
    const tail = issueReq.tail + commentReq.tail;
    const overlap = issueReq.overlap + commentReq.overlap;
    const items = status.collections.reduce((sum, c) => sum + c.items, 0);
    process.stdout.write(
      `sync backfill: ${passes + 1} passes, ${requests.length} requests in all (${issueReq.all} issues, ${commentReq.all} comments, the rest head/pending)\n` +
        `  tail requests ${tail} ÷ minimum ${minimum} = ${fmt(tail / minimum, 3)}; without the ${overlap} overlap pages ${fmt((tail - overlap) / minimum, 3)} (target ≤ 1.1)\n` +
        `  all requests ÷ minimum = ${fmt(requests.length / minimum, 3)}\n` +
        `  ${items} items cached (${status.collections.map((c) => `${c.collection} ${c.items}`).join(', ')}) in ${fmt(backfillMs / 1000, 2)} s: ${fmt(items / (backfillMs / 1000), 0)} items/s through the fake forge and the cache writer\n` +
        `  longest event-loop stall ${fmt(stall.max / 1e6, 1)} ms (p99 ${fmt(stall.percentile(99) / 1e6, 1)} ms)\n`,
    );

    await maintenance.reconcileNow();
    const before = (await forge.requests()).length;
    const t2 = performance.now();
    await maintenance.reconcileNow();
    const idle = (await forge.requests()).slice(before);
    const conditional = idle.filter((r) => r.conditional).length;
    process.stdout.write(
      `sync idle head: ${idle.length} requests for ${status.collections.length} collections (${fmt(idle.length / status.collections.length, 2)} per collection), ${conditional} conditional, in ${fmt(performance.now() - t2)} ms\n`,
    );
    return items === issues + comments;
  } finally {
    await maintenance.stop();
    await forge.stop();
    if (!flags.includes('--keep')) rmSync(base, { recursive: true, force: true });
  }
}
