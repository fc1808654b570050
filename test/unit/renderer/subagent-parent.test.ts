import { describe, expect, it } from 'vitest';
import * as contract from '../../../core/api/index.js';
import { subagentParentOf } from '../../../core/api/names.js';
import * as forgottenList from '../../../renderer/src/places/settings/ForgottenList.js';

/** How a Claude subagent's id names its conversation: one rule, in a file the panel may load at run time. */
describe('a subagent’s parent, by its id', () => {
  it('is the part before `:agent-`; any other id names none', () => {
    expect(subagentParentOf('0f8e2c4a:agent-a1')).toBe('0f8e2c4a');
    expect(subagentParentOf(':agent-a1')).toBeNull();
    expect(subagentParentOf('oc:0f8e2c4a')).toBeNull();
  });

  it('is the contract’s own rule, with no copy in the panel', () => {
    expect(contract.subagentParentOf).toBe(subagentParentOf);
    expect('subagentParentOf' in forgottenList).toBe(false);
  });
});
