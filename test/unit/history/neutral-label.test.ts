import { describe, expect, it } from 'vitest';
import { isNeutralLabel, neutralLabel } from '../../../core/history/forget.js';

describe("a forgotten conversation's label built of facts (what a wipe keeps)", () => {
  it('always names a day, so a title shaped like one is not taken for it and kept through a wipe', () => {
    expect(isNeutralLabel('Claude Code conversation in the deploy keys for prod')).toBe(false);
    expect(isNeutralLabel('Claude Code conversation')).toBe(false);
    const dated = neutralLabel({ provider: 'claude', source: null, firstTs: new Date(2026, 10, 2, 9, 30).getTime() }, 'orchard');
    expect(dated).toMatch(/^Claude\b.* conversation of 2 Nov 2026 in orchard$/);
    const undated = neutralLabel({ provider: 'claude', source: null, firstTs: null }, 'orchard');
    expect(undated).toMatch(/^Claude\b.* conversation of an unknown day in orchard$/);
    for (const label of [dated, undated]) expect(isNeutralLabel(label)).toBe(true);
  });
});
