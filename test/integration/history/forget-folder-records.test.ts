import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatUnforget } from '../../../core/cli/commands/unforget.js';
import type { Core } from '../../../core/index.js';
import { folderHashOf, normalizeCwd, projectKeyOf } from '../../../core/projects/index.js';
import { runIn } from '../../support/cli.js';
import { coreHome } from '../../support/core.js';
import { claudeLine, writeJsonl } from '../../support/transcripts.js';

/**
 * A folder's forget records and its hash (folderHashOf, never the path): an older store may hold one
 * forgotten project per spelling of a folder, and records made before the hash was kept have none.
 */

const owned = coreHome('steward-forget-records-');

const FIRST = 'C:\\Users\\Ana\\x';
const LATER = 'c:\\users\\ana\\x';
const keyOf = (cwd: string) => projectKeyOf(normalizeCwd(cwd));

/** A Claude session of one line in `cwd`, `minutes` ago. */
function session(id: string, cwd: string, minutes: number): void {
  writeJsonl(join(owned.home.dir, 'claude', 'projects', `p-${id}`, `${id}.jsonl`), [claudeLine({ sessionId: id, text: `work on x (${id})`, cwd, ts: new Date(Date.now() - minutes * 60_000) })]);
}

function open(): Core {
  const { home } = owned;
  home.env.STEWARD_CLAUDE_ROOTS = join(home.dir, 'claude');
  return owned.open();
}

const stored = (c: Core) => c.gateway.prepare('SELECT session_id FROM sessions ORDER BY session_id').pluck().all();
const hashOf = (c: Core, key: string) => c.gateway.prepare("SELECT folder_hash FROM history_tombstones WHERE kind = 'project' AND id = ?").pluck().get(key);
/** A forget record as an older version wrote it: no hash, or the hash of its folder. */
const record = (c: Core, key: string, folderHash: string | null, createdAt = Date.now()) =>
  c.gateway.prepare("INSERT INTO history_tombstones (kind, id, label, created_at, folder_hash) VALUES ('project', ?, 'x', ?, ?)").run(key, createdAt, folderHash);

describe('two forgotten projects of one folder (one per spelling, from an older store)', () => {
  it('Unforget of one lifts both, says how many other spellings it lifted, and both spellings come back', async () => {
    const c = open();
    session('A', FIRST, 30);
    session('B', LATER, 20);
    record(c, keyOf(FIRST), folderHashOf(FIRST), 1);
    record(c, keyOf(LATER), folderHashOf(LATER), 2);
    await c.call('Backfill.Run', { all: true });
    expect(stored(c)).toEqual([]);

    const lifted = await c.call('Forget.Lift', { kind: 'project', id: keyOf(LATER) });
    expect(lifted).toMatchObject({ lifted: true, otherSpellings: 1 });
    expect((await c.call('Forget.List', {})).tombstones).toEqual([]);
    await c.call('Backfill.Run', { all: true });
    expect(stored(c)).toEqual(['A', 'B']);
  });

  it('a project forgotten under one spelling alone says nothing of others', async () => {
    const c = open();
    record(c, keyOf(FIRST), folderHashOf(FIRST));
    expect(await c.call('Forget.Lift', { kind: 'project', id: keyOf(FIRST) })).not.toHaveProperty('otherSpellings');
  });

  it('steward unforget says the forgets of other spellings were lifted too', () => {
    const said = formatUnforget({ lifted: true, otherSpellings: 2 }, { kind: 'project', id: 'p_0123456789abcdef' }, 'project key');
    expect(said).toContain('2 other spellings of its folder');
    expect(formatUnforget({ lifted: true, otherSpellings: 1 }, { kind: 'project', id: 'p_0123456789abcdef' }, 'project key')).toContain('another spelling of its folder');
  });
});

describe('a forget record with no folder hash', () => {
  it('made before the hash was kept and cut short (its row still stored): finishing it keeps the hash, so another spelling stays out', async () => {
    const c = open();
    session('A', FIRST, 30);
    await c.call('Backfill.Run', { all: true });
    record(c, keyOf(FIRST), null);
    await c.history.forgetting.finishInterrupted();
    expect(hashOf(c, keyOf(FIRST))).toBe(folderHashOf(FIRST));
    expect(stored(c)).toEqual([]);

    session('B', LATER, 20);
    await c.call('Backfill.Run', { all: true });
    expect(stored(c)).toEqual([]);
  });

  it('forgotten by its folder with --not-stored (no row): keeps the hash of that folder, so another spelling stays out', async () => {
    const { home } = owned;
    home.env.STEWARD_CLAUDE_ROOTS = join(home.dir, 'claude');
    const cli = (...argv: string[]) => runIn(home.env, ...argv);
    expect((await cli('forget', '--project', '/home/ana/x', '--not-stored')).code).toBe(0);
    session('B', '\\\\wsl$\\Ubuntu\\home\\ana\\x', 20);
    expect((await cli('backfill', '--all')).code).toBe(0);
    const c = owned.open();
    expect(hashOf(c, keyOf('/home/ana/x'))).toBe(folderHashOf('/home/ana/x'));
    expect(stored(c)).toEqual([]);
  });

  it('forgotten by key with --not-stored (no row, folder unknowable): keeps none, and claims none', async () => {
    const c = open();
    await c.call('Forget.Project', { projectKey: keyOf(FIRST), notStored: true });
    expect(hashOf(c, keyOf(FIRST))).toBeNull();
  });
});

/**
 * A lift of a folder forgotten under two spellings says of the next check what holds of all the files
 * both records kept out: a record that held none (forgotten by its folder, never imported) says nothing.
 */
describe('Unforget of a folder forgotten under two spellings: what it says of the next check', () => {
  it('every file held is inside the window, and the other spelling held none: the next check brings it all (not "part")', async () => {
    const c = open();
    // One file, 30 minutes old (inside any window), kept out by the first spelling's record.
    session('A', FIRST, 30);
    record(c, keyOf(FIRST), folderHashOf(FIRST), 1);
    // The other spelling was forgotten by its folder, never imported: its record holds no file.
    record(c, keyOf(LATER), folderHashOf(LATER), 2);
    await c.call('Backfill.Run', { all: true });
    const lifted = await c.call('Forget.Lift', { kind: 'project', id: keyOf(FIRST) });
    expect(lifted).toMatchObject({ lifted: true, otherSpellings: 1 });
    // It said 'part' ("backfill --all imports the rest, which is older") when the other record held no file.
    expect(lifted.nextCheck).toBe('all');
  });
});
