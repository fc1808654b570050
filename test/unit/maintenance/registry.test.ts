import { existsSync, mkdirSync, readFileSync, rmdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { StewardError } from '../../../core/api/index.js';
import { createRepositoryCache, type Maintenance } from '../../../core/maintenance/index.js';
import { configHashOf, registrationIdFor } from '../../../core/maintenance/identity.js';
import { DEFAULT_CONFIG_SNAPSHOT, RegistryV1 } from '../../../core/maintenance/schema.js';
import { inspectCache } from '../../../core/maintenance/cache.js';
import { migrateV1 } from '../../../core/maintenance/migrate.js';
import { pathFingerprinter, SECRET_FILE } from '../../../core/maintenance/hashing.js';
import { serializeRegistry } from '../../../core/maintenance/registry.js';
import { coalesce } from '../../../core/maintenance/identity.js';
import { fixture, GADGETS, WIDGETS, type Fixture } from './support.js';

/** The snapshot registry-v2.json's registrations were confirmed with (words only, the default before `hash`). */
const FIXTURE_SNAPSHOT = { ...DEFAULT_CONFIG_SNAPSHOT, embedding: { provider: 'none' as const, model: 'none' } };

const FIXTURES = join(import.meta.dirname, '..', '..', 'fixtures', 'maintenance');
const SECRET_HEX = 'ab'.repeat(32);

function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\$\{([A-Z_]+)\}/g, (_, key: string) => {
    if (!(key in values)) throw new Error(`fixture placeholder ${key} has no value`);
    return values[key]!;
  });
}

function codeOf(work: () => unknown): string {
  try {
    work();
  } catch (error) {
    return error instanceof StewardError ? error.code : `untyped:${String(error)}`;
  }
  return 'no error';
}

interface V1Setup {
  values: Record<string, string>;
  text: string;
}

function v1Setup(f: Fixture, reverse = false): V1Setup {
  const a = f.cache('a.db', [WIDGETS, GADGETS]);
  const b = f.cache('b.db', [{ repoId: 'github.com/acme/gizmos', aliases: ['acme/gizmos'] }]);
  const c = f.cache('c.db', [{ repoId: 'github.com/acme/sprockets', aliases: ['acme/sprockets'] }]);
  const values = { CACHE_A: a, CACHE_B: b, CACHE_C: c, CACHE_C_COPY: f.copy(c, 'c-copy.db'), MISSING: join(f.caches, 'not-there.db') };
  const raw = JSON.parse(fill(readFileSync(join(FIXTURES, 'registry-v1.json'), 'utf8'), values)) as { registrations: unknown[] };
  if (reverse) raw.registrations.reverse();
  return { values, text: JSON.stringify(raw, null, 2) };
}

