import { copyFileSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { StewardError } from '../../../core/api/index.js';
import { openDatabase, schemaVersion, type Migration } from '../../../core/store/index.js';
import { tempHome, type TempHome } from '../../support/home.js';

const steps: Migration[] = [
  { version: 1, name: 'one', up: (db) => db.exec('CREATE TABLE a (x INTEGER)') },
  { version: 2, name: 'two', up: (db) => db.exec('CREATE TABLE b (y INTEGER)') },
];

describe('store: openDatabase and migrations', () => {
  let home: TempHome;
  afterEach(() => home.cleanup());

  it('opens with WAL, foreign keys and a busy timeout, and applies every step in order', () => {
    home = tempHome();
    const db = openDatabase(join(home.dir, 'x.db'), { label: 'test', migrations: steps });
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(db.pragma('busy_timeout', { simple: true })).toBeGreaterThan(0);
    expect(schemaVersion(db)).toBe(2);
    expect(db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name IN ('a','b')").get()).toEqual({ n: 2 });
    db.close();
  });

  it('gives a new file the page size asked for; an existing file keeps its own', () => {
    home = tempHome();
    const file = join(home.dir, 'x.db');
    const created = openDatabase(file, { label: 'test', migrations: steps, pageSizeBytes: 16_384, cacheKiB: 8_192 });
    expect(created.pragma('page_size', { simple: true })).toBe(16_384);
    expect(created.pragma('cache_size', { simple: true })).toBe(-8_192);
    created.close();
    const plain = join(home.dir, 'plain.db');
    openDatabase(plain, { label: 'test', migrations: steps }).close();
    const reopened = openDatabase(plain, { label: 'test', migrations: steps, pageSizeBytes: 16_384 });
    expect(reopened.pragma('page_size', { simple: true })).toBe(4_096);
    reopened.prepare('INSERT INTO a VALUES (1)').run();
    expect(reopened.prepare('SELECT x FROM a').pluck().get()).toBe(1);
    reopened.close();
  });

  it('runs only the pending steps when reopened', () => {
    home = tempHome();
    const file = join(home.dir, 'x.db');
    openDatabase(file, { label: 'test', migrations: steps.slice(0, 1) }).close();
    const db = openDatabase(file, { label: 'test', migrations: steps });
    expect(schemaVersion(db)).toBe(2);
    db.close();
  });

  it('refuses a schema newer than the code knows, with a clear error, and leaves the file untouched', () => {
    home = tempHome();
    const file = join(home.dir, 'x.db');
    const raw = new Database(file);
    raw.pragma('user_version = 9');
    raw.exec('CREATE TABLE keep (v TEXT); INSERT INTO keep VALUES (1)');
    raw.close();
    const before = readFileSync(file);
    let error: unknown;
    try {
      openDatabase(file, { label: 'gateway', migrations: steps });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(StewardError);
    expect((error as StewardError).code).toBe('schema_too_new');
    expect((error as StewardError).message).toMatch(/schema version 9, newer than this Steward understands \(2\)/);
    expect(readFileSync(file).equals(before)).toBe(true);
  });

  it('rolls a failing step back whole: the version stays at the last complete step', () => {
    home = tempHome();
    const file = join(home.dir, 'x.db');
    const broken: Migration[] = [
      steps[0]!,
      {
        version: 2,
        name: 'half',
        up: (db) => {
          db.exec('CREATE TABLE half (z INTEGER)');
          throw new Error('boom');
        },
      },
    ];
    expect(() => openDatabase(file, { label: 'test', migrations: broken })).toThrow('boom');
    const db = new Database(file);
    expect(db.pragma('user_version', { simple: true })).toBe(1);
    expect(db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 'half'").get()).toEqual({ n: 0 });
    db.close();
  });

  it('cuts the WAL back to its size limit once a checkpoint lets it restart', () => {
    home = tempHome();
    const file = join(home.dir, 'x.db');
    const db = openDatabase(file, { label: 'test', migrations: steps, walSizeLimitBytes: 64 * 1024 });
    db.pragma('wal_autocheckpoint = 0');
    const insert = db.prepare('INSERT INTO a VALUES (?)');
    db.transaction(() => {
      for (let i = 0; i < 20_000; i += 1) insert.run(i);
    })();
    db.prepare('CREATE TABLE pad (t TEXT)').run();
    db.prepare('INSERT INTO pad VALUES (?)').run('x'.repeat(2 * 1024 * 1024));
    expect(statSync(`${file}-wal`).size).toBeGreaterThan(1024 * 1024);
    db.pragma('wal_checkpoint(PASSIVE)');
    insert.run(-1);
    expect(statSync(`${file}-wal`).size).toBeLessThanOrEqual(64 * 1024);
    db.close();
  });

  it('rejects migration lists with gaps', () => {
    home = tempHome();
    expect(() => openDatabase(join(home.dir, 'x.db'), { label: 'test', migrations: [steps[1]!] })).toThrow(/without gaps/);
  });

  it('keeps data across a copy of the file (the store is a plain SQLite file)', () => {
    home = tempHome();
    const file = join(home.dir, 'x.db');
    const db = openDatabase(file, { label: 'test', migrations: steps });
    db.prepare('INSERT INTO a VALUES (42)').run();
    db.close();
    copyFileSync(file, join(home.dir, 'y.db'));
    const copy = openDatabase(join(home.dir, 'y.db'), { label: 'test', migrations: steps });
    expect(copy.prepare('SELECT x FROM a').get()).toEqual({ x: 42 });
    copy.close();
  });
});
