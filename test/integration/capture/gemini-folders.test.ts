import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { Tombstones } from '../../../core/gateway/index.js';
import { byProvider, captureHarness, type CaptureHarness } from './harness.js';

/**
 * Gemini CLI's old chats sit in `tmp/<sha256 of the project folder>/chats/`; a folder Gemini
 * registered nowhere is known only by that hash. Steward matches it against the folders it knows
 * from every agent; a hash no known folder has stays its own project.
 */
const FIXTURES = fileURLToPath(new URL('../../fixtures/transcripts/gemini/', import.meta.url));
const SITE = '/home/dana/src/site';
const SITE_HASH = createHash('sha256').update(SITE).digest('hex');
const LEGACY_ID = '5d1e2f3a-7b6c-4d5e-8f90-a1b2c3d4e5f6';
const OTHER_ID = 'sess-uuid-1';
const CODEX_ID = '019f9b22-2222-7ccc-8ddd-1e2f3a4b5c02';
const UNKNOWN_A = 'a'.repeat(64);
const UNKNOWN_B = 'b'.repeat(64);

let h: CaptureHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const openWindow = () => captureHarness({ query: { cache: { retention: { default_days: 0 } } } });
const fixture = (name: string) => readFileSync(join(FIXTURES, name), 'utf8');

function write(path: string, text: string): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  return path;
}

const legacyChat = (root: string, folder: string) => write(join(root, 'tmp', folder, 'chats', 'session-2026-01-14T09-30-5d1e2f3a.json'), fixture('legacy-session.json'));
const otherChat = (root: string, folder: string) => write(join(root, 'tmp', folder, 'chats', 'session-2024-01-01T10-00-sess-uui.json'), fixture('agentsview/standard_session.json'));

/** A Codex rollout recorded in `cwd`: how Steward comes to know a folder from another agent. */
function codexRollout(root: string, cwd: string): void {
  const env = (timestamp: string, type: string, payload: unknown) => JSON.stringify({ timestamp, type, payload });
  const lines = [
    env('2026-11-28T08:00:00.000Z', 'session_meta', { id: CODEX_ID, timestamp: '2026-11-28T08:00:00.000Z', cwd, originator: 'codex_exec', cli_version: '0.161.0', source: 'exec' }),
    env('2026-11-28T08:00:01.000Z', 'response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Make build.sh fail fast' }] }),
    env('2026-11-28T08:00:12.000Z', 'response_item', { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Added set -euo pipefail.' }] }),
  ];
  write(join(root, 'sessions', '2026', '11', '28', `rollout-2026-11-28T08-00-00-${CODEX_ID}.jsonl`), `${lines.join('\n')}\n`);
}

