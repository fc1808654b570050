import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { SearchIndex } from '../../../core/gateway/search-index.js';
import { expectIndexExact } from '../../support/search-index.js';
import { claudeLine, writeJsonl } from '../../support/transcripts.js';
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

function home(c: CaptureHarness, id: string) {
  return c.db.prepare('SELECT s.cwd, s.project_cwd AS folder, p.cwd AS project FROM sessions s JOIN projects p ON p.project_key = s.project_key WHERE s.session_id = ?').get(id);
}

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
    const key = c.projects.touch(WORKTREE, null);
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
