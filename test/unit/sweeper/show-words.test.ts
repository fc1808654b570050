import { describe, expect, it } from 'vitest';
import type { Result } from '../../../core/api/index.js';
import { formatShow } from '../../../core/cli/commands/sweeper.js';

/** `steward sweeper show` of a project whose notes Projects.Get did not read out (`overview: null`). */
function shown(notesStaleSince: number | undefined): string {
  const state = {
    watermark: null,
    scratch: false,
    lastSweepAt: null,
    lastOutcome: null,
    lastError: null,
    lastMode: null,
    lastModel: null,
    consecutiveFailures: 0,
    nextAttemptAt: null,
    tokensIn: 0,
    tokensOut: 0,
    overviewPreserved: false,
    ...(notesStaleSince !== undefined ? { notesStaleSince } : {}),
  };
  const got = { projectKey: 'p_1', name: 'orchard', cwd: '/work/orchard', repoBacked: true, slug: 'orchard', notesPath: '/notes/orchard', overview: null, changelog: null, claudeMd: null, ignored: false, state, paused: null } as Result<'Projects.Get'>;
  return formatShow(got, Date.now());
}

describe('steward sweeper show, without an overview to print', () => {
  it('says the notes are withheld after a forget, not that there are none', () => {
    const withheld = shown(Date.now() - 60_000);
    expect(withheld).toContain('(OVERVIEW.md withheld until the notes are rebuilt)');
    expect(withheld).not.toContain('no OVERVIEW.md yet');
    expect(shown(undefined)).toMatch(/\n\n\(no OVERVIEW\.md yet\)\n$/);
  });
});
