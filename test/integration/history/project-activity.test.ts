import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lastActiveAt, NO_CONVERSATIONS } from '../../../renderer/src/places/projects/activity.js';
import { runIn } from '../../support/cli.js';
import { coreHome } from '../../support/core.js';
import { claudeLine, writeJsonl } from '../../support/transcripts.js';

/**
 * A project whose conversations are all gone (forgotten, or past the retention window) keeps its row
 * and the activity once recorded for it. It must not be shown as active: not first among the most
 * recently active projects, and not with a recent "Last activity" in the panel.
 */

const HOUR = 3_600_000;
const GARDEN = '/work/garden-planner';
const LEDGER = '/work/compost-ledger';
const GARDEN_SESSION = '6b1e4c2a-0d9f-4a37-8e15-2c7b9d0f4a61';
const LEDGER_SESSION = '9d3f1a7c-5e2b-4c80-b16a-0f8e4d2c7b39';

const temp = coreHome('steward-project-activity-');

function conversation(root: string, sessionId: string, cwd: string, at: number): void {
  writeJsonl(join(root, 'projects', cwd.replace(/[^A-Za-z0-9]/g, '-'), `${sessionId}.jsonl`), [
    claudeLine({ sessionId, cwd, ts: new Date(at), text: 'what is left to do?' }),
    claudeLine({ sessionId, cwd, ts: new Date(at + 1000), type: 'assistant', text: 'the compost rota' }),
  ]);
}

describe('a project with no conversations', () => {
  it('is listed after every project holding one, however recent its last recorded activity', async () => {
    const { home } = temp;
    const roots = join(home.dir, 'claude-roots');
    const now = Date.now();
    conversation(roots, GARDEN_SESSION, GARDEN, now - 5 * HOUR);
    // The ledger was worked in last: today it leads the list.
    conversation(roots, LEDGER_SESSION, LEDGER, now - HOUR);
    const c = temp.open({ env: { STEWARD_CLAUDE_ROOTS: roots } });
    await c.call('Backfill.Run', { all: true });
    expect((await c.call('Projects.List', {})).projects.map((p) => p.cwd)).toEqual([LEDGER, GARDEN]);

    await c.call('Forget.Session', { sessionId: LEDGER_SESSION });
    const { projects } = await c.call('Projects.List', {});
    // The emptied project stays listed (its notes are the person's), but after the active one.
    expect(projects.map((p) => [p.cwd, p.sessions])).toEqual([
      [GARDEN, 1],
      [LEDGER, 0],
    ]);
    const [garden, ledger] = projects as [(typeof projects)[number], (typeof projects)[number]];
    expect(ledger.latestSession).toBeNull();

    // The panel's "Last activity": the garden's time; for the ledger no time, which sorts last, and its words.
    expect(lastActiveAt(garden)).toBe(garden.lastActivityAt);
    expect(garden.lastActivityAt).not.toBeNull();
    // The forgotten conversation's time is not the ledger's any more (see forgotten-activity.test.ts).
    expect(ledger.lastActivityAt).toBeNull();
    expect(lastActiveAt(ledger)).toBeNull();
    expect(NO_CONVERSATIONS).toBe('No conversations');

    // `steward projects` says the same, in the same order.
    await temp.close();
    const listed = await runIn({ ...home.env, STEWARD_CLAUDE_ROOTS: roots }, 'projects');
    expect(listed.code).toBe(0);
    const rows = listed.out.split('\n').filter((l) => l.startsWith('p_'));
    expect(rows).toHaveLength(2);
    // A moment as every CLI line prints one (`sessions list`'s form), not an ISO instant; counted in
    // conversations, as `info` and the panel count them.
    expect(rows[0]).toMatch(/ garden-planner {2}1 conversation {2}last \d{4}-\d{2}-\d{2} \d{2}:\d{2} (UTC|[+-]\d{2}:\d{2})$/);
    expect(rows[1]).toMatch(/ compost-ledger {2}no conversations left$/);
  });
});
