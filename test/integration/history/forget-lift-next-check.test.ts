import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Core } from '../../../core/index.js';
import { folderHashOf, normalizeCwd, projectKeyOf } from '../../../core/projects/index.js';
import { tempHome, type TempHome } from '../../support/home.js';
import { claudeLine, writeJsonl } from '../../support/transcripts.js';

let home: TempHome | undefined;
let core: Core | undefined;
afterEach(async () => {
  await core?.shutdown();
  core = undefined;
  home?.cleanup();
  home = undefined;
});

const FIRST = 'C:\\Users\\Ana\\x';
const LATER = 'c:\\users\\ana\\x';
const keyOf = (cwd: string) => projectKeyOf(normalizeCwd(cwd));

function open(): Core {
  home = tempHome('steward-lift-next-check-');
  home.env.STEWARD_CLAUDE_ROOTS = join(home.dir, 'claude');
  return (core = Core.open({ home: { dir: home.dir, kind: 'env' }, env: home.env }));
}
function session(id: string, cwd: string, minutes: number): void {
  writeJsonl(join(home!.dir, 'claude', 'projects', `p-${id}`, `${id}.jsonl`), [claudeLine({ sessionId: id, text: `work on x (${id})`, cwd, ts: new Date(Date.now() - minutes * 60_000) })]);
}
const record = (c: Core, key: string, folderHash: string | null, createdAt: number) =>
  c.gateway.prepare("INSERT INTO history_tombstones (kind, id, label, created_at, folder_hash) VALUES ('project', ?, 'x', ?, ?)").run(key, createdAt, folderHash);

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
