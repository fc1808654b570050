import { describe, expect, it } from 'vitest';
import { rememberOpened, takeLastOpened } from '../../../renderer/src/places/search/Results.js';

/** A tab's history entry, as the page has it: its state, replaced in place (the address stays). */
function entry(state: unknown = null) {
  const at = { state, replaceState: (next: unknown) => void (at.state = next) };
  return at;
}

/**
 * QA: Back from a match on the third page of a search showed the pages at their top, the focus on the
 * page's body: the match opened was kept by the page's script alone, lost once the conversation was
 * reloaded. The search's own history entry keeps it.
 */
describe('the match opened from a search, kept by the search’s history entry', () => {
  it('is written into the entry it was opened from, beside what the entry held, and taken once', () => {
    const search = entry({ other: 1 });
    rememberOpened('cc:abc:3', search);
    expect(search.state).toEqual({ other: 1, searchOpened: 'cc:abc:3' });
    expect(takeLastOpened(search)).toBe('cc:abc:3');
    expect(search.state).toEqual({ other: 1 });
    expect(takeLastOpened(search)).toBeUndefined();
  });

  it('an entry with no match opened, or a state of another shape, gives none', () => {
    expect(takeLastOpened(entry(null))).toBeUndefined();
    expect(takeLastOpened(entry('x'))).toBeUndefined();
    expect(takeLastOpened(entry({ searchOpened: 3 }))).toBeUndefined();
    const fresh = entry(null);
    rememberOpened('p1', fresh);
    expect(fresh.state).toEqual({ searchOpened: 'p1' });
  });
});
