import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatSession } from '../../../core/cli/commands/sessions.js';
import { Core } from '../../../core/index.js';
import { tempHome, type TempHome } from '../../support/home.js';
import { claudeLine, writeJsonl } from '../../support/transcripts.js';

// A tester read "[Claude Code: a29fa76dc1fa3212f]" for the notice Claude Code queues when a background
// task ends: the first line of the notice with its tags taken out is the task's id. A reader wants what
// finished and how.

const SESSION = 'da7a0000-1111-4222-8333-444455556666';
const CWD = '/work/greenhouse';
const notice = (id: string, inner: string) =>
  JSON.stringify({ type: 'attachment', sessionId: SESSION, cwd: CWD, uuid: `da7a0000-0000-4000-8000-${id}`, timestamp: new Date(Date.now() - 60_000).toISOString(), attachment: { type: 'queued_command', commandMode: 'prompt', prompt: `<task-notification>\n${inner}\n</task-notification>` } });

let home: TempHome;
let core: Core;

beforeAll(async () => {
  home = tempHome('steward-task-notice-');
  const root = join(home.dir, 'claude');
  writeJsonl(join(root, 'projects', '-work-greenhouse', `${SESSION}.jsonl`), [
    claudeLine({ sessionId: SESSION, cwd: CWD, ts: new Date(Date.now() - 120_000), text: 'Run the vent tests in the background' }),
    notice('000000000001', '<task-id>bash_7f3a</task-id>\n<output-file>/tmp/claude/bash_7f3a.out</output-file>\n<status>completed</status>\n<summary>Background command "npm test" completed (exit code 0)</summary>'),
    notice('000000000002', '<task-id>a29fa76dc1fa3212f</task-id>\n<status>failed</status>'),
  ]);
  home.env.STEWARD_CLAUDE_ROOTS = root;
  core = Core.open({ home: { dir: home.dir, kind: 'env' }, env: home.env });
  await core.call('Backfill.Run', { provider: 'claude', all: true });
});

afterAll(async () => {
  await core?.shutdown();
  home?.cleanup();
});

describe("a background task's notice", () => {
  it('reads as what finished and how, never as the task id or the output file', async () => {
    const text = formatSession(await core.call('Sessions.Get', { sessionId: SESSION, redact: true }));
    expect(text).toContain('[Claude Code: Background task completed: Background command "npm test" completed (exit code 0)]');
    expect(text).toContain('[Claude Code: Background task failed]');
    expect(text).not.toContain('bash_7f3a');
    expect(text).not.toContain('a29fa76dc1fa3212f');
  });
});
