import { createElement, createRef } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SearchHit, SearchQueryResult } from '../../../core/api/index.js';
import { placeHref, routeFromHash } from '../../../renderer/src/navigation.js';
import type { Lift } from '../../../renderer/src/places/projects/Unforget.js';
import { Unforget } from '../../../renderer/src/places/projects/Unforget.js';
import { go } from '../../../renderer/src/places/search/Chips.js';
import { replacesEntry } from '../../../renderer/src/places/search/filters.js';
import { SearchResults } from '../../../renderer/src/places/search/SearchResults.js';
import { countSentence } from '../../../renderer/src/places/search/sentences.js';
import { ConversationNotHeld } from '../../../renderer/src/places/sessions/index.js';
import { landingOf } from '../../../renderer/src/places/sessions/SessionPage.js';
import { TombstoneName } from '../../../renderer/src/places/settings/ForgottenList.js';

const text = (html: string) => html.replace(/<[^>]+>/g, '').replace(/\s+/g, ' ').trim();

describe('the search box and Back', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('emptying the box, or searching from an empty box, replaces the history entry; one search after another is a new entry', () => {
    expect(replacesEntry({ q: 'frost' }, { q: '' })).toBe(true);
    expect(replacesEntry({ q: 'frost', kind: 'text' }, { q: '', kind: 'text' })).toBe(true);
    expect(replacesEntry({ q: '' }, { q: 'frost' })).toBe(true);
    expect(replacesEntry({ q: 'frost' }, { q: 'thaw' })).toBe(false);
    expect(replacesEntry({ q: 'frost' }, { q: 'frost', kind: 'text' })).toBe(false);
    expect(replacesEntry({ q: '', kind: 'text' }, { q: 'frost', kind: 'text' })).toBe(false);
  });

  it('type, clear, type, clear leaves no empty search behind for Back to walk through', () => {
    const location = { hash: '#/search', replace: vi.fn((href: string) => (location.hash = href)) };
    const pushed: string[] = [];
    vi.stubGlobal('window', {
      location: new Proxy(location, {
        set: (target, key, value: string) => {
          if (key === 'hash') pushed.push(value);
          return Reflect.set(target, key, value);
        },
      }),
    });
    go({ q: 'frost' }, { q: '' });
    go({ q: '' }, { q: 'frost' });
    go({ q: 'thaw' }, { q: '' });
    go({ q: '' }, { q: 'thaw' });
    expect(pushed).toEqual([]);
    expect(location.replace.mock.calls.map(([href]) => href)).toEqual(['#/search?q=frost', '#/search', '#/search?q=thaw', '#/search']);
    go({ q: 'frost' }, { q: 'thaw' });
    expect(pushed).toEqual(['#/search?q=frost']);
  });
});

describe('how many a search found', () => {
  const hit = (sessionId: string, partId: string) =>
    ({ sessionId, partId, projectKey: null, ts: null, role: 'user', snippet: 'frost', kind: 'text', provider: 'claude', genuineUserTurn: true, isCompactSummary: false, toolName: null, summary: null, highlights: [] }) satisfies SearchHit;
  const hits = [hit('a', 'a:1'), hit('a', 'a:2'), hit('b', 'b:1')];

  it('is said in matches and conversations', () => {
    expect(countSentence({ hits, sessions: [], cursor: undefined })).toBe('Showing 3 matches in 2 conversations.');
    expect(countSentence({ hits: [hits[0]!], sessions: [], cursor: undefined })).toBe('Showing 1 match in 1 conversation.');
  });

  it('is shown to everyone, next to the results, not only to a screen reader', () => {
    const result: SearchQueryResult = { hits, sessions: [] };
    const html = renderToStaticMarkup(createElement(SearchResults, { result, filters: { q: 'orchard' }, projects: [], loading: false, onMore: () => undefined, box: createRef<HTMLInputElement>(), ref: createRef<HTMLDivElement>() }));
    const count = /<p[^>]*>Showing 3 matches in 2 conversations\.<\/p>/.exec(html)?.[0];
    expect(count).toBeDefined();
    expect(count).not.toContain('visually-hidden');
  });
});

describe('Import earlier history, linked from where something was unforgotten', () => {
  const lifted: Lift = { data: { lifted: true }, busy: false, error: undefined, run: () => Promise.resolve(undefined), reset: () => undefined };
  const importHref = placeHref('projects', 'import-history');

  it('has an address that names the section of Projects where the import is done', () => {
    expect(importHref).toBe('#/projects?section=import-history');
    expect(routeFromHash(importHref)).toEqual({ view: 'projects', params: { section: 'import-history' } });
    expect(placeHref('projects')).toBe('#/projects');
  });

  it('leads there from Unforget and from a forgotten conversation’s page', () => {
    expect(renderToStaticMarkup(createElement(Unforget, { kind: 'session', id: 'abc', lift: lifted }))).toContain(`href="${importHref}"`);
    const forgotten = renderToStaticMarkup(createElement(ConversationNotHeld, { sessionId: 'abc', record: { kind: 'session', id: 'abc', label: 'Fix the login', createdAt: Date.now() - 60_000, via: 'parent' } }));
    expect(forgotten).toContain(`href="${importHref}"`);
  });
});

describe('where the focus lands when a conversation opens', () => {
  const page = (ids: Record<string, string>) => {
    const element = (name: string) => ({ name }) as unknown as HTMLElement;
    return {
      getElementById: (id: string) => (ids[id] === undefined ? null : element(ids[id])),
      querySelector: (selector: string) => (selector === '#main h1' ? element('heading') : null),
    } as unknown as Pick<Document, 'getElementById' | 'querySelector'>;
  };

  it('on the hit it was opened at', () => {
    expect(landingOf(page({ 'part-cc:1': 'hit' }), 'cc:1')).toEqual({ name: 'hit' });
  });

  it('on its heading when opened at its start, or when the hit is not on the page', () => {
    expect(landingOf(page({}), undefined)).toEqual({ name: 'heading' });
    expect(landingOf(page({}), 'cc:gone')).toEqual({ name: 'heading' });
  });
});

describe('a forgotten subagent in Settings', () => {
  const PARENT = '0f8e2c4a-1b3d-4e5f-8a9b-0c1d2e3f4a5b';
  const id = `${PARENT}:agent-a1b2c3d4`;
  const name = (parentName?: string) => renderToStaticMarkup(createElement(TombstoneName, { tombstone: { id, label: null }, parentName }));

  it('is named as the subagent of its conversation, by that conversation’s name, not by a cut id', () => {
    expect(text(name('Fix the login'))).toBe('Subagent of Fix the login');
    expect(name('Fix the login')).toContain(`title="${id}"`);
  });

  it('is still called a subagent when its conversation’s name is not known', () => {
    expect(text(name())).toBe('Subagent of a conversation');
    expect(text(name())).not.toContain('0f8e2c4a');
  });
});
