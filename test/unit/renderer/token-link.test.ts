import { afterEach, describe, expect, it, vi } from 'vitest';
import { onTokenLink, takeToken, tokenFromHash } from '../../../renderer/src/transport.js';

const OLD = 'old-token-0123456789abcdef';
const NEW = 'new-token-0123456789abcdef';

/** A tab at `hash` with this origin's storage holding `stored`; `paste` changes only the fragment, as pasting a link does. */
function fakeTab(hash: string, stored?: string) {
  const events = new EventTarget();
  const storage = new Map<string, string>(stored === undefined ? [] : [['steward.token', stored]]);
  const location = { hash, pathname: '/', search: '' };
  const replaceState = vi.fn((_state: unknown, _title: string, url: string) => {
    location.hash = url.includes('#') ? url.slice(url.indexOf('#')) : '';
  });
  const localStorage = {
    getItem: (key: string) => storage.get(key) ?? null,
    setItem: (key: string, value: string) => void storage.set(key, value),
    removeItem: (key: string) => void storage.delete(key),
  };
  vi.stubGlobal('window', Object.assign(events, { location, history: { state: null, replaceState }, localStorage }));
  return {
    location,
    replaceState,
    stored: () => storage.get('steward.token'),
    paste(to: string) {
      location.hash = to;
      events.dispatchEvent(new Event('hashchange'));
    },
  };
}

describe("the token in the panel's address", () => {
  afterEach(() => vi.unstubAllGlobals());

  it('is read from a #token= fragment, and only a well-shaped one', () => {
    expect(tokenFromHash(`#token=${NEW}`)).toBe(NEW);
    expect(tokenFromHash('#/sessions/abc')).toBeUndefined();
    expect(tokenFromHash('')).toBeUndefined();
    expect(tokenFromHash('#token=short')).toBeUndefined();
  });

  it('on first load is kept for this origin and leaves the address bar', () => {
    const tab = fakeTab(`#token=${NEW}`);
    expect(takeToken()).toBe(NEW);
    expect(tab.stored()).toBe(NEW);
    expect(tab.location.hash).toBe('');
  });

  it('pasted into an open tab (only the fragment changes) is taken the same way, and the tab is told', () => {
    const tab = fakeTab('', OLD);
    const taken: string[] = [];
    const stop = onTokenLink((token) => taken.push(token));
    tab.paste(`#token=${NEW}`);
    expect(taken).toEqual([NEW]);
    expect(tab.stored()).toBe(NEW);
    expect(tab.location.hash).toBe('');
    expect(tab.replaceState).toHaveBeenCalledWith(null, '', '/');
    stop();
  });

  it('leaves every other fragment alone, and a malformed token is cleared but not taken', () => {
    const tab = fakeTab('', OLD);
    const taken: string[] = [];
    const stop = onTokenLink((token) => taken.push(token));
    tab.paste('#/projects');
    expect(tab.replaceState).not.toHaveBeenCalled();
    tab.paste('#token=short');
    expect(tab.location.hash).toBe('');
    expect(taken).toEqual([]);
    expect(tab.stored()).toBe(OLD);
    stop();
    tab.paste(`#token=${NEW}`);
    expect(taken).toEqual([]);
  });
});