function projectsOf(harness: CaptureHarness): Array<{ name: string; cwd: string; sessions: number }> {
  return harness.projects
    .list()
    .map((p) => ({ name: p.name, cwd: p.cwd, sessions: p.sessions }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

const projectOf = (harness: CaptureHarness, sessionId: string) => harness.db.prepare('SELECT project_key FROM sessions WHERE session_id = ?').pluck().get(sessionId) as string | null;

describe('Gemini chats in a hash folder Gemini registered nowhere', () => {
  it("join the project of the folder another agent's session made known", async () => {
    h = openWindow();
    codexRollout(h.codexRoot, SITE);
    legacyChat(h.geminiRoot, SITE_HASH);
    await h.driver.tick();
    expect(projectsOf(h)).toEqual([{ name: 'site', cwd: SITE, sessions: 2 }]);
    expect(projectOf(h, LEGACY_ID)).toBe(h.projects.keyOf(SITE));
  });

  it('whose hash no known folder has are each a project of their own, named for a person', async () => {
    h = openWindow();
    legacyChat(h.geminiRoot, UNKNOWN_A);
    otherChat(h.geminiRoot, UNKNOWN_B);
    await h.driver.tick();
    expect(projectsOf(h).map(({ name, sessions }) => ({ name, sessions }))).toEqual([
      { name: 'Gemini CLI project aaaaaaaa (folder unknown)', sessions: 1 },
      { name: 'Gemini CLI project bbbbbbbb (folder unknown)', sessions: 1 },
    ]);
  });

  it("forgetting one unknown folder's project keeps out only that folder's new chats", async () => {
    h = openWindow();
    legacyChat(h.geminiRoot, UNKNOWN_A);
    await h.driver.tick();
    const forgotten = projectOf(h, LEGACY_ID)!;
    // What forget --project does to capture: the project's key is kept out, and its rows go.
    new Tombstones(h.db).add('project', forgotten, 'Gemini CLI project aaaaaaaa (folder unknown)');
    h.db.prepare('DELETE FROM parts WHERE session_id = ?').run(LEGACY_ID);
    h.db.prepare('DELETE FROM sessions WHERE session_id = ?').run(LEGACY_ID);
    otherChat(h.geminiRoot, UNKNOWN_B);
    write(join(h.geminiRoot, 'tmp', UNKNOWN_A, 'chats', 'session-2024-01-02T10-00-later.json'), fixture('agentsview/standard_session.json').replace('sess-uuid', 'later-in-a'));
    await h.driver.tick();
    expect(h.db.prepare("SELECT session_id FROM sessions WHERE provider = 'gemini' ORDER BY session_id").pluck().all()).toEqual([OTHER_ID]);
  });

  it('move to the known folder on the next sweep once another agent makes it known; the project they left goes', async () => {
    h = openWindow();
    legacyChat(h.geminiRoot, SITE_HASH);
    await h.driver.tick();
    expect(projectsOf(h)).toEqual([{ name: `Gemini CLI project ${SITE_HASH.slice(0, 8)} (folder unknown)`, cwd: `Gemini CLI project ${SITE_HASH.slice(0, 8)} (folder unknown)`, sessions: 1 }]);
    codexRollout(h.codexRoot, SITE);
    const stats = await h.driver.tick();
    // The chat moves, its file not read again.
    expect(byProvider(stats, 'gemini')).toMatchObject({ read: 0, partsWritten: 0 });
    expect(projectsOf(h)).toEqual([{ name: 'site', cwd: SITE, sessions: 2 }]);
    // Once moved, it is not read again.
    expect(byProvider(await h.driver.tick(), 'gemini')).toMatchObject({ read: 0 });
  });

  it("move to the folder Gemini's projects.json registers later on a backfill of Gemini", async () => {
    h = openWindow();
    legacyChat(h.geminiRoot, SITE_HASH);
    await h.driver.tick();
    write(join(h.geminiRoot, 'projects.json'), JSON.stringify({ projects: { [SITE]: 'site' } }));
    await h.driver.backfill({ provider: 'gemini' });
    expect(projectsOf(h)).toEqual([{ name: 'site', cwd: SITE, sessions: 1 }]);
    expect(h.db.prepare('SELECT cwd FROM sessions WHERE session_id = ?').pluck().get(LEGACY_ID)).toBe(SITE);
  });

  it('stored by parser 5 in the one "Gemini CLI" project, move to their own or known folder when read again', async () => {
    h = openWindow();
    codexRollout(h.codexRoot, SITE);
    legacyChat(h.geminiRoot, SITE_HASH);
    otherChat(h.geminiRoot, UNKNOWN_B);
    await h.driver.tick();
    // What parser 5 stored: both chats in "Gemini CLI".
    const bucket = h.projects.touch('Gemini CLI');
    h.db.prepare("UPDATE sessions SET project_cwd = 'Gemini CLI', project_key = ? WHERE provider = 'gemini'").run(bucket);
    h.db.prepare("UPDATE file_checkpoints SET parser_version = 5 WHERE provider = 'gemini'").run();
    await h.restart();
    expect(byProvider(await h.driver.tick(), 'gemini')).toMatchObject({ read: 2 });
    expect(projectsOf(h).map(({ name, sessions }) => ({ name, sessions }))).toEqual([
      { name: 'Gemini CLI project bbbbbbbb (folder unknown)', sessions: 1 },
      { name: 'site', sessions: 2 },
    ]);
  });
});

describe('Gemini chats of a hash folder stored before another agent makes the folder known', () => {
  /** Chats of SITE's hash folder imported whole; the 2024 ones are older than the default window (365 days), the 2026 one inside it. */
  async function importedWhole(): Promise<CaptureHarness> {
    const harness = captureHarness();
    legacyChat(harness.geminiRoot, SITE_HASH);
    otherChat(harness.geminiRoot, SITE_HASH);
    const aged = write(join(harness.geminiRoot, 'tmp', SITE_HASH, 'chats', 'session-2024-01-02T10-00-older.json'), fixture('agentsview/standard_session.json').replaceAll('sess-uuid', 'older-in-site'));
    utimesSync(aged, new Date('2024-01-02T10:05:00Z'), new Date('2024-01-02T10:05:00Z'));
    await harness.driver.backfill({ all: true });
    expect(projectsOf(harness).map(({ name, sessions }) => ({ name, sessions }))).toEqual([{ name: `Gemini CLI project ${SITE_HASH.slice(0, 8)} (folder unknown)`, sessions: 3 }]);
    return harness;
  }

  it('all move to its project on the next sweep, those older than the window included', async () => {
    h = await importedWhole();
    codexRollout(h.codexRoot, SITE);
    // Each `steward sweep` is a process of its own.
    await h.restart();
    await h.driver.tick();
    expect(projectsOf(h)).toEqual([{ name: 'site', cwd: SITE, sessions: 4 }]);
    expect(h.db.prepare("SELECT DISTINCT project_key FROM sessions WHERE provider = 'gemini'").pluck().all()).toEqual([h.projects.keyOf(SITE)]);
  });

  it('are not read again on the sweeps after', async () => {
    h = await importedWhole();
    codexRollout(h.codexRoot, SITE);
    await h.restart();
    await h.driver.tick();
    await h.restart();
    expect(byProvider(await h.driver.tick(), 'gemini')).toMatchObject({ read: 0 });
    await h.restart();
    expect(byProvider(await h.driver.tick(), 'gemini')).toMatchObject({ read: 0 });
  });
});

describe('a forget of the one "Gemini CLI" project an earlier version made', () => {
  it('still keeps out every chat of an unknown hash folder after the upgrade, until it is lifted', async () => {
    h = openWindow();
    codexRollout(h.codexRoot, SITE);
    legacyChat(h.geminiRoot, SITE_HASH);
    otherChat(h.geminiRoot, UNKNOWN_B);
    await h.driver.tick();
    // Parser 5 had both chats in "Gemini CLI", and the person forgot that project: its key kept out, its rows gone.
    const bucket = h.projects.keyOf('Gemini CLI');
    const tombstones = new Tombstones(h.db);
    tombstones.add('project', bucket, 'Gemini CLI');
    h.db.prepare("DELETE FROM parts WHERE provider = 'gemini'").run();
    h.db.prepare("DELETE FROM sessions WHERE provider = 'gemini'").run();
    h.db.prepare("UPDATE file_checkpoints SET parser_version = 5 WHERE provider = 'gemini'").run();
    await h.restart();
    // The upgrade's re-read puts each chat under its own folder's key, which the old forget never named.
    const reread = byProvider(await h.driver.tick(), 'gemini');
    expect(reread.read).toBe(2);
    write(join(h.geminiRoot, 'tmp', UNKNOWN_A, 'chats', 'session-2024-01-02T10-00-later.json'), fixture('agentsview/standard_session.json').replace('sess-uuid', 'later-in-a'));
    await h.driver.tick();
    await h.driver.backfill({ provider: 'gemini' });
    expect(h.db.prepare("SELECT COUNT(*) FROM sessions WHERE provider = 'gemini'").pluck().get()).toBe(0);
    // Unforget lifts it, and a backfill brings them all.
    tombstones.remove('project', bucket);
    await h.driver.backfill({ provider: 'gemini' });
    expect(h.db.prepare("SELECT COUNT(*) FROM sessions WHERE provider = 'gemini'").pluck().get()).toBe(3);
  });
});

describe('a forget that covers a hash folder once another agent makes its folder known', () => {
  const unknownSite = `Gemini CLI project ${SITE_HASH.slice(0, 8)} (folder unknown)`;
  const siteChat = (harness: CaptureHarness, name: string, id: string) =>
    write(join(harness.geminiRoot, 'tmp', SITE_HASH, 'chats', `session-2024-01-0${name}.json`), fixture('agentsview/standard_session.json').replace('sess-uuid', id));

  it('of the "folder unknown" project keeps out that folder\'s new chats after the folder is known, until it is lifted', async () => {
    h = openWindow();
    siteChat(h, '2T10-00-later', 'in-site');
    await h.driver.tick();
    // What forget --project does to capture: the folder-unknown project's key kept out, its rows gone.
    const forgotten = h.projects.keyOf(unknownSite);
    const tombstones = new Tombstones(h.db);
    tombstones.add('project', forgotten, unknownSite);
    h.db.prepare("DELETE FROM parts WHERE provider = 'gemini'").run();
    h.db.prepare("DELETE FROM sessions WHERE provider = 'gemini'").run();
    codexRollout(h.codexRoot, SITE);
    await h.driver.tick();
    siteChat(h, '3T10-00-again', 'again-in-site');
    await h.driver.tick();
    await h.driver.backfill({ provider: 'gemini' });
    expect(h.db.prepare("SELECT COUNT(*) FROM sessions WHERE provider = 'gemini'").pluck().get()).toBe(0);
    // Unforget lifts it, and a backfill brings both chats, into the folder's project.
    tombstones.remove('project', forgotten);
    await h.driver.backfill({ provider: 'gemini' });
    expect(h.db.prepare("SELECT DISTINCT project_key FROM sessions WHERE provider = 'gemini'").pluck().all()).toEqual([h.projects.keyOf(SITE)]);
    expect(h.db.prepare("SELECT COUNT(*) FROM sessions WHERE provider = 'gemini'").pluck().get()).toBe(2);
  });

  it("of the folder's project leaves the stored chats where they are instead of moving them in, until it is lifted", async () => {
    h = openWindow();
    siteChat(h, '2T10-00-later', 'in-site');
    await h.driver.tick();
    const unknownKey = h.projects.keyOf(unknownSite);
    // The person had forgotten the site project (Codex's conversations there); the folder becomes known now.
    const site = h.projects.touch(SITE);
    const tombstones = new Tombstones(h.db);
    tombstones.add('project', site, 'site');
    codexRollout(h.codexRoot, SITE);
    await h.restart();
    await h.driver.tick();
    expect(h.db.prepare('SELECT COUNT(*) FROM sessions WHERE project_key = ?').pluck().get(site)).toBe(0);
    expect(h.db.prepare("SELECT project_key FROM sessions WHERE provider = 'gemini'").pluck().all()).toEqual([unknownKey]);
    // Counted once in the log, without a path.
    const told = h.logger.lines.filter((line) => line.includes('not moved into a forgotten project'));
    expect(told).toHaveLength(1);
    expect(told[0]).toContain('sessions=1');
    expect(told[0]).not.toContain(SITE);
    // Held back on every sweep, not only the first of a process.
    await h.driver.tick();
    expect(h.db.prepare('SELECT COUNT(*) FROM sessions WHERE project_key = ?').pluck().get(site)).toBe(0);
    // Unforget lifts it: the next sweep moves them.
    tombstones.remove('project', site);
    await h.driver.tick();
    expect(h.db.prepare("SELECT project_key FROM sessions WHERE provider = 'gemini'").pluck().all()).toEqual([site]);
  });
});

describe("Gemini CLI's reply to a compression summary", () => {
  it('is no message: counted meta_only, the summary stays the compaction', async () => {
    h = openWindow();
    write(join(h.geminiRoot, 'tmp', 'mailer', 'chats', 'session-2026-06-10T08-00-3b7e0c2a.jsonl'), fixture('compressed-session.jsonl'));
    await h.driver.tick();
    const texts = h.db.prepare("SELECT kind, text FROM parts WHERE provider = 'gemini' ORDER BY ts").all() as Array<{ kind: string; text: string }>;
    expect(texts.filter((p) => p.text?.includes('Thanks for the additional context'))).toEqual([]);
    expect(texts.filter((p) => p.kind === 'compaction')).toHaveLength(1);
  });
});
