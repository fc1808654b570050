import { describe, expect, it } from 'vitest';
import { foldAway } from '../../../renderer/src/places/search/Dates.js';

/** Review: after "Show these dates" the focus fell to <body>: a keyboard reader lost their place. */
describe('the focus once Dates… shows its dates', () => {
  it('waits on the fold’s summary, the fold closed', () => {
    const focused: string[] = [];
    const summary = { focus: () => focused.push('summary') };
    // A stand-in for the <details>: the node environment has no DOM.
    const fold = { open: true, querySelector: (selector: string) => (selector === 'summary' ? summary : null) } as unknown as HTMLDetailsElement;
    foldAway(fold);
    expect(fold.open).toBe(false);
    expect(focused).toEqual(['summary']);
  });
});
