import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { SearchIndex } from '../../../core/gateway/search-index.js';
import { claudeWorktreeRepo } from '../../../core/transcripts/providers/claude/parse.js';
import { expectIndexExact } from '../../support/search-index.js';
import { appendJsonl, claudeLine, writeJsonl } from '../../support/transcripts.js';
import { byProvider, captureHarness, type CaptureHarness } from './harness.js';

const FIXTURE = fileURLToPath(new URL('../../fixtures/transcripts/claude/background-job.jsonl', import.meta.url));
/** The fixture's session: a background job Claude Code ran in a worktree it made of /home/ana/src/uploader. */
const JOB = '7d3e9a41-2c5b-4f8e-b1a0-6e4d2c9f8b17';
const REPO = '/home/ana/src/uploader';
const WORKTREE = '/home/ana/src/uploader/.claude/worktrees/retry-audit';

let h: CaptureHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** The fixture is from 2026-09: an open window reads it whatever today is. */
function harness(): CaptureHarness {
  h = captureHarness({ query: { cache: { retention: { default_days: 0 } } } });
  return h;
}

const claude = async (c: CaptureHarness) => byProvider(await c.driver.tick(), 'claude');

/** The job where Claude Code keeps it (under the worktree's encoded cwd), and a session of the repository itself. */
function jobAndRepoSession(c: CaptureHarness): void {
  const dir = join(c.claudeRoot, 'projects', '-home-ana-src-uploader--claude-worktrees-retry-audit');
  mkdirSync(dir, { recursive: true });
  copyFileSync(FIXTURE, join(dir, `${JOB}.jsonl`));
  writeJsonl(join(c.claudeRoot, 'projects', '-home-ana-src-uploader', 'R.jsonl'), [claudeLine({ sessionId: 'R', text: 'add retries to upload()', cwd: REPO })]);
}

/** A session's cwd, the folder its project is, and that project's own folder. */
function home(c: CaptureHarness, id: string) {
  return c.db.prepare('SELECT s.cwd, s.project_cwd AS folder, p.cwd AS project FROM sessions s JOIN projects p ON p.project_key = s.project_key WHERE s.session_id = ?').get(id);
}

const listed = (c: CaptureHarness) =>
  c.projects
    .list()
    .map((p) => [p.cwd, p.sessions])
    .sort();

const worktreeState = (sessionId: string, originalCwd: string, worktreePath: string) => ({
  type: 'worktree-state',
  worktreeSession: { originalCwd, worktreePath, worktreeName: 'fix', worktreeBranch: 'worktree-fix', originalBranch: 'main', sessionId },
  sessionId,
});

