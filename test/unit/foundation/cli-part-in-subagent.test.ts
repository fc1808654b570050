import { describe, expect, it } from 'vitest';
import { StewardError } from '../../../core/api/index.js';
import { partInSubagent } from '../../../core/cli/commands/sessions.js';

// `steward sessions show ID --part P`, for a part ID itself does not hold: Sessions.Get's not_found
// names the subagent that holds it (details.heldBy), which the CLI names with the command that opens
// it there, asking the owner nothing more.

const PART = 'p-1';
const missingPart = (heldBy?: string) => new StewardError('not_found', heldBy ? `That part is in the subagent conversation ${heldBy} of this one` : 'That part is not in this conversation', { missing: 'part', ...(heldBy ? { heldBy } : {}) });

/** What partInSubagent throws in the error's stead: it takes no client, so it can ask the owner nothing. */
function outcome(error: StewardError, partId: string | undefined): StewardError {
  try {
    partInSubagent(partId)(error);
  } catch (thrown) {
    return thrown as StewardError;
  }
  throw new Error('partInSubagent did not throw');
}

describe('a part asked of a conversation that one of its subagents holds', () => {
  it('names the subagent the not_found names, with the command that opens it there, asking nothing more', () => {
    const error = outcome(missingPart('sub-9'), PART);
    expect(error.message).toBe('That part is in the subagent conversation sub-9 of this one; `steward sessions show sub-9 --part p-1` opens it there');
    expect(error.code).toBe('not_found');
    expect(error.details).toMatchObject({ missing: 'part', heldBy: 'sub-9' });
  });

  it('says the miss as it was when no subagent holds it', () => {
    const miss = missingPart();
    expect(outcome(miss, PART)).toBe(miss);
  });

  it('passes any other error as it is', () => {
    const gone = new StewardError('not_found', 'No conversation', { missing: 'conversation' });
    expect(outcome(gone, PART)).toBe(gone);
    const held = missingPart('sub-9');
    expect(outcome(held, undefined)).toBe(held);
  });
});
