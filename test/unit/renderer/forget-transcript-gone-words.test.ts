import { describe, expect, it } from 'vitest';
import { forgetProjectQuestion } from '../../../renderer/src/places/projects/ProjectSessions.js';
import { forgetQuestion } from '../../../renderer/src/places/sessions/SessionHeader.js';

// QA B1 in the panel: the forget dialog of a conversation whose transcript is gone from disk (Forget.Lost)
// says the forget deletes the only copy, and does not say it is kept out "while its transcript stays on disk".

/** Forget.Lost: one conversation whose own transcript is gone. */
const LOST_ONE = { conversations: 1, lost: 1, onlySubagentsLost: 0, subagentsLost: 0, unknown: 0 };

describe('the forget dialog of what has no transcript left on disk', () => {
  it('a conversation: says Steward holds the only copy, first, and promises no way back', () => {
    const q = forgetQuestion(false, LOST_ONE);
    expect(q).toMatch(/^This conversation's transcript is no longer on disk: Steward holds the only copy\. Forgetting it deletes it for good\. Forget this conversation\?/);
    expect(q).not.toContain('while its transcript stays on disk');
    expect(forgetQuestion(true, LOST_ONE)).toMatch(/^This subagent's transcript is no longer on disk: Steward holds the only copy\./);
  });

  it('a conversation whose transcript is on disk is asked as before', () => {
    expect(forgetQuestion(false, undefined, 2)).toMatch(/^Forget this conversation\? Its messages and its 2 subagents are deleted from Steward, and it is not imported again while its transcript stays on disk\. /);
  });

  it('a project counts the conversations it would lose for good', () => {
    expect(forgetProjectQuestion('orchard', { ...LOST_ONE, conversations: 5, lost: 3 })).toMatch(/^3 of its conversations have no transcript left on disk: Steward holds the only copy\. Forgetting the project deletes them for good\. Forget orchard\?/);
    expect(forgetProjectQuestion('orchard', { ...LOST_ONE, conversations: 5 })).toMatch(/^1 of its conversations has no transcript left on disk: .* deletes it for good\. /);
    expect(forgetProjectQuestion('orchard')).toMatch(/^Forget orchard\? Every conversation/);
  });
});

describe('Unforget of what has nothing left to import', () => {
  it('promises no import', async () => {
    const { nothingLeftWords } = await import('../../../renderer/src/places/projects/Unforget.js');
    expect(nothingLeftWords('session')).toContain('nothing of it is left to import');
    expect(nothingLeftWords('session')).not.toMatch(/Import earlier history|next check/);
  });
});

describe('Unforget of a forget made before anything was stored, with nothing met since (QA s49, review)', () => {
  it('says no check has found a transcript of it yet, and where one comes from: not that there is nothing to import', async () => {
    const { comesBackAs, neverStoredWords } = await import('../../../renderer/src/places/projects/Unforget.js');
    expect(comesBackAs({ neverStored: true })).toBe('neverStored');
    expect(comesBackAs({ nothingLeft: true })).toBe('nothingLeft');
    expect(comesBackAs({})).toBe('comesBack');
    expect(neverStoredWords('project')).toBe(
      "Steward never stored that project, and no check has found a transcript of it yet: the next check imports one inside the regular checks' window; Import earlier history brings in older ones.",
    );
    for (const kind of ['project', 'session'] as const) expect(neverStoredWords(kind)).not.toMatch(/nothing of it|nothing to import/);
  });
});
