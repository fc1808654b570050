import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Tombstones } from '../../../core/gateway/index.js';
import { GATEWAY_MIGRATIONS } from '../../../core/gateway/migrations.js';
import { normalizeCwd, projectKeyOf } from '../../../core/projects/index.js';
import { migrate, type Db } from '../../../core/store/index.js';
import { tempHome, type TempHome } from '../../support/home.js';

/**
 * A project's key is `p_` and the first 16 hex digits of the sha256 of its folder, the sha256 Gemini CLI
 * names that folder's hash folder by: a record that keeps no hash folder (one made before records kept
 * them) still answers for that hash folder by its key.
 */

let home: TempHome;
let db: Db;
let sql: string[];
const FOLDER = '/home/ana/src/forgetme';
const HASH = createHash('sha256').update(FOLDER).digest('hex');
const KEY = projectKeyOf(normalizeCwd(FOLDER));
/** A record as a version from before folder_hash wrote it. */
const oldRecord = (kind: string, id: string) => db.prepare("INSERT INTO history_tombstones (kind, id, label, created_at, folder_hash) VALUES (?, ?, 'x', 1, NULL)").run(kind, id);
const keyReads = () => sql.filter((s) => /SELECT id FROM history_tombstones WHERE kind = 'project'$/.test(s)).length;

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

describe('Tombstones.projectOfHashFolder by a record key', () => {
  it('answers for the hash folder whose first 16 digits are the key, not for another, until the record is lifted', () => {
    oldRecord('project', KEY);
    const capture = new Tombstones(db);
    expect(KEY).toBe(`p_${HASH.slice(0, 16)}`);
    expect(capture.projectOfHashFolder(HASH)).toEqual({ kind: 'project', id: KEY });
    expect(capture.projectOfHashFolder(createHash('sha256').update('/home/ana/src/other').digest('hex'))).toBeUndefined();
    // Same first 16 digits, but no hash folder's name: the rest is not 48 hex digits.
    expect(capture.projectOfHashFolder(HASH.slice(0, 16))).toBeUndefined();
    expect(capture.projectOfHashFolder(`${HASH.slice(0, 16)}-named`)).toBeUndefined();
    expect(keyReads()).toBe(1);

    new Tombstones(db).remove('project', KEY);
    expect(capture.projectOfHashFolder(HASH)).toBeUndefined();
  });

  it('never by a conversation record, nor by an id not shaped as a project key', () => {
    oldRecord('session', KEY);
    oldRecord('project', `${KEY}x`);
    oldRecord('project', KEY.toUpperCase());
    expect(new Tombstones(db).projectOfHashFolder(HASH)).toBeUndefined();
  });

  it('prefers the record that keeps the hash folder by name (the first forgotten)', () => {
    const t = new Tombstones(db);
    t.add('project', 'p_0000000000000001', null, { now: 1 });
    t.keepHashFolderNames('p_0000000000000001', [HASH]);
    t.add('project', KEY, null, { now: 2 });
    expect(t.projectOfHashFolder(HASH)).toEqual({ kind: 'project', id: 'p_0000000000000001' });
  });
});
