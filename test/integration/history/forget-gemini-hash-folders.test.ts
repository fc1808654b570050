import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Core } from '../../../core/index.js';
import { normalizeCwd, projectKeyOf } from '../../../core/projects/index.js';
import { runIn } from '../../support/cli.js';
import { coreHome } from '../../support/core.js';
import { claudeLine, writeJsonl } from '../../support/transcripts.js';

/**
 * Gemini CLI's old chats sit in `tmp/<sha256 of the project folder>/chats/`: a folder Gemini registered
 * nowhere is known only by the folders Steward knows. A forget erases the project row that made the
 * folder known, so after a restart nothing names it: the record itself must keep those hash folders out.
 * A folder never imported, forgotten by its folder with `--not-stored`, has no row at all: its record keeps
 * the Gemini hash folders of the folder the CLI named.
 */

const FIXTURES = fileURLToPath(new URL('../../fixtures/transcripts/gemini/', import.meta.url));
const SITE = '/home/dana/src/site';
const hashOf = (folder: string) => createHash('sha256').update(folder).digest('hex');
const SITE_HASH = hashOf(SITE);
const LEGACY_ID = '5d1e2f3a-7b6c-4d5e-8f90-a1b2c3d4e5f6';
const LATER_ID = 'later-in-site-1';

const owned = coreHome('steward-forget-gemini-');

