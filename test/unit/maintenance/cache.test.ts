import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { CACHE_SCHEMA_VERSION, inspectCache, openCacheForWrite } from '../../../core/maintenance/cache.js';
import { pathFingerprinter } from '../../../core/maintenance/hashing.js';
import { fixture, WIDGETS, type Fixture } from './support.js';

const fp = pathFingerprinter(Buffer.from('11'.repeat(32), 'hex'));

function generation(file: string): number {
  return inspectCache(file, fp).repositories.find((r) => r.repoId === WIDGETS.repoId)!.contentGeneration;
}

describe('repository cache schema', () => {
  let f: Fixture;
  afterEach(() => {
    f?.home.cleanup();
    if (f) rmSync(f.caches, { recursive: true, force: true });
  });

  it('carries a durable random cache_uuid and resolves aliases through its bindings', () => {
    f = fixture();
    const a = f.cache('a.db', [WIDGETS]);
    const b = f.cache('b.db', [WIDGETS]);
    const seen = inspectCache(a, fp);
    expect(CACHE_SCHEMA_VERSION).toBe(18);
    expect(seen.cacheUuid).toMatch(/^[0-9a-f-]{36}$/);
    expect(inspectCache(b, fp).cacheUuid).not.toBe(seen.cacheUuid);
    expect(inspectCache(a, fp).cacheUuid).toBe(seen.cacheUuid);
    expect(seen.resolveRepository('ACME/WIDGETS')).toBe('github.com/acme/widgets');
    expect(seen.resolveRepository('acme/other')).toBeNull();
    expect(seen.pathFingerprint).toMatch(/^pf_[0-9a-f]{24}$/);
    expect(seen.pathFingerprint).not.toBe(inspectCache(b, fp).pathFingerprint);
    // A copy keeps the UUID (that is what makes it a clone) under another fingerprint.
    const copy = inspectCache(f.copy(a, 'copy.db'), fp);
    expect(copy.cacheUuid).toBe(seen.cacheUuid);
    expect(copy.pathFingerprint).not.toBe(seen.pathFingerprint);
  });

  it('advances content_generation only when content changes, not on timestamp-only rewrites', () => {
    f = fixture();
    const file = f.cache('a.db', [WIDGETS]);
    const db = new Database(file);
    db.pragma('foreign_keys = ON');
    const g0 = generation(file);
    db.prepare("INSERT INTO sources (repo_id, kind, external_id, content_hash, updated_at) VALUES (?, 'issue', '1', 'h1', 1)").run(WIDGETS.repoId);
    const g1 = generation(file);
    expect(g1).toBe(g0 + 1);
    db.prepare("UPDATE sources SET updated_at = 2 WHERE external_id = '1'").run();
    db.prepare("UPDATE sources SET content_hash = 'h1' WHERE external_id = '1'").run();
    expect(generation(file)).toBe(g1);
    db.prepare("UPDATE sources SET content_hash = 'h2' WHERE external_id = '1'").run();
    expect(generation(file)).toBe(g1 + 1);
    db.prepare("INSERT INTO chunks (source_id, ordinal, content_hash, text) VALUES ((SELECT source_id FROM sources WHERE external_id = '1'), 0, 'c1', 'x')").run();
    expect(generation(file)).toBe(g1 + 2);
    db.prepare("DELETE FROM sources WHERE external_id = '1'").run();
    // The source delete and its cascaded chunk delete both count.
    expect(generation(file)).toBeGreaterThanOrEqual(g1 + 3);
    db.close();
  });

  it('refuses other schema versions and non-databases as cache_invalid without naming the path', () => {
    f = fixture();
    const old = join(f.caches, 'old-secret-name.db');
    const db = new Database(old);
    db.pragma('user_version = 16');
    db.close();
    const notDb = join(f.caches, 'not-a-db.db');
    writeFileSync(notDb, 'hello, this is not sqlite at all, not even close '.repeat(20));
    for (const file of [old, notDb, join(f.caches, 'missing.db')]) {
      let caught: unknown;
      try {
        inspectCache(file, fp);
      } catch (error) {
        caught = error;
      }
      expect(caught).toMatchObject({ code: 'cache_invalid' });
      expect(JSON.stringify(caught) + String((caught as Error).message)).not.toContain(f.caches);
    }
  });

  it('publishes the cache generations and known frontiers in status after a pass', async () => {
    f = fixture();
    const file = f.cache('a.db', [WIDGETS]);
    const db = new Database(file);
    db.prepare("INSERT INTO sources (repo_id, kind, external_id, content_hash, updated_at) VALUES (?, 'issue', '1', 'h1', 1)").run(WIDGETS.repoId);
    db.prepare("INSERT INTO sync_frontiers (repo_id, collection, lane, next_page, complete) VALUES (?, 'issues', 'tail', 7, 0)").run(WIDGETS.repoId);
    db.prepare("INSERT INTO sync_frontiers (repo_id, collection, lane, next_page, complete) VALUES (?, 'token=abc-not-a-collection', 'head', 1, 0)").run(WIDGETS.repoId);
    db.close();
    const m = f.open();
    m.enroll({ cachePath: file, repo: 'acme/widgets', idempotencyKey: 'k' });
    await m.reconcile();
    const [status] = m.list().registrations;
    expect(status!.generations.content).toBe(1);
    expect(status!.frontiers).toEqual([{ collection: 'issues', lane: 'tail', nextPage: 7, watermark: null, complete: false }]);
  });
});

