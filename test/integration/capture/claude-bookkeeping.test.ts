import { copyFileSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { formatSweepResult } from '../../../core/cli/commands/sweep.js';
import { appendJsonl, claudeLine, writeJsonl } from '../../support/transcripts.js';
import { byProvider, captureHarness, type CaptureHarness } from './harness.js';

const FIXTURE = fileURLToPath(new URL('../../fixtures/transcripts/claude/background-job.jsonl', import.meta.url));
/** The session of the fixture (its lines' `sessionId`). */
const JOB = '7d3e9a41-2c5b-4f8e-b1a0-6e4d2c9f8b17';

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
const title = (c: CaptureHarness, id: string) => c.db.prepare('SELECT title, title_source AS source FROM sessions WHERE session_id = ?').get(id);

function copyJob(c: CaptureHarness): string {
  const dir = join(c.claudeRoot, 'projects', '-home-ana-src-uploader--claude-worktrees-retry-audit');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${JOB}.jsonl`);
  copyFileSync(FIXTURE, file);
  return file;
}

describe('Claude: the session bookkeeping Claude Code writes is counted as bookkeeping', () => {
  it('counts every line type Claude Code declares as meta_only, and only a type it never wrote as unknown_type', async () => {
    const c = harness();
    appendJsonl(copyJob(c), [{ type: 'a-type-from-the-future', sessionId: JOB }]);
    const stats = await claude(c);
    // 3 message lines give a part each; the 16 bookkeeping lines (agent-color, worktree-state, cost-state…) are meta_only.
    expect(stats).toMatchObject({ read: 1, partsWritten: 3 });
    expect(stats.skipped).toEqual({ meta_only: 16, unknown_type: 1 });
    expect(formatSweepResult({ providers: [stats] })).toContain('17 lines held nothing to import (1 of a kind Steward does not import, 16 bookkeeping)');
  });

  it('a session named only by an agent-name line (a background job) takes that name as its title', async () => {
    const c = harness();
    copyJob(c);
    await claude(c);
    expect(title(c, JOB)).toEqual({ title: 'uploader-retry-audit', source: 'agent-name' });
  });

  it('a custom-title beats an agent-name in either order and across reads; an agent-name beats an ai-title; a later agent-name renames', async () => {
    const c = harness();
    const dir = join(c.claudeRoot, 'projects', 'p');
    // `/rename` writes both lines; Claude Code's own name for the session came first.
    writeJsonl(join(dir, 'renamed.jsonl'), [
      { type: 'agent-name', agentName: 'auto-named-job', sessionId: 'renamed' },
      claudeLine({ sessionId: 'renamed', text: 'look at the uploader' }),
      { type: 'custom-title', customTitle: 'Uploader audit', sessionId: 'renamed' },
      { type: 'agent-name', agentName: 'Uploader audit', sessionId: 'renamed' },
    ]);
    writeJsonl(join(dir, 'guessed.jsonl'), [
      { type: 'agent-name', agentName: 'retry-audit', sessionId: 'guessed' },
      claudeLine({ sessionId: 'guessed', text: 'check the retries' }),
      { type: 'ai-title', aiTitle: 'Check uploader retries', sessionId: 'guessed' },
    ]);
    await claude(c);
    expect(title(c, 'renamed')).toEqual({ title: 'Uploader audit', source: 'custom-title' });
    expect(title(c, 'guessed')).toEqual({ title: 'retry-audit', source: 'agent-name' });

    // Appended alone (the read holds no part): an agent-name never replaces the user's rename in the cache…
    appendJsonl(join(dir, 'renamed.jsonl'), [{ type: 'agent-name', agentName: 'another-job-name', sessionId: 'renamed' }]);
    // …and a newer agent-name is the session's new name.
    appendJsonl(join(dir, 'guessed.jsonl'), [{ type: 'agent-name', agentName: 'retry-audit-2', sessionId: 'guessed' }]);
    expect(await claude(c)).toMatchObject({ read: 2, partsWritten: 0 });
    expect(title(c, 'renamed')).toEqual({ title: 'Uploader audit', source: 'custom-title' });
    expect(title(c, 'guessed')).toEqual({ title: 'retry-audit-2', source: 'agent-name' });
  });
});
