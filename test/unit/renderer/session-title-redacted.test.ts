import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { readOf, type Page, type SessionPages } from '../../../renderer/src/places/sessions/pages.js';
import { SessionPage } from '../../../renderer/src/places/sessions/SessionPage.js';

/** The titles the page gives the window (useViewTitle), in order. */
const titles: Array<string | undefined> = [];

vi.mock('../../../renderer/src/hooks.js', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  useViewTitle: (title: string | undefined) => titles.push(title),
  useCall: () => ({ data: undefined, error: undefined, loading: true, reload: () => undefined }),
  useEvent: () => undefined,
  useClient: () => undefined,
}));

beforeEach(() => {
  titles.length = 0;
});

const pageTitled = (title: string): Page => ({ session: { sessionId: 's1', title, subagents: [] } as unknown as Page['session'], messages: [], subagents: [] });
const RAW = pageTitled('deploy with sk-live-RAWKEY');
const REDACTED = pageTitled('deploy with [REDACTED]');

describe('how the first page was read (readOf)', () => {
  it('stays the way it was asked for until the page asked for the other way comes', () => {
    let taken = readOf(undefined, { data: RAW, error: undefined, loading: false }, false);
    expect(taken).toEqual({ data: RAW, redact: false });
    // "Show secrets" unticked: useCall still holds the page read as written, first not loading yet, then loading.
    taken = readOf(taken, { data: RAW, error: undefined, loading: false }, true);
    expect(taken?.redact).toBe(false);
    taken = readOf(taken, { data: RAW, error: undefined, loading: true }, true);
    expect(taken?.redact).toBe(false);
    // A failed ask keeps the page it had: still the one read as written.
    taken = readOf(taken, { data: RAW, error: new Error('down'), loading: false }, true);
    expect(taken?.redact).toBe(false);
    taken = readOf(taken, { data: REDACTED, error: undefined, loading: false }, true);
    expect(taken).toEqual({ data: REDACTED, redact: true });
  });
});

function titleOf(page: Page, redacted: boolean | undefined, showSecrets: boolean): string | undefined {
  const pages = { page, opened: page, redacted, error: undefined, busy: false, news: undefined } as unknown as SessionPages;
  renderToStaticMarkup(createElement(SessionPage, { sessionId: 's1', partId: undefined, page, pages, showSecrets, onShowSecrets: () => undefined, onForgotten: () => undefined }));
  return titles[titles.length - 1];
}

describe('the window title of a conversation', () => {
  it('is not the name of a page read with secrets shown, even once "Show secrets" is unticked', () => {
    expect(titleOf(RAW, false, false)).toBeUndefined();
    expect(titleOf(RAW, false, true)).toBeUndefined();
  });

  it('is the name of a page read redacted', () => {
    expect(titleOf(REDACTED, true, false)).toBe('deploy with [REDACTED]');
  });
});
