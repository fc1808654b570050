import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatSweeperRun } from '../../../core/cli/commands/sweeper.js';
import { coreHome } from '../../support/core.js';
import { claudeLine, writeJsonl } from '../../support/transcripts.js';

/**
 * The sweep that rebuilds the notes after a forget, with nothing new to record, says so: the kept
 * day's entry is still in CHANGELOG.md, so "changelog empty" would be untrue.
 */

const DAY = 86_400_000;
const KEPT = '2b3c4d5e-0000-4000-8000-00000000001a';
const GONE = '2b3c4d5e-0000-4000-8000-00000000001b';

const temp = coreHome('steward-forget-sweep-words-');

function conversation(root: string, sessionId: string, cwd: string, at: number, ask: string): void {
  writeJsonl(join(root, 'projects', cwd.replace(/[^A-Za-z0-9]/g, '-'), `${sessionId}.jsonl`), [
    claudeLine({ sessionId, cwd, ts: new Date(at), text: ask }),
    claudeLine({ sessionId, cwd, ts: new Date(at + 60_000), type: 'assistant', text: `Done: ${ask.toLowerCase()}.` }),
  ]);
}

describe('the sweep after a forget', () => {
  it('with the kept day already in the changelog, says there was nothing new for it, not that it is empty', async () => {
    const cwd = join(temp.home.dir, 'work', 'orchard');
    mkdirSync(cwd, { recursive: true });
    const roots = join(temp.home.dir, 'claude-roots');
    const now = Date.now();
    conversation(roots, KEPT, cwd, now - 6 * DAY, 'Add retries with backoff to the orchard sync job');
    conversation(roots, GONE, cwd, now - 3 * DAY, 'Migrate the quincebarrow ledger to the new schema');
    const c = temp.open({ env: { STEWARD_CLAUDE_ROOTS: roots } });
    await c.call('Backfill.Run', { all: true });
    const key = (await c.call('Projects.List', {})).projects.find((p) => p.cwd === cwd)!.projectKey;
    await c.call('Sweeper.Run', { projectKey: key });
    await c.call('Forget.Session', { sessionId: GONE });

    const run = await c.call('Sweeper.Run', { projectKey: key });
    const { notesPath } = await c.call('Projects.Get', { projectKey: key });
    expect(readFileSync(join(notesPath, 'CHANGELOG.md'), 'utf8').match(/^## \S+$/gm)).toHaveLength(1);
    const words = formatSweeperRun(run);
    expect(words).not.toContain('changelog empty');
    expect(words).toContain('no changelog entry (nothing new since the last sweep)');
  });
});
