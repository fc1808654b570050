import { describe, expect, it } from 'vitest';
import { forgetQuestion } from '../../../renderer/src/places/sessions/SessionHeader.js';

// Panel QA: the forget question said "Its messages and its subagents are deleted" of a conversation with none.

describe('the forget question of a conversation', () => {
  it('speaks of subagents only when it has some', () => {
    const none = forgetQuestion(false, undefined, 0);
    expect(none).toMatch(/^Forget this conversation\? Its messages are deleted from Steward, and it is not imported again while its transcript stays on disk\. /);
    expect(none).not.toMatch(/subagent/);
    expect(forgetQuestion(false, undefined, 2)).toMatch(/^Forget this conversation\? Its messages and its 2 subagents are deleted from Steward/);
    expect(forgetQuestion(false, undefined, 1)).toMatch(/^Forget this conversation\? Its messages and its subagent are deleted from Steward/);
  });
});
