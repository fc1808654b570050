import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { claudeLine, writeJsonl } from '../../support/transcripts.js';
import { byProvider, captureHarness, type CaptureHarness } from './harness.js';

let h: CaptureHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const claude = async (c: CaptureHarness) => byProvider(await c.driver.tick(), 'claude');

/**
 * Claude Code session S (`~/.claude/projects/-w-app/S.jsonl`, cwd /w/app) and a Cowork transcript C1
 * that holds S's two lines, copied with their `uuid` and `sessionId` (reference §5.6), then one line of
 * its own. The sidecar names no folder, so C1 belongs to the one "Claude Desktop" project.
 */
function fixture(c: CaptureHarness) {
  const u1 = claudeLine({ sessionId: 'S', text: 'fix the login form', cwd: '/w/app', uuid: '00000000-0000-4000-8000-0000000000c1' });
  const u2 = claudeLine({ sessionId: 'S', type: 'assistant', text: 'done', cwd: '/w/app', uuid: '00000000-0000-4000-8000-0000000000c2' });
  const own = join(c.claudeRoot, 'projects', '-w-app', 'S.jsonl');
  const ws = join(c.desktopRoot, 'local-agent-mode-sessions', 'org-1', 'ws-1');
  const cowork = join(ws, 'local_C1', '.claude', 'projects', '-sessions-vm', 'C1.jsonl');
  return {
    writeOwn: () => writeJsonl(own, [u1, u2]),
    writeCowork: () => {
      writeJsonl(cowork, [u1, u2, claudeLine({ sessionId: 'C1', text: 'now sort my receipts', cwd: '/sessions/vm' })]);
      writeFileSync(join(ws, 'local_C1.json'), JSON.stringify({ sessionId: 'local_C1', cliSessionId: 'C1', title: 'Receipts' }));
    },
  };
}

function homes(c: CaptureHarness) {
  const rows = c.db.prepare('SELECT s.session_id AS id, s.project_cwd AS folder, p.cwd AS project FROM sessions s JOIN projects p ON p.project_key = s.project_key ORDER BY s.session_id').all();
  const projects = c.projects.list().map((p) => ({ cwd: p.cwd, sessions: p.sessions }));
  return { rows, projects: projects.sort((a, b) => a.cwd.localeCompare(b.cwd)) };
}

const EXPECTED = {
  rows: [
    { id: 'C1', folder: 'Claude Desktop', project: 'Claude Desktop' },
    { id: 'S', folder: '/w/app', project: '/w/app' },
  ],
  projects: [
    { cwd: '/w/app', sessions: 1 },
    { cwd: 'Claude Desktop', sessions: 1 },
  ],
};

describe("Claude: a session's project comes from its own file, never from lines copied into another", () => {
  it('the Cowork copy read first does not take the Code session into the Claude Desktop project', async () => {
    const c = (h = captureHarness());
    const f = fixture(c);
    f.writeCowork();
    expect(await claude(c)).toMatchObject({ read: 1, partsWritten: 3 });
    f.writeOwn();
    expect(await claude(c)).toMatchObject({ read: 1, partsWritten: 0 });
    expect(homes(c)).toEqual(EXPECTED);
  });

  it('the Cowork copy read after the own file does not move the Code session', async () => {
    const c = (h = captureHarness());
    const f = fixture(c);
    f.writeOwn();
    expect(await claude(c)).toMatchObject({ read: 1, partsWritten: 2 });
    f.writeCowork();
    expect(await claude(c)).toMatchObject({ read: 1, partsWritten: 1 });
    expect(homes(c)).toEqual(EXPECTED);
  });

  it('both files in one tick, and read again from the start, still agree', async () => {
    const c = (h = captureHarness());
    const f = fixture(c);
    f.writeOwn();
    f.writeCowork();
    expect(await claude(c)).toMatchObject({ read: 2, partsWritten: 3 });
    expect(homes(c)).toEqual(EXPECTED);
    // Another parser read them (a re-read from 0, as after an upgrade): nothing moves.
    c.db.exec('UPDATE file_checkpoints SET parser_version = parser_version - 1');
    await c.restart();
    expect(await claude(c)).toMatchObject({ read: 2, partsWritten: 0 });
    expect(homes(c)).toEqual(EXPECTED);
  });

  it("a Cowork session's own files keep its project: its transcript, its subagents, and a Task call's subagent", async () => {
    const c = (h = captureHarness());
    const ws = join(c.desktopRoot, 'local-agent-mode-sessions', 'org-1', 'ws-1');
    const dir = join(ws, 'local_C2', '.claude', 'projects', '-sessions-vm');
    const call = claudeLine({ sessionId: 'C2', type: 'assistant', cwd: '/sessions/vm', content: [{ type: 'tool_use', id: 'toolu_C2', name: 'Task', input: { prompt: 'look', subagent_type: 'Explore' } }] });
    const result = claudeLine({ sessionId: 'C2', cwd: '/sessions/vm', content: [{ type: 'tool_result', tool_use_id: 'toolu_C2', content: 'agentId: t9' }] });
    writeJsonl(join(dir, 'C2.jsonl'), [claudeLine({ sessionId: 'C2', text: 'tidy my invoices', cwd: '/sessions/vm' }), call, result]);
    writeJsonl(join(dir, 'C2', 'subagents', 'agent-a1.jsonl'), [claudeLine({ sessionId: 'C2', agentId: 'a1', text: 'list the files', cwd: '/sessions/vm' })]);
    writeFileSync(join(ws, 'local_C2.json'), JSON.stringify({ sessionId: 'local_C2', cliSessionId: 'C2', title: 'Invoices', userSelectedFolders: ['/Users/ana/Invoices'] }));
    await claude(c);
    const folders = c.db.prepare('SELECT session_id AS id, project_cwd AS folder FROM sessions ORDER BY session_id').all();
    expect(folders).toEqual([
      { id: 'C2', folder: '/Users/ana/Invoices' },
      { id: 'C2:agent-a1', folder: '/Users/ana/Invoices' },
      { id: 'C2:agent-t9', folder: '/Users/ana/Invoices' },
    ]);
  });
});