describe('repository cache migration', () => {
  let f: Fixture;
  afterEach(() => {
    f?.home.cleanup();
    if (f) rmSync(f.caches, { recursive: true, force: true });
  });

  function v17(file: string): void {
    const db = new Database(file);
    db.exec(readFileSync(join(import.meta.dirname, '..', '..', 'fixtures', 'maintenance', 'cache-v17.sql'), 'utf8'));
    db.prepare("INSERT INTO cache_identity (singleton, cache_uuid, created_at) VALUES (1, '11111111-2222-4333-8444-555555555555', 1)").run();
    db.prepare("INSERT INTO repositories (repo_id, created_at) VALUES ('github.com/acme/widgets', 1)").run();
    db.prepare("INSERT INTO repository_bindings (alias, repo_id) VALUES ('acme/widgets', 'github.com/acme/widgets')").run();
    db.prepare("INSERT INTO sources (repo_id, kind, external_id, content_hash, updated_at) VALUES ('github.com/acme/widgets', 'issue', '1', 'h1', 1)").run();
    db.pragma('user_version = 17');
    db.close();
  }

  it('enrolls a schema 17 cache as it is and migrates it forward on the first write, keeping its content and generation', () => {
    f = fixture();
    const file = join(f.caches, 'old.db');
    v17(file);
    const m = f.open();
    const seen = m.inspect(file);
    expect(seen.schemaVersion).toBe(17);
    m.enroll({ cachePath: file, repo: 'acme/widgets', idempotencyKey: 'k' });
    // A 17 cache names no forge: github.com is known, so the binding is derived.
    expect(m.store.current().registrations[0]!.forge).toEqual({ kind: 'github', host: 'github.com' });
    const g = seen.repositories[0]!.contentGeneration;
    const db = openCacheForWrite(seen.realPath, seen.pathFingerprint);
    db.close();
    const after = m.inspect(file);
    expect(after.schemaVersion).toBe(CACHE_SCHEMA_VERSION);
    expect(after.cacheUuid).toBe(seen.cacheUuid);
    expect(after.repositories[0]!.contentGeneration).toBe(g);
    const check = new Database(file, { readonly: true });
    expect(check.prepare('SELECT COUNT(*) AS n FROM sources').get()).toEqual({ n: 1 });
    expect(check.prepare('SELECT COUNT(*) AS n FROM items').get()).toEqual({ n: 0 });
    check.close();
  });

  it('refuses a cache newer than this code as schema_too_new, for reading and for writing, and never rewrites it', () => {
    f = fixture();
    const file = f.cache('new.db', [WIDGETS]);
    const db = new Database(file);
    db.pragma(`user_version = ${CACHE_SCHEMA_VERSION + 1}`);
    db.close();
    const bytes = readFileSync(file);
    expect(() => inspectCache(file, fp)).toThrow(expect.objectContaining({ code: 'schema_too_new' }));
    expect(() => openCacheForWrite(file, 'pf_x')).toThrow(expect.objectContaining({ code: 'schema_too_new' }));
    expect(readFileSync(file).equals(bytes)).toBe(true);
  });
});