describe("Claude: a session that ran in a worktree belongs to its repository's project", () => {
  it("a background job in a worktree Claude Code made is a conversation of the repository's project; its cwd stays the worktree", async () => {
    const c = harness();
    jobAndRepoSession(c);
    expect(await claude(c)).toMatchObject({ read: 2, failed: 0 });
    expect(home(c, JOB)).toEqual({ cwd: WORKTREE, folder: REPO, project: REPO });
    expect(listed(c)).toEqual([[REPO, 2]]);
    expectIndexExact(c.db);
  });

  it('without a worktree-state line: a cwd at or below <repo>/.claude/worktrees/<name> is <repo>, a subagent of it too; a worktree no line names stays its own folder', async () => {
    const c = harness();
    const dir = join(c.claudeRoot, 'projects', 'p');
    const inWorktree = '/w/app/.claude/worktrees/fix-login/packages/ui';
    writeJsonl(join(dir, 'A.jsonl'), [claudeLine({ sessionId: 'A', text: 'fix the login form', cwd: inWorktree })]);
    writeJsonl(join(dir, 'A', 'subagents', 'agent-a1.jsonl'), [claudeLine({ sessionId: 'A', agentId: 'a1', text: 'find the form', cwd: inWorktree })]);
    // A git worktree elsewhere: nothing in the transcript says which repository it belongs to.
    writeJsonl(join(dir, 'G.jsonl'), [claudeLine({ sessionId: 'G', text: 'tidy up', cwd: '/w/app-wt' })]);
    await claude(c);
    expect(home(c, 'A')).toEqual({ cwd: inWorktree, folder: '/w/app', project: '/w/app' });
    expect(home(c, 'A:agent-a1')).toMatchObject({ folder: '/w/app', project: '/w/app' });
    expect(home(c, 'G')).toEqual({ cwd: '/w/app-wt', folder: '/w/app-wt', project: '/w/app-wt' });
  });

  it('the worktree path shapes: Windows separators, a name with nothing below it; a folder merely named worktrees is no worktree', () => {
    expect(claudeWorktreeRepo('C:\\Users\\ana\\app\\.claude\\worktrees\\fix')).toBe('C:\\Users\\ana\\app');
    expect(claudeWorktreeRepo('/w/app/.claude/worktrees/fix/')).toBe('/w/app');
    expect(claudeWorktreeRepo('/w/app/.claude/worktrees')).toBeUndefined();
    expect(claudeWorktreeRepo('/w/app/worktrees/fix')).toBeUndefined();
    expect(claudeWorktreeRepo('/w/app')).toBeUndefined();
    expect(claudeWorktreeRepo(null)).toBeUndefined();
  });

  it('a worktree a hook made outside .claude belongs to the folder its worktree-state line names, and keeps it on later reads, even once the cwd leaves the worktree', async () => {
    const c = harness();
    const dir = join(c.claudeRoot, 'projects', 'p');
    const hooked = join(dir, 'H.jsonl');
    writeJsonl(hooked, [worktreeState('H', '/w/app', '/w/wt/app-hook'), claudeLine({ sessionId: 'H', text: 'try the new parser', cwd: '/w/wt/app-hook' })]);
    const made = join(dir, 'P.jsonl');
    writeJsonl(made, [claudeLine({ sessionId: 'P', text: 'bump the deps', cwd: '/w/app/.claude/worktrees/deps' })]);
    await claude(c);
    expect(home(c, 'H')).toEqual({ cwd: '/w/wt/app-hook', folder: '/w/app', project: '/w/app' });
    expect(home(c, 'P')).toMatchObject({ folder: '/w/app' });

    // Read on from the checkpoint: the worktree-state line is not read again, and the cwd moved.
    appendJsonl(hooked, [claudeLine({ sessionId: 'H', type: 'assistant', text: 'done', cwd: '/w/wt/app-hook/src' })]);
    appendJsonl(made, [claudeLine({ sessionId: 'P', type: 'assistant', text: 'done', cwd: '/tmp/scratch' })]);
    expect(await claude(c)).toMatchObject({ read: 2, partsWritten: 2 });
    expect(home(c, 'H')).toEqual({ cwd: '/w/wt/app-hook', folder: '/w/app', project: '/w/app' });
    expect(home(c, 'P')).toEqual({ cwd: '/w/app/.claude/worktrees/deps', folder: '/w/app', project: '/w/app' });
    expect(listed(c)).toEqual([['/w/app', 2]]);
  });

  it("a worktree-state line copied into another session's file never moves that session", async () => {
    const c = harness();
    const dir = join(c.claudeRoot, 'projects', 'p');
    writeJsonl(join(dir, 'W.jsonl'), [claudeLine({ sessionId: 'W', text: 'write the docs', cwd: '/w/docs' })]);
    writeJsonl(join(dir, 'X.jsonl'), [worktreeState('W', '/w/app', '/w/app/.claude/worktrees/fix'), claudeLine({ sessionId: 'X', text: 'go on', cwd: '/w/x' })]);
    await claude(c);
    expect(home(c, 'W')).toEqual({ cwd: '/w/docs', folder: '/w/docs', project: '/w/docs' });
    expect(home(c, 'X')).toEqual({ cwd: '/w/x', folder: '/w/x', project: '/w/x' });
  });

  it('a store checkpointed by parser 7 moves the worktree session into the repository project on the re-read; the worktree project is vacated and the search tags follow', async () => {
    const c = harness();
    jobAndRepoSession(c);
    await claude(c);
    // As parser 7 left it: the job in a project of the worktree's own, every Claude file checkpointed by 7.
    const key = c.projects.touch(WORKTREE);
    c.db.prepare('UPDATE sessions SET project_key = ?, project_cwd = ? WHERE session_id = ?').run(key, WORKTREE, JOB);
    new SearchIndex(c.db).sessionMoved(JOB);
    c.db.prepare("UPDATE file_checkpoints SET parser_version = 7 WHERE provider = 'claude'").run();
    expect(listed(c)).toEqual([
      [REPO, 1],
      [WORKTREE, 1],
    ]);
    expectIndexExact(c.db);

    await c.restart();
    expect(await claude(c)).toMatchObject({ read: 2, partsWritten: 0 });
    expect(home(c, JOB)).toEqual({ cwd: WORKTREE, folder: REPO, project: REPO });
    expect(listed(c)).toEqual([[REPO, 2]]);
    expect(c.count('SELECT COUNT(*) FROM projects WHERE project_key = ?', key)).toBe(0);
    expectIndexExact(c.db);
  });
});