describe('managed-caches.json', () => {
  let f: Fixture;
  afterEach(() => {
    f?.home.cleanup();
    if (f) rmSync(f.caches, { recursive: true, force: true });
  });

  it('migrates a version-1 registry with duplicates and redirects into version 2, coalescing deterministically', () => {
    f = fixture();
    const { text, values } = v1Setup(f);
    writeFileSync(join(f.home.dir, 'managed-caches.json'), text);
    const m = f.open();
    expect(m.store.load.state).toBe('migrated');
    const registry = m.store.current();
    const uuidA = inspectCache(values.CACHE_A!, pathFingerprinter(Buffer.alloc(32))).cacheUuid;
    const widgetsId = registrationIdFor(uuidA, 'github.com/acme/widgets');
    const gadgetsId = registrationIdFor(uuidA, 'github.com/acme/gadgets');
    expect(registry.registrations.map((r) => r.registrationId).sort()).toEqual([gadgetsId, widgetsId].sort());

    const widgets = registry.registrations.find((r) => r.registrationId === widgetsId)!;
    expect(widgets.aliases).toEqual(['Acme/Widgets-Legacy', 'acme/widgets']);
    expect(widgets.legacyIds).toEqual(['alias:Acme/Widgets-Legacy', 'alias:acme/widgets']);
    // Newest lifecycle evidence (updatedAt 2000) was disabled; the conservative backoff survives.
    expect(widgets.enabled).toBe(false);
    expect(widgets.stages.sync).toMatchObject({ errorClass: 'forge_timeout', failures: 3, nextAttemptAt: 5000, lastFailureAt: 1500 });
    expect(widgets.stages.rag.lastSuccessAt).toBe(1900);
    expect(widgets.terminalJobIds).toEqual(['job_a1', 'job_b1']);
    // Equivalent repository-document authorities: one canonical source id, durable redirects.
    expect(widgets.sources).toHaveLength(1);
    expect(registry.sourceRedirects['docs-old']).toBe(widgets.sources[0]!.sourceId);
    expect(registry.sourceRedirects['docs-new']).toBe(widgets.sources[0]!.sourceId);
    // A later success supersedes an older failure.
    expect(registry.registrations.find((r) => r.registrationId === gadgetsId)!.stages.sync).toMatchObject({ errorClass: null, failures: 0, nextAttemptAt: null });
    // Redirects from legacy ids, followed to the end of the chain; a cycle leads nowhere.
    expect(registry.redirects['alias:acme/widgets']).toBe(widgetsId);
    expect(registry.redirects['alias:Acme/Widgets-Legacy']).toBe(widgetsId);
    expect(registry.redirects['widgets-v0']).toBe(widgetsId);
    expect(registry.redirects['loop-a']).toBeUndefined();
    expect(registry.receipts.map((r) => r.key)).toEqual(['setup-1', 'setup-2']);

    const kinds = m.conflicts().map((c) => [c.kind, c.candidates.length, c.state]);
    expect(kinds.sort()).toEqual(
      [
        ['cache_clone_conflict', 2, 'open'],
        ['identity_conflict', 0, 'blocked'],
        ['identity_conflict', 2, 'open'],
        ['identity_unresolved', 2, 'open'],
      ].sort(),
    );
    const lossy = m.conflicts().find((c) => c.state === 'blocked')!;
    expect(lossy.blockedReason).toMatch(/recovery evidence is unavailable/);
    expect(codeOf(() => m.plan(lossy.conflictId, 'any'))).toBe('identity_conflict');
    // A disabled registration found through a legacy id (redirect), and the old file kept aside.
    expect(m.enable('widgets-v0').registrationId).toBe(widgetsId);
    expect(existsSync(join(f.home.dir, 'managed-caches.json.v1.bak'))).toBe(true);
  });

  it('keeps an unavailable legacy cohort unresolved until its cache is back, then rebinds exact matches on an explicit pick', async () => {
    f = fixture();
    const { text, values } = v1Setup(f);
    writeFileSync(join(f.home.dir, 'managed-caches.json'), text);
    const m = f.open();
    const unresolved = m.conflicts().find((c) => c.kind === 'identity_unresolved')!;
    expect(unresolved.legacyIds).toEqual(['alias:ACME/missing', 'alias:acme/missing']);
    const pick = unresolved.candidates[0]!;
    expect(codeOf(() => m.plan(unresolved.conflictId, pick.candidateId))).toBe('identity_unresolved');
    createRepositoryCache(values.MISSING!, [{ repoId: 'github.com/acme/missing', aliases: ['acme/missing'] }]);
    const plan = m.plan(unresolved.conflictId, pick.candidateId);
    expect(plan.effects.map((e) => e.effect)).toEqual(['rebind', 'rebind']);
    const applied = await m.apply(plan.planId, 'rebind-1');
    expect(applied.restored).toHaveLength(1);
    expect(m.conflicts().some((c) => c.kind === 'identity_unresolved')).toBe(false);
    const registration = m.store.current().registrations.find((r) => r.canonicalRepoId === 'github.com/acme/missing')!;
    expect(registration.legacyIds).toEqual(['alias:ACME/missing', 'alias:acme/missing']);
    expect(m.store.current().redirects['alias:ACME/missing']).toBe(registration.registrationId);
  });

  it('is deterministic whatever the record order, and idempotent on reload', () => {
    f = fixture();
    const forward = v1Setup(f);
    const reversed = JSON.parse(forward.text) as { registrations: unknown[] };
    reversed.registrations.reverse();
    const secret = Buffer.from(SECRET_HEX, 'hex');
    const inspect = (path: string) => {
      try {
        return inspectCache(path, pathFingerprinter(secret));
      } catch {
        return null;
      }
    };
    const one = serializeRegistry(migrateV1(RegistryV1.parse(JSON.parse(forward.text)), inspect));
    const two = serializeRegistry(migrateV1(RegistryV1.parse(reversed), inspect));
    expect(two).toBe(one);
    expect(serializeRegistry(migrateV1(RegistryV1.parse(JSON.parse(forward.text)), inspect))).toBe(one);

    writeFileSync(join(f.home.dir, SECRET_FILE), SECRET_HEX);
    const file = join(f.home.dir, 'managed-caches.json');
    writeFileSync(file, JSON.stringify(reversed));
    f.open();
    const migrated = readFileSync(file, 'utf8');
    expect(migrated).toBe(one);
    f.open();
    expect(readFileSync(file, 'utf8')).toBe(migrated);
  });

  it('coalesces duplicates of a version-2 registry on load and follows its redirect chains', () => {
    f = fixture();
    writeFileSync(join(f.home.dir, SECRET_FILE), SECRET_HEX);
    const a = f.cache('a.db', [WIDGETS]);
    const seen = inspectCache(a, pathFingerprinter(Buffer.from(SECRET_HEX, 'hex')));
    const reg = registrationIdFor(seen.cacheUuid, 'github.com/acme/widgets');
    const values = { REG_W: reg, UUID_A: seen.cacheUuid, PATH_A: seen.realPath, FP_A: seen.pathFingerprint, CONFIG_HASH: configHashOf(FIXTURE_SNAPSHOT) };
    const file = join(f.home.dir, 'managed-caches.json');
    writeFileSync(file, fill(readFileSync(join(FIXTURES, 'registry-v2.json'), 'utf8'), values));
    const m = f.open();
    const [only, ...rest] = m.store.current().registrations;
    expect(rest).toHaveLength(0);
    expect(only!.aliases).toEqual(['Acme/Widgets-Legacy', 'acme/widgets']);
    expect(only!.enrolledAt).toBe(50);
    expect(only!.stages.sync).toMatchObject({ errorClass: null, failures: 0, lastSuccessAt: 700 });
    for (const legacy of ['old-0', 'old-1', 'old-2', 'old-3']) expect(m.store.current().redirects[legacy]).toBe(reg);
    expect(m.disable('old-0').registrationId).toBe(reg);
    const bytes = readFileSync(file, 'utf8');
    f.open();
    expect(readFileSync(file, 'utf8')).toBe(bytes);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  for (const [name, content] of [
    ['truncated', '{"version": 2, "registrations": [{"registrationId": "reg_'],
    ['garbage', '\u0000\u0001not json at all'],
    ['from a newer Steward', '{"version": 3, "registrations": []}'],
    ['schema-invalid', '{"version": 2, "registrations": [{"registrationId": 7}]}'],
  ] as const) {
    it(`reports a ${name} registry as registry_degraded and never overwrites it`, async () => {
      f = fixture();
      const cache = f.cache('a.db', [WIDGETS]);
      const file = join(f.home.dir, 'managed-caches.json');
      writeFileSync(file, content);
      const before = readFileSync(file);
      const m: Maintenance = f.open();
      expect(m.list().registry.state).toBe('degraded');
      expect(m.list().registrations).toEqual([]);
      expect(codeOf(() => m.enroll({ cachePath: cache, repo: 'acme/widgets', idempotencyKey: 'k' }))).toBe('registry_degraded');
      expect(codeOf(() => m.disable('reg_x'))).toBe('registry_degraded');
      expect(codeOf(() => m.conflicts())).toBe('registry_degraded');
      await expect(m.reconcile()).rejects.toMatchObject({ code: 'registry_degraded' });
      f.open();
      expect(readFileSync(file).equals(before)).toBe(true);
    });
  }

  it('keeps the newest terminal job ids when duplicates coalesce (ids are random: recency is their order)', () => {
    f = fixture();
    const cache = f.cache('a.db', [WIDGETS]);
    const m = f.open();
    m.enroll({ cachePath: cache, repo: 'acme/widgets', idempotencyKey: 'k' });
    const base = m.store.current().registrations[0]!;
    const older = { ...base, updatedAt: 1_000, terminalJobIds: Array.from({ length: 50 }, (_, i) => `job_z${String(i).padStart(2, '0')}`) };
    const newer = { ...base, updatedAt: 2_000, terminalJobIds: ['job_a1', 'job_a2'] };
    const kept = coalesce([newer, older]).terminalJobIds;
    expect(kept).toHaveLength(50);
    expect(kept.slice(-2)).toEqual(['job_a1', 'job_a2']);
    expect(kept).not.toContain('job_z00');
    expect(coalesce([older, newer]).terminalJobIds).toEqual(kept);
  });

  it('holds the registry degraded when the install secret is damaged, instead of disabling every registration', async () => {
    f = fixture();
    const cache = f.cache('a.db', [WIDGETS]);
    f.open().enroll({ cachePath: cache, repo: 'acme/widgets', idempotencyKey: 'k' });
    const file = join(f.home.dir, 'managed-caches.json');
    const before = readFileSync(file);
    writeFileSync(join(f.home.dir, 'maintenance-secret'), 'deadbeef');
    const damaged = f.open();
    expect(damaged.list().registry).toMatchObject({ state: 'degraded', reason: 'install_secret_damaged' });
    await expect(damaged.reconcile()).rejects.toMatchObject({ code: 'registry_degraded' });
    expect(readFileSync(file).equals(before)).toBe(true);
    expect(readFileSync(join(f.home.dir, 'maintenance-secret'), 'utf8')).toBe('deadbeef');
    expect(f.logger.lines.join('\n')).toContain('install_secret_damaged');
  });

  it('writes mode 0600 and rolls back both the mutation and its receipt when the atomic write fails', () => {
    f = fixture();
    const cache = f.cache('a.db', [WIDGETS]);
    const m = f.open();
    const file = join(f.home.dir, 'managed-caches.json');
    mkdirSync(file);
    expect(codeOf(() => m.enroll({ cachePath: cache, repo: 'acme/widgets', idempotencyKey: 'k' }))).not.toBe('no error');
    expect(m.list().registrations).toHaveLength(0);
    rmdirSync(file);
    const result = m.enroll({ cachePath: cache, repo: 'acme/widgets', idempotencyKey: 'k' });
    expect(result).toMatchObject({ created: true, replayed: false });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(f.home.dir, SECRET_FILE)).mode & 0o777).toBe(0o600);
  });
});
