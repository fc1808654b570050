import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { ForgetCover, ProviderSweepStats, Result } from '../../../core/api/index.js';
import type { Lift } from '../../../renderer/src/places/projects/Unforget.js';
import { type Check, checkedSentence, viewerShows, watchesChecks } from '../../../renderer/src/places/sessions/held.js';
import { ConversationNotHeld, Forgotten } from '../../../renderer/src/places/sessions/index.js';
import type { Page } from '../../../renderer/src/places/sessions/pages.js';

const ID = '00000000-dead-beef-0000-000000000000';
const textOf = (html: string) => html.replace(/<\/?(code|time|span|a)[^>]*>/g, '').replace(/<[^>]+>/g, ' ').replace(/&#x27;|&rsquo;|’/g, "'").replace(/\s+/g, ' ').trim();
const liftedAs = (data: Result<'Forget.Lift'>): Lift => ({ data, busy: false, error: undefined, run: () => Promise.resolve(undefined), reset: () => undefined });
const checkedAs = (data: Result<'Sweep.Tick'> | undefined): Check => ({ data, busy: false, error: undefined, run: () => Promise.resolve(undefined), reset: () => undefined });
const stats = (over: Partial<ProviderSweepStats>): ProviderSweepStats => ({ provider: 'claude-code', discovered: 3, read: 0, unchanged: 3, failed: 0, partsWritten: 0, durationMs: 5, failedLines: 0, ...over });
const BROUGHT_BACK = { providers: [stats({ read: 1, unchanged: 2, partsWritten: 30, messagesWritten: 12 })] };
const UP_TO_DATE = { providers: [stats({})] };
const SELF: ForgetCover = { kind: 'session', id: ID, label: null, createdAt: Date.now() - 60_000, via: 'self' };

const forgotten = (lift: Result<'Forget.Lift'>, check?: Check) => textOf(renderToStaticMarkup(createElement(Forgotten, { sessionId: ID, lift: liftedAs(lift), ...(check ? { check } : {}) })));

describe('after Unforget, a way to check now', () => {
  it('is offered once the next check brings it back, where the page said it was forgotten', () => {
    expect(forgotten({ lifted: true, nextCheck: 'all' })).toContain('Check now');
    expect(forgotten({ lifted: true, nextCheck: 'part' })).toContain('Check now');
    const reloaded = textOf(renderToStaticMarkup(createElement(ConversationNotHeld, { sessionId: ID, record: SELF, lift: liftedAs({ lifted: true, nextCheck: 'all' }) })));
    expect(reloaded).toContain('Check now');
  });

  it('is not offered before Unforget, nor when no check would bring it back (only Import earlier history), nor when something else keeps it out', () => {
    expect(textOf(renderToStaticMarkup(createElement(Forgotten, { sessionId: ID })))).not.toContain('Check now');
    expect(forgotten({ lifted: true })).not.toContain('Check now');
    expect(forgotten({ lifted: true, nextCheck: 'all', stillOut: { ...SELF, kind: 'project', id: 'p_0123456789abcdef', via: 'project' } })).not.toContain('Check now');
  });

  it('says what the check did right there: how many messages it brought back, or that all was up to date', () => {
    expect(forgotten({ lifted: true, nextCheck: 'all' }, checkedAs(BROUGHT_BACK))).toContain('Checked now. Imported 12 new messages; 1 file read.');
    expect(forgotten({ lifted: true, nextCheck: 'all' }, checkedAs(UP_TO_DATE))).toContain('Checked now. Already up to date — 3 files checked.');
    expect(checkedSentence(UP_TO_DATE)).toBe('Checked now. Already up to date — 3 files checked.');
  });
});

describe('what the viewer shows once a conversation is held again', () => {
  const before = { session: {}, messages: [], subagents: [] } as unknown as Page;
  const after = { ...before };

  it('keeps saying it is forgotten until a page is loaded after the forget, then shows that page', () => {
    expect(viewerShows({ openedThen: before }, { page: before, opened: before, error: GONE() })).toBe('forgotten');
    expect(viewerShows({ openedThen: before }, { page: after, opened: after, error: undefined })).toBe('page');
  });

  it('a conversation not loaded, or not yet, as before', () => {
    expect(viewerShows(undefined, { page: undefined, opened: undefined, error: GONE() })).toBe('not-loaded');
    expect(viewerShows(undefined, { page: undefined, opened: undefined, error: undefined })).toBe('loading');
    expect(viewerShows(undefined, { page: after, opened: after, error: undefined })).toBe('page');
  });

  it('listens for checks only while the conversation is not shown', () => {
    expect(watchesChecks('forgotten')).toBe(true);
    expect(watchesChecks('not-loaded')).toBe(true);
    expect(watchesChecks('page')).toBe(false);
    expect(watchesChecks('loading')).toBe(false);
  });
});

function GONE(): Error {
  return Object.assign(new Error('No such conversation'), { code: 'not_found' });
}