/** The fixture's bytes, saved in a Claude projects folder under `name`, captured alone. */
async function captured(name: string) {
  const c = harness();
  const dir = join(c.claudeRoot, 'projects', '-home-ana-src-uploader--claude-worktrees-retry-audit');
  mkdirSync(dir, { recursive: true });
  copyFileSync(FIXTURE, join(dir, name));
  expect(await claude(c)).toMatchObject({ read: 1, failed: 0 });
  const where = home(c, JOB);
  await c.close();
  h = undefined;
  return where;
}

describe("Claude: a worktree session's project does not depend on its file's name", () => {
  it('the same bytes saved as <sessionId>.jsonl or under another name land in the repository project', async () => {
    const expected = { cwd: WORKTREE, folder: REPO, project: REPO };
    expect(await captured(`${JOB}.jsonl`)).toEqual(expected);
    expect(await captured('background-job.jsonl')).toEqual(expected);
  });

  it('a store checkpointed by parser 8 moves a job saved under another name into the repository project on the re-read', async () => {
    const c = harness();
    const dir = join(c.claudeRoot, 'projects', '-home-ana-src-uploader--claude-worktrees-retry-audit');
    mkdirSync(dir, { recursive: true });
    copyFileSync(FIXTURE, join(dir, 'background-job.jsonl'));
    await claude(c);
    // As parser 8 left it: the job in a project of the worktree's own.
    const key = c.projects.touch(WORKTREE);
    c.db.prepare('UPDATE sessions SET project_key = ?, project_cwd = ? WHERE session_id = ?').run(key, WORKTREE, JOB);
    new SearchIndex(c.db).sessionMoved(JOB);
    c.db.prepare("UPDATE file_checkpoints SET parser_version = 8 WHERE provider = 'claude'").run();

    await c.restart();
    expect(await claude(c)).toMatchObject({ read: 1, partsWritten: 0 });
    expect(home(c, JOB)).toEqual({ cwd: WORKTREE, folder: REPO, project: REPO });
    expect(c.count('SELECT COUNT(*) FROM projects WHERE project_key = ?', key)).toBe(0);
    expectIndexExact(c.db);
  });

  it('without a worktree-state line: a cwd under <repo>/.claude/worktrees/ is <repo> under any file name', async () => {
    const c = harness();
    const inWorktree = '/w/app/.claude/worktrees/fix-login';
    writeJsonl(join(c.claudeRoot, 'projects', 'p', 'saved-copy.jsonl'), [claudeLine({ sessionId: 'A', text: 'fix the login form', cwd: inWorktree })]);
    await claude(c);
    expect(home(c, 'A')).toEqual({ cwd: inWorktree, folder: '/w/app', project: '/w/app' });
  });

  it("the session's own file beside a copy still decides: a copy's worktree-state line moves nothing", async () => {
    const c = harness();
    const dir = join(c.claudeRoot, 'projects', 'p');
    writeJsonl(join(dir, 'W.jsonl'), [claudeLine({ sessionId: 'W', text: 'write the docs', cwd: '/w/docs' })]);
    writeJsonl(join(dir, 'copy.jsonl'), [
      { type: 'worktree-state', worktreeSession: { originalCwd: '/w/app', worktreePath: '/w/app/.claude/worktrees/fix', sessionId: 'W' }, sessionId: 'W' },
      claudeLine({ sessionId: 'W', text: 'write the docs', cwd: '/w/app/.claude/worktrees/fix' }),
    ]);
    await claude(c);
    expect(home(c, 'W')).toEqual({ cwd: '/w/docs', folder: '/w/docs', project: '/w/docs' });
  });
});