function write(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

const fixture = (name: string) => readFileSync(join(FIXTURES, name), 'utf8');
const chatsOf = (folder: string) => join(owned.home.dir, 'gemini', 'tmp', hashOf(folder), 'chats');
const chats = () => chatsOf(SITE);

function open(): Core {
  return owned.open();
}

/** A new process over the same store: no folder met, no cache held. */
async function restart(): Promise<Core> {
  await owned.close();
  return open();
}

const geminiSessions = (c: Core) => c.gateway.prepare("SELECT session_id FROM sessions WHERE provider = 'gemini' ORDER BY session_id").pluck().all();
const projectNames = async (c: Core) => (await c.call('Projects.List', {})).projects.map((p: { name: string }) => p.name);

describe('a forgotten project whose Gemini chats sit in a hash folder Gemini registered nowhere', () => {
  it('keeps them out after a restart, under no project (not as "folder unknown"), until Unforget lifts it', async () => {
    const { home } = owned;
    home.env.STEWARD_CLAUDE_ROOTS = join(home.dir, 'claude');
    home.env.STEWARD_GEMINI_ROOTS = join(home.dir, 'gemini');
    // A Claude session makes the folder known; the Gemini chat in its hash folder joins its project.
    writeJsonl(join(home.dir, 'claude', 'projects', 'p-site', 'claude-site.jsonl'), [claudeLine({ sessionId: 'claude-site', text: 'work on the site', cwd: SITE, ts: new Date(Date.now() - 30 * 60_000) })]);
    write(join(chats(), 'session-2026-01-14T09-30-5d1e2f3a.json'), fixture('legacy-session.json'));
    let c = open();
    await c.call('Backfill.Run', { all: true });
    const site = projectKeyOf(normalizeCwd(SITE));
    expect(geminiSessions(c)).toEqual([LEGACY_ID]);
    expect(c.gateway.prepare('SELECT project_key FROM sessions WHERE session_id = ?').pluck().get(LEGACY_ID)).toBe(site);

    await c.call('Forget.Project', { projectKey: site });
    expect(geminiSessions(c)).toEqual([]);

    // Restarted, with nothing left that names the folder: a new chat in the hash folder, and a backfill of all.
    c = await restart();
    write(join(chats(), 'session-2026-01-15T10-00-later.json'), fixture('agentsview/standard_session.json').replaceAll('sess-uuid-1', LATER_ID));
    await c.call('Backfill.Run', { all: true });
    expect(geminiSessions(c)).toEqual([]);
    expect((await projectNames(c)).filter((name: string) => name.includes('folder unknown'))).toEqual([]);

    c = await restart();
    await c.call('Backfill.Run', { all: true });
    expect(geminiSessions(c)).toEqual([]);

    expect(await c.call('Forget.Lift', { kind: 'project', id: site })).toMatchObject({ lifted: true });
    await c.call('Backfill.Run', { all: true });
    expect(geminiSessions(c)).toEqual([LATER_ID, LEGACY_ID].sort());
  });
});

describe('a forgotten project whose folder capture met under another spelling', () => {
  const FIRST = 'C:\\Users\\Ana\\x';
  const LATER = 'c:\\users\\ana\\x';
  const laterHash = createHash('sha256').update(LATER).digest('hex');

  it("keeps out the Gemini chats of that spelling's hash folder after a restart", async () => {
    const { home } = owned;
    home.env.STEWARD_CLAUDE_ROOTS = join(home.dir, 'claude');
    home.env.STEWARD_GEMINI_ROOTS = join(home.dir, 'gemini');
    const claude = (id: string, cwd: string, minutes: number) =>
      writeJsonl(join(home.dir, 'claude', 'projects', `p-${id}`, `${id}.jsonl`), [claudeLine({ sessionId: id, text: `work on x (${id})`, cwd, ts: new Date(Date.now() - minutes * 60_000) })]);
    claude('A', FIRST, 30);
    claude('B', LATER, 20);
    const folder = join(home.dir, 'gemini', 'tmp', laterHash, 'chats');
    write(join(folder, 'session-2026-01-14T09-30-5d1e2f3a.json'), fixture('legacy-session.json'));
    let c = open();
    await c.call('Backfill.Run', { all: true });
    // The folder's one project is keyed by whichever spelling was stored first (the order files are read in).
    const projectOf = (sessionId: string) => c.gateway.prepare('SELECT project_key FROM sessions WHERE session_id = ?').pluck().get(sessionId);
    const x = projectOf('A') as string;
    expect([projectKeyOf(normalizeCwd(FIRST)), projectKeyOf(normalizeCwd(LATER))]).toContain(x);
    expect(projectOf('B')).toBe(x);
    // Hashed from the later spelling alone, the chat joined the folder's one project.
    expect(projectOf(LEGACY_ID)).toBe(x);

    await c.call('Forget.Project', { projectKey: x });
    c = await restart();
    write(join(folder, 'session-2026-01-15T10-00-later.json'), fixture('agentsview/standard_session.json').replaceAll('sess-uuid-1', LATER_ID));
    await c.call('Backfill.Run', { all: true });
    expect(geminiSessions(c)).toEqual([]);
    // Kept as the hash folders' names: no path of the folder in the store's forget records.
    const kept = JSON.stringify(c.gateway.prepare('SELECT * FROM history_tombstone_gemini').all());
    expect(kept).toContain(laterHash);
    expect(kept.toLowerCase()).not.toContain('ana');
  });
});

describe('a folder forgotten with --not-stored, whose Gemini chats sit in a hash folder Gemini registered nowhere', () => {
  it.each([SITE, `${SITE}/`])('keeps them out (%s), after a restart too, under no project, until Unforget lifts it', async (typed) => {
    const { home } = owned;
    home.env.STEWARD_CLAUDE_ROOTS = join(home.dir, 'claude');
    home.env.STEWARD_GEMINI_ROOTS = join(home.dir, 'gemini');
    expect((await runIn(home.env, 'forget', '--project', typed, '--not-stored')).code).toBe(0);

    write(join(chats(), 'session-2026-01-14T09-30-5d1e2f3a.json'), fixture('legacy-session.json'));
    let c = await restart();
    await c.call('Backfill.Run', { all: true });
    expect(geminiSessions(c)).toEqual([]);
    expect((await projectNames(c)).filter((name: string) => name.includes('folder unknown'))).toEqual([]);
    // Kept as the hash folders' names, never the path.
    const kept = JSON.stringify(c.gateway.prepare('SELECT * FROM history_tombstone_gemini').all());
    expect(kept).toContain(SITE_HASH);
    expect(kept).not.toContain('dana');

    c = await restart();
    write(join(chats(), 'session-2026-01-15T10-00-later.json'), fixture('agentsview/standard_session.json').replaceAll('sess-uuid-1', LATER_ID));
    await c.call('Backfill.Run', { all: true });
    expect(geminiSessions(c)).toEqual([]);

    expect(await c.call('Forget.Lift', { kind: 'project', id: projectKeyOf(normalizeCwd(SITE)) })).toMatchObject({ lifted: true });
    await c.call('Backfill.Run', { all: true });
    expect(geminiSessions(c)).toEqual([LATER_ID, LEGACY_ID].sort());
  });
});

describe('Forget.Project geminiFolders', () => {
  it('takes only hash-folder names (64 hex digits), never a path, and at most 8', async () => {
    const c = await restart();
    const projectKey = projectKeyOf(normalizeCwd(SITE));
    await expect(c.call('Forget.Project', { projectKey, notStored: true, geminiFolders: [SITE] })).rejects.toMatchObject({ code: 'invalid_params' });
    await expect(c.call('Forget.Project', { projectKey, notStored: true, geminiFolders: Array.from({ length: 9 }, () => SITE_HASH) })).rejects.toMatchObject({ code: 'invalid_params' });
    expect((await c.call('Forget.List', {})).tombstones).toEqual([]);
  });
});

/**
 * A project forgotten by a Steward from before records kept their folder (no folder_hash, no Gemini
 * hash folders): its key is `p_` and the first 16 hex digits of the sha256 of its folder, the same
 * sha256 Gemini CLI names that folder's hash folder by, so that folder's chats stay out by the key alone.
 */
const FORGOTTEN = '/home/ana/src/forgetme';
const OTHER = '/home/ana/src/other';
const OTHER_ID = 'other-folder-chat-1';
/** Yesterday: inside a tick's window, whatever the fixture's dates. */
const YESTERDAY = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
const recentFixture = (name: string) => fixture(name).replace(/\d{4}-\d{2}-\d{2}T/g, `${YESTERDAY}T`);
/** A project's forget record as a version from before folder_hash wrote it (the column and the Gemini table left empty). */
const oldRecord = (c: Core, key: string, label: string) =>
  c.gateway.prepare("INSERT INTO history_tombstones (kind, id, label, created_at, folder_hash) VALUES ('project', ?, ?, ?, NULL)").run(key, label, Date.now() - 60_000);

function openWithGemini(): Core {
  const { home } = owned;
  home.env.STEWARD_GEMINI_ROOTS = join(home.dir, 'gemini');
  return open();
}

describe('a project an older Steward forgot, whose Gemini chats sit in its hash folder', () => {
  it('keeps them out at a tick by the record key, lists the record, and Unforget brings them back at the next tick', async () => {
    const c = openWithGemini();
    const key = projectKeyOf(normalizeCwd(FORGOTTEN));
    expect(key).toBe(`p_${hashOf(FORGOTTEN).slice(0, 16)}`);
    oldRecord(c, key, 'forgetme');
    write(join(chatsOf(FORGOTTEN), 'session-2026-01-14T09-30-5d1e2f3a.json'), recentFixture('legacy-session.json'));
    write(join(chatsOf(OTHER), 'session-2026-01-15T10-00-other.json'), recentFixture('agentsview/standard_session.json').replaceAll('sess-uuid-1', OTHER_ID));

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
    const c = openWithGemini();
    oldRecord(c, projectKeyOf(normalizeCwd(FORGOTTEN)), 'forgetme');
    write(join(chatsOf(FORGOTTEN), 'session-2026-01-14T09-30-5d1e2f3a.json'), recentFixture('legacy-session.json'));
    await c.call('Backfill.Run', { all: true });
    expect(geminiSessions(c)).toEqual([]);
  });
});
