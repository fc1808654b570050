import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useSqliteNativeBinding } from '../../../core/index.js';
import { openDatabase, sqliteOptions } from '../../../core/store/index.js';
import { tempHome, type TempHome } from '../../support/home.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const NODE_BUILD = join(ROOT, 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node');

/** Electron main points core at the Electron-ABI build; everything else keeps better-sqlite3's default. */
describe('the SQLite native binding Electron main selects', () => {
  let home: TempHome;
  beforeEach(() => {
    home = tempHome('steward-binding-');
  });
  afterEach(() => {
    useSqliteNativeBinding(undefined);
    home.cleanup();
  });

  it('is not used unless set', () => {
    expect(sqliteOptions({ readonly: true })).toEqual({ readonly: true });
    const db = openDatabase(join(home.dir, 'a.db'), { label: 'test', migrations: [] });
    db.close();
  });

  it('once set, every database opens through that file', () => {
    useSqliteNativeBinding(NODE_BUILD);
    expect(sqliteOptions({ readonly: true })).toEqual({ readonly: true, nativeBinding: NODE_BUILD });
    const db = openDatabase(join(home.dir, 'b.db'), { label: 'test', migrations: [] });
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    db.close();

    useSqliteNativeBinding(join(home.dir, 'missing', 'better_sqlite3.node'));
    expect(() => openDatabase(join(home.dir, 'c.db'), { label: 'test', migrations: [] })).toThrow(/Cannot find module|better_sqlite3/);
  });
});
