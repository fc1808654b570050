import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { Core } from '../../../core/index.js';
import { normalizeCwd, projectKeyOf } from '../../../core/projects/index.js';
import { tempHome, type TempHome } from '../../support/home.js';

/**
 * A project forgotten by a Steward from before records kept their folder (no folder_hash, no Gemini
 * hash folders): its key is `p_` and the first 16 hex digits of the sha256 of its folder, the same
 * sha256 Gemini CLI names that folder's hash folder by, so that folder's chats stay out by the key alone.
 */

const FIXTURES = fileURLToPath(new URL('../../fixtures/transcripts/gemini/', import.meta.url));
const FORGOTTEN = '/home/ana/src/forgetme';
const OTHER = '/home/ana/src/other';
const hashOf = (folder: string) => createHash('sha256').update(folder).digest('hex');
const LEGACY_ID = '5d1e2f3a-7b6c-4d5e-8f90-a1b2c3d4e5f6';
const OTHER_ID = 'other-folder-chat-1';

let home: TempHome | undefined;
let core: Core | undefined;
afterEach(async () => {
  await core?.shutdown();
  core = undefined;
  home?.cleanup();
  home = undefined;
});

function write(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

/** Yesterday: inside a tick's window, whatever the fixture's dates. */
const YESTERDAY = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
const fixture = (name: string) => readFileSync(join(FIXTURES, name), 'utf8').replace(/\d{4}-\d{2}-\d{2}T/g, `${YESTERDAY}T`);
const chats = (folder: string) => join(home!.dir, 'gemini', 'tmp', hashOf(folder), 'chats');
const geminiSessions = (c: Core) => c.gateway.prepare("SELECT session_id FROM sessions WHERE provider = 'gemini' ORDER BY session_id").pluck().all();
const projectNames = async (c: Core) => (await c.call('Projects.List', {})).projects.map((p: { name: string }) => p.name);
/** A project's forget record as a version from before folder_hash wrote it (the column and the Gemini table left empty). */
const oldRecord = (c: Core, key: string, label: string) =>
  c.gateway.prepare("INSERT INTO history_tombstones (kind, id, label, created_at, folder_hash) VALUES ('project', ?, ?, ?, NULL)").run(key, label, Date.now() - 60_000);

function open(): Core {
  home = tempHome('steward-forget-gemini-old-record-');
  home.env.STEWARD_GEMINI_ROOTS = join(home.dir, 'gemini');
  return (core = Core.open({ home: { dir: home.dir, kind: 'env' }, env: home.env }));
}

describe('a project an older Steward forgot, whose Gemini chats sit in its hash folder', () => {
  it('keeps them out at a tick by the record key, lists the record, and Unforget brings them back at the next tick', async () => {
    const c = open();
    const key = projectKeyOf(normalizeCwd(FORGOTTEN));
    expect(key).toBe(`p_${hashOf(FORGOTTEN).slice(0, 16)}`);
    oldRecord(c, key, 'forgetme');
    write(join(chats(FORGOTTEN), 'session-2026-01-14T09-30-5d1e2f3a.json'), fixture('legacy-session.json'));
    write(join(chats(OTHER), 'session-2026-01-15T10-00-other.json'), fixture('agentsview/standard_session.json').replaceAll('sess-uuid-1', OTHER_ID));

    await c.call('Sweep.Tick', {});
    // The unrelated folder's chat still comes in; the forgotten folder's does not, under any project.
    expect(geminiSessions(c)).toEqual([OTHER_ID]);
    expect((await projectNames(c)).filter((name: string) => name.includes(hashOf(FORGOTTEN).slice(0, 8)))).toEqual([]);
    expect((await c.call('Forget.List', {})).tombstones).toMatchObject([{ kind: 'project', id: key, label: 'forgetme' }]);
    await c.call('Sweep.Tick', {});
    expect(geminiSessions(c)).toEqual([OTHER_ID]);

    expect(await c.call('Forget.Lift', { kind: 'project', id: key })).toMatchObject({ lifted: true });
    await c.call('Sweep.Tick', {});
    expect(geminiSessions(c)).toEqual([LEGACY_ID, OTHER_ID].sort());
  });

  it('keeps them out at a backfill of all too', async () => {
    const c = open();
    oldRecord(c, projectKeyOf(normalizeCwd(FORGOTTEN)), 'forgetme');
    write(join(chats(FORGOTTEN), 'session-2026-01-14T09-30-5d1e2f3a.json'), fixture('legacy-session.json'));
    await c.call('Backfill.Run', { all: true });
    expect(geminiSessions(c)).toEqual([]);
  });
});
