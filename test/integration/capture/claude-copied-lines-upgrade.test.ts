import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../../../core/cli/index.js';
import { GatewayReader, openGateway } from '../../../core/gateway/index.js';
import { SearchIndex } from '../../../core/gateway/search-index.js';
import { ProjectStore } from '../../../core/projects/index.js';
import type { Db } from '../../../core/store/index.js';
import { captureIo as io } from '../../support/cli.js';
import { tempHome, type TempHome } from '../../support/home.js';
import { expectIndexExact } from '../../support/search-index.js';
import { claudeLine, writeJsonl } from '../../support/transcripts.js';
import { byProvider, captureHarness, type CaptureHarness } from './harness.js';

let h: CaptureHarness | undefined;
let home: TempHome | undefined;
afterEach(async () => {
  await h?.close();
  home?.cleanup();
  h = undefined;
  home = undefined;
});

/** The Claude parser before ff7be3e (parser 7), which gave a Cowork file's project to every session its lines named. */
const BEFORE_7 = 6;

/**
 * What that parser left for a session whose lines a Cowork transcript had copied, read after the
 * session's own file: the session under the Cowork file's project, the project it left dropped as
 * the sink vacated it then, its indexed parts tagged with the new project, and every Claude file
 * checkpointed by that parser (or by parser 7, whose re-read left the session where it was), so the
 * next tick reads each one again from its start.
 */
function homedByTheOlderParser(db: Db, sessionId: string, coworkFolder: string, checkpointedBy = BEFORE_7): void {
  const projects = new ProjectStore(db, new GatewayReader(db));
  const left = db.prepare('SELECT project_key FROM sessions WHERE session_id = ?').pluck().get(sessionId) as string;
  const key = projects.touch(coworkFolder);
  db.prepare('UPDATE sessions SET project_key = ?, project_cwd = ? WHERE session_id = ?').run(key, coworkFolder, sessionId);
  projects.vacated(left);
  new SearchIndex(db).sessionMoved(sessionId);
  db.prepare("UPDATE file_checkpoints SET parser_version = ? WHERE provider = 'claude'").run(checkpointedBy);
}

/**
 * Claude Code session S (`-w-app/S.jsonl`, cwd /w/app) and Cowork session C1, whose transcript holds
 * S's two lines, copied with their `uuid` and `sessionId` (reference §5.6), then one of its own; C1's
 * sidecar names `folder`, or no folder (the one "Claude Desktop" project).
 */
function fixture(claudeRoot: string, desktopRoot: string, folder?: string): void {
  const u1 = claudeLine({ sessionId: 'S', text: 'fix the login form', cwd: '/w/app', uuid: '00000000-0000-4000-8000-0000000000c1' });
  const u2 = claudeLine({ sessionId: 'S', type: 'assistant', text: 'done', cwd: '/w/app', uuid: '00000000-0000-4000-8000-0000000000c2' });
  writeJsonl(join(claudeRoot, 'projects', '-w-app', 'S.jsonl'), [u1, u2]);
  const ws = join(desktopRoot, 'local-agent-mode-sessions', 'org-1', 'ws-1');
  writeJsonl(join(ws, 'local_C1', '.claude', 'projects', '-sessions-vm', 'C1.jsonl'), [u1, u2, claudeLine({ sessionId: 'C1', text: 'now sort my receipts', cwd: '/sessions/vm' })]);
  writeFileSync(join(ws, 'local_C1.json'), JSON.stringify({ sessionId: 'local_C1', cliSessionId: 'C1', title: 'Receipts', ...(folder ? { userSelectedFolders: [folder] } : {}) }));
}

function homes(db: Db, projects: ProjectStore) {
  const rows = db.prepare('SELECT s.session_id AS id, s.project_cwd AS folder, p.cwd AS project FROM sessions s JOIN projects p ON p.project_key = s.project_key ORDER BY s.session_id').all();
  const listed = projects
    .list()
    .map((p) => [p.cwd, p.sessions])
    .sort();
  return { rows, listed };
}

