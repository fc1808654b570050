import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Tombstones } from '../../../core/gateway/index.js';
import { GATEWAY_MIGRATIONS } from '../../../core/gateway/migrations.js';
import { migrate, type Db } from '../../../core/store/index.js';
import { KnownFolders } from '../../../core/transcripts/index.js';
import { tempHome, type TempHome } from '../../support/home.js';

/**
 * Capture asks, for every session it admits, whether its folder's hash is a forgotten project's: the
 * answers are held in memory, and read again once any Tombstones over the same file adds or removes a
 * record (the owner's history forgets through one, capture asks through another).
 */

let home: TempHome;
let db: Db;
let sql: string[];
const HASH = 'a'.repeat(64);
const HASH_OF = (text: string) => createHash('sha256').update(text).digest('hex');

beforeEach(() => {
  home = tempHome();
  sql = [];
  db = new Database(join(home.dir, 'gateway.db'), { verbose: (statement) => sql.push(String(statement)) });
  migrate(db, GATEWAY_MIGRATIONS, 'gateway');
});
afterEach(() => {
  db.close();
  home.cleanup();
});

const folderReads = () => sql.filter((s) => /FROM history_tombstones WHERE folder_hash/.test(s)).length;

describe('Tombstones.projectOfFolder', () => {
  it('asks the store once between changes, and sees a forget or a lift made through another Tombstones at once', () => {
    const capture = new Tombstones(db);
    const history = new Tombstones(db);
    expect(capture.projectOfFolder(HASH)).toBeUndefined();
    expect(capture.projectOfFolder(HASH)).toBeUndefined();
    expect(folderReads()).toBe(1);

    history.add('project', 'p_0000000000000002', null, { now: 2, folderHash: HASH });
    history.add('project', 'p_0000000000000001', null, { now: 1, folderHash: HASH });
    expect(capture.projectOfFolder(HASH)).toEqual({ kind: 'project', id: 'p_0000000000000001' });
    expect(history.projectsOfFolder(HASH)).toEqual(['p_0000000000000001', 'p_0000000000000002']);

    history.remove('project', 'p_0000000000000001');
    expect(capture.projectOfFolder(HASH)).toEqual({ kind: 'project', id: 'p_0000000000000002' });
    history.remove('project', 'p_0000000000000002');
    expect(capture.projectOfFolder(HASH)).toBeUndefined();
  });

  it('keeps the hash a record had when it is added again without one', () => {
    const t = new Tombstones(db);
    t.add('project', 'p_0000000000000001', 'x', { folderHash: HASH });
    t.add('project', 'p_0000000000000001', null);
    expect(t.folderHashKept('p_0000000000000001')).toBe(HASH);
    expect(t.folderHashKept('p_0000000000000009')).toBeNull();
  });
});

describe('Tombstones.projectOfHashFolder', () => {
  const hashFolderReads = () => sql.filter((s) => /FROM history_tombstone_gemini g JOIN/.test(s)).length;

  it('asks the store once between changes, sees a record kept through another Tombstones at once, and lets go with the record', () => {
    const capture = new Tombstones(db);
    const history = new Tombstones(db);
    const [hash] = KnownFolders.hashFoldersOf('/home/ana/x');
    expect(capture.projectOfHashFolder(hash!)).toBeUndefined();
    expect(capture.projectOfHashFolder(hash!)).toBeUndefined();
    expect(hashFolderReads()).toBe(1);

    history.add('project', 'p_0000000000000001', null);
    history.keepHashFolders('p_0000000000000001', ['/home/ana/x']);
    expect(capture.projectOfHashFolder(hash!)).toEqual({ kind: 'project', id: 'p_0000000000000001' });
    history.remove('project', 'p_0000000000000001');
    expect(capture.projectOfHashFolder(hash!)).toBeUndefined();
    expect(db.prepare('SELECT COUNT(*) FROM history_tombstone_gemini').pluck().get()).toBe(0);
  });

  it('hashes each spelling Gemini CLI may have hashed, whole: a Windows drive in either case', () => {
    expect(KnownFolders.hashFoldersOf('c:\\x')).toHaveLength(2);
    expect(KnownFolders.hashFoldersOf('/home/ana/x')).toEqual([HASH_OF('/home/ana/x')]);
  });
});
