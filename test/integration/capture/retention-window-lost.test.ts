import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lostWords, numberOf } from '../../../core/api/index.js';
import { removalQuestion } from '../../../renderer/src/places/settings/retention-words.js';
import { coreHome } from '../../support/core.js';
import { claudeSession } from '../../support/transcripts.js';

// QA: a transcript deleted, then a retention window saved in Settings that removes its conversation:
// the panel said only "2 conversations entirely, 46 messages in all", while `steward cache prune
// --dry-run` said Steward held the only copy. The dry run the panel asks before saving a window
// (`retentionDays`) counts it as the CLI's does, and the question says it in the CLI's words.

const DAY = 86_400_000;
const owner = coreHome('steward-retention-window-lost-');

describe('a retention window about to be saved, over a conversation whose transcript is gone', () => {
  it('counts it as lost, and the panel asks with the CLI\u2019s words', async () => {
    const home = owner.home;
    const claude = join(home.dir, 'roots', 'claude');
    mkdirSync(claude, { recursive: true });
    home.env.STEWARD_CLAUDE_ROOTS = claude;
    const gone = claudeSession(claude, 'old-a', 2, { ts: new Date(Date.now() - 700 * DAY) });
    claudeSession(claude, 'old-b', 2, { ts: new Date(Date.now() - 600 * DAY) });
    claudeSession(claude, 'recent', 2);
    const core = owner.open();
    await core.call('Backfill.Run', { all: true });

    expect(await core.call('Cache.Prune', { dryRun: true, retentionDays: 400 })).toMatchObject({ removedConversations: 2, lost: 0 });
    rmSync(gone);
    const dry = await core.call('Cache.Prune', { dryRun: true, retentionDays: 400 });
    expect(dry).toMatchObject({ dryRun: true, removedConversations: 2, lost: 1 });
    expect(removalQuestion(400, dry)).toContain(`2 conversations entirely, 4 messages in all. ${lostWords(1)} `);
    expect(lostWords(1)).toBe('1 of them has no transcript left on disk: Steward holds the only copy.');
  });

  it('is said after a sentence by the CLI and the panel alike: a space before it, nothing when none is lost; counted as every count is', () => {
    expect(lostWords(1234, { afterSentence: true })).toBe(` ${numberOf(1234)} of them have no transcript left on disk: Steward holds the only copy.`);
    expect(lostWords(0, { afterSentence: true })).toBe('');
    expect(lostWords(undefined, { afterSentence: true })).toBe('');
  });
});