describe('a session the older Claude parser homed by lines copied into a Cowork transcript goes back on the upgrade', () => {
  it.each([BEFORE_7, 7])("a Claude Code session under the 'Claude Desktop' project goes back to its cwd, and the search tags follow (files read by parser %i)", async (checkpointedBy) => {
    const c = (h = captureHarness());
    fixture(c.claudeRoot, c.desktopRoot);
    expect(byProvider(await c.driver.tick(), 'claude')).toMatchObject({ read: 2 });
    homedByTheOlderParser(c.db, 'S', 'Claude Desktop', checkpointedBy);
    expect(homes(c.db, c.projects).listed).toEqual([['Claude Desktop', 2]]);

    await c.restart();
    expect(byProvider(await c.driver.tick(), 'claude')).toMatchObject({ read: 2, partsWritten: 0 });
    expect(homes(c.db, c.projects)).toEqual({
      rows: [
        { id: 'C1', folder: 'Claude Desktop', project: 'Claude Desktop' },
        { id: 'S', folder: '/w/app', project: '/w/app' },
      ],
      listed: [
        ['/w/app', 1],
        ['Claude Desktop', 1],
      ],
    });
    expectIndexExact(c.db);
  });

  it('a Claude Code session first recorded from its copy in a Cowork transcript is said to come from Claude Code once its own file is read', async () => {
    const c = (h = captureHarness());
    fixture(c.claudeRoot, c.desktopRoot);
    await c.driver.tick();
    const sourceOf = (id: string) => c.db.prepare('SELECT source FROM sessions WHERE session_id = ?').pluck().get(id);
    expect([sourceOf('S'), sourceOf('C1')]).toEqual(['code', 'desktop']);
    // As a store holds it when the copy was read first: the session's source taken from the Cowork file.
    c.db.prepare("UPDATE sessions SET source = 'desktop' WHERE session_id = 'S'").run();
    c.db.prepare("UPDATE file_checkpoints SET parser_version = 7 WHERE provider = 'claude'").run();

    await c.restart();
    await c.driver.tick();
    expect([sourceOf('S'), sourceOf('C1')]).toEqual(['code', 'desktop']);
  });

  it("a Claude Code session under the folder a Cowork session selected goes back; that folder's project keeps its own session", async () => {
    const c = (h = captureHarness());
    fixture(c.claudeRoot, c.desktopRoot, '/Users/ana/Receipts');
    await c.driver.tick();
    homedByTheOlderParser(c.db, 'S', '/Users/ana/Receipts');
    expect(homes(c.db, c.projects).listed).toEqual([['/Users/ana/Receipts', 2]]);

    await c.restart();
    await c.driver.tick();
    expect(homes(c.db, c.projects).listed).toEqual([
      ['/Users/ana/Receipts', 1],
      ['/w/app', 1],
    ]);
    expectIndexExact(c.db);
  });

  it('a Cowork session moved by its copy in another Cowork transcript goes back to the folder the user selected', async () => {
    const c = (h = captureHarness());
    const ws = join(c.desktopRoot, 'local-agent-mode-sessions', 'org-1', 'ws-1');
    const mine = claudeLine({ sessionId: 'C2', text: 'tidy my invoices', cwd: '/sessions/vm', uuid: '00000000-0000-4000-8000-0000000000d1' });
    writeJsonl(join(ws, 'local_C2', '.claude', 'projects', '-sessions-vm', 'C2.jsonl'), [mine]);
    writeFileSync(join(ws, 'local_C2.json'), JSON.stringify({ sessionId: 'local_C2', cliSessionId: 'C2', title: 'Invoices', userSelectedFolders: ['/Users/ana/Invoices'] }));
    writeJsonl(join(ws, 'local_C3', '.claude', 'projects', '-sessions-vm', 'C3.jsonl'), [mine, claudeLine({ sessionId: 'C3', text: 'and the rest', cwd: '/sessions/vm' })]);
    writeFileSync(join(ws, 'local_C3.json'), JSON.stringify({ sessionId: 'local_C3', cliSessionId: 'C3', title: 'More' }));
    await c.driver.tick();
    homedByTheOlderParser(c.db, 'C2', 'Claude Desktop');
    expect(homes(c.db, c.projects).listed).toEqual([['Claude Desktop', 2]]);

    await c.restart();
    await c.driver.tick();
    expect(homes(c.db, c.projects).listed).toEqual([
      ['/Users/ana/Invoices', 1],
      ['Claude Desktop', 1],
    ]);
    expectIndexExact(c.db);
  });

  it("through the CLI: after the upgrade's sweep, steward projects lists the session under its own folder again", async () => {
    home = tempHome('steward-copied-upgrade-');
    const claudeRoot = join(home.dir, 'roots', 'claude');
    const desktopRoot = join(home.dir, 'roots', 'desktop');
    Object.assign(home.env, { STEWARD_CLAUDE_ROOTS: claudeRoot, STEWARD_CLAUDE_DESKTOP_ROOTS: desktopRoot });
    fixture(claudeRoot, desktopRoot);
    expect(await runCli(['sweep'], io(home.env))).toBe(0);
    const db = openGateway(home.dir);
    try {
      homedByTheOlderParser(db, 'S', 'Claude Desktop');
    } finally {
      db.close();
    }

    expect(await runCli(['sweep'], io(home.env))).toBe(0);
    const out = io(home.env);
    expect(await runCli(['projects', '--json'], out)).toBe(0);
    const listed = (JSON.parse(out.out) as { projects: Array<{ cwd: string; sessions: number }> }).projects.map((p) => [p.cwd, p.sessions]).sort();
    expect(listed).toEqual([
      ['/w/app', 1],
      ['Claude Desktop', 1],
    ]);
  });
});
