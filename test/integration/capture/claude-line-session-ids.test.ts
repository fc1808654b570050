import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { claudeLine, writeJsonl } from '../../support/transcripts.js';
import { captureHarness, type CaptureHarness } from './harness.js';

// An attack session: a line naming a 10 KB session id was stored under it, listed and searched, but
// never shown, exported or forgotten (the contract reads ids of at most 300 characters); a line naming
// `<victim>:agent-x` filed itself as a subagent of another conversation.
const OWN = 'aaaaaaaa-0000-4000-8000-0000000000f1';
const VICTIM = 'bbbbbbbb-0000-4000-8000-0000000000f2';

let h: CaptureHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const sessionsOf = (c: CaptureHarness) => c.db.prepare('SELECT session_id FROM sessions ORDER BY session_id').pluck().all() as string[];
const partsOf = (c: CaptureHarness, sessionId: string) => c.count('SELECT COUNT(*) FROM parts WHERE session_id = ?', sessionId);

describe("Claude: a line's session id that cannot be one", () => {
  it('reads as naming none: the line is its own file’s session’s, stored and reachable', async () => {
    h = captureHarness();
    const dir = join(h.claudeRoot, 'projects', '-work-ids');
    writeJsonl(join(dir, `${VICTIM}.jsonl`), [claudeLine({ sessionId: VICTIM, cwd: '/work/ids', text: 'the victim conversation' })]);
    writeJsonl(join(dir, `${OWN}.jsonl`), [
      claudeLine({ sessionId: OWN, cwd: '/work/ids', text: 'first, under its own id' }),
      claudeLine({ sessionId: 'x'.repeat(10_240), cwd: '/work/ids', text: 'a line naming a 10 KB id' }),
      claudeLine({ sessionId: `${VICTIM}:agent-forged`, cwd: '/work/ids', text: 'a line forging a subagent of the victim' }),
      { ...claudeLine({ sessionId: OWN, cwd: '/work/ids', text: 'an agent id too long to be one' }), isSidechain: true, agentId: 'y'.repeat(5_000) },
    ]);
    await h.driver.tick();
    const sessions = sessionsOf(h);
    expect(sessions.every((id) => id.length <= 300)).toBe(true);
    expect(sessions.some((id) => id.includes(':agent-forged'))).toBe(false);
    expect(partsOf(h, OWN)).toBe(4);
    expect(partsOf(h, VICTIM)).toBe(1);
  });
});
