import { describe, expect, it, vi } from 'vitest';
import { goBack } from '../../../renderer/src/places/sessions/SessionHeader.js';
import { panelDepth, trackPanelDepth } from '../../../renderer/src/navigation.js';

/** A tab's history as the panel sees it: its entries' states, the one shown, back and forward. */
function tab(entriesBefore: number) {
  const states: unknown[] = Array.from({ length: entriesBefore + 1 }, () => null);
  let at = entriesBefore;
  const events = new EventTarget();
  const history = {
    get length() {
      return states.length;
    },
    get state() {
      return states[at];
    },
    replaceState: (state: unknown) => void (states[at] = state),
    back: vi.fn(() => {
      at -= 1;
      events.dispatchEvent(new Event('popstate'));
    }),
  };
  const location = { hash: '#/sessions/s1' };
  /** A link followed (or an address typed) within the panel: a new entry, then hashchange. */
  const follow = (hash: string) => {
    states.splice(at + 1);
    states.push(null);
    at += 1;
    location.hash = hash;
    events.dispatchEvent(new Event('hashchange'));
  };
  const win = { history, addEventListener: events.addEventListener.bind(events), removeEventListener: events.removeEventListener.bind(events) };
  return { history, location, follow, win };
}

// QA 11: a conversation opened by its address in a tab that had shown other pages (a bookmark, a link
// pasted into a used tab): ← Back went to the page before the panel (history.length > 1), leaving it.
describe('← Back on a conversation', () => {
  it('stays in the panel when the tab came to the panel on this conversation', () => {
    const t = tab(3);
    const stop = trackPanelDepth(t.win);
    goBack(t.history, t.location);
    expect(t.history.back).not.toHaveBeenCalled();
    expect(t.location.hash).toBe('#/search');
    stop();
  });

  it('goes back to where the person came from within the panel', () => {
    const t = tab(2);
    const stop = trackPanelDepth(t.win);
    t.location.hash = '#/search?q=x';
    t.follow('#/sessions/s1');
    expect(panelDepth(t.history)).toBe(1);
    goBack(t.history, t.location);
    expect(t.history.back).toHaveBeenCalledTimes(1);
    expect(panelDepth(t.history)).toBe(0);
    stop();
  });

  it('keeps an entry’s depth when Back returns to it, and other state the entry holds', () => {
    const t = tab(0);
    const stop = trackPanelDepth(t.win);
    t.follow('#/projects');
    t.history.replaceState({ ...(t.history.state as object), searchOpened: 'p1' });
    t.follow('#/sessions/s1');
    expect(panelDepth(t.history)).toBe(2);
    t.history.back();
    expect(panelDepth(t.history)).toBe(1);
    expect(t.history.state).toMatchObject({ searchOpened: 'p1' });
    stop();
  });
});
