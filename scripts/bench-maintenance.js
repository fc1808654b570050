// Maintenance benchmark (spec 004), on the built Core room: repository caches at schema 17 are
// created and enrolled, then we report
//   1. enrollment time per registration as the registry grows (each is one atomic 0600 write + receipt),
//   2. one reconciliation pass over every registration (identity validation, job records, observation),
//      and the longest single registry write (the event loop is blocked for at most that long),
//   3. writer admission: requests per second under identical/different work on one cache UUID,
//   4. migrating a version-1 registry of alias-derived duplicates.
// Flags: --caches N (default 20), --repos N per cache (default 5), --keep.
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

function flag(flags, name, fallback) {
  const i = flags.indexOf(`--${name}`);
  return i >= 0 && flags[i + 1] !== undefined ? Number(flags[i + 1]) : fallback;
}
const fmt = (n, d = 1) => Number(n).toFixed(d);
const quiet = { info() {}, warn() {}, error() {} };

export async function run(flags) {
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
    const maintenance = new m.Maintenance({ home, logger: quiet });
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
