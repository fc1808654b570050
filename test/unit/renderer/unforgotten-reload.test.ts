import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ConversationNotHeld } from '../../../renderer/src/places/sessions/index.js';
import { heldAgain, rememberUnforgotten, unforgottenOf } from '../../../renderer/src/places/sessions/unforgotten.js';

const ID = '00000000-dead-beef-0000-000000000000';
const textOf = (html: string) => html.replace(/<\/?(code|time|span|a)[^>]*>/g, '').replace(/<[^>]+>/g, ' ').replace(/&#x27;|&rsquo;|’/g, "'").replace(/\s+/g, ' ').trim();

/** A tab's sessionStorage, as the page has it: strings by key. */
function tabStore(): Pick<Storage, 'getItem' | 'setItem'> & { items: Map<string, string> } {
  const items = new Map<string, string>();
  return { items, getItem: (key) => items.get(key) ?? null, setItem: (key, value) => void items.set(key, value) };
}

const notHeld = (props: Partial<Parameters<typeof ConversationNotHeld>[0]>) => textOf(renderToStaticMarkup(createElement(ConversationNotHeld, { sessionId: ID, record: null, ...props })));

describe('a conversation unforgotten in this tab, reloaded before the next check brought it back', () => {
  it('says it was unforgotten and comes back at the next check, with Check now, never that its id may be mistyped', () => {
    const said = notHeld({ unforgotten: { nextCheck: 'all' } });
    expect(said).toContain('You unforgot this conversation');
    expect(said).toContain("Steward's next check brings it back");
    expect(said).toContain('Check now');
    expect(said).not.toContain('mistyped');
  });

  it('when only Import earlier history brings it back, says that, without Check now', () => {
    const said = notHeld({ unforgotten: {} });
    expect(said).toContain('You unforgot this conversation');
    expect(said).toContain('Import earlier history');
    expect(said).not.toContain('Check now');
    expect(said).not.toContain('mistyped');
  });

  it('an id never unforgotten here keeps the plain words', () => {
    expect(notHeld({ unforgotten: undefined })).toContain('It may be mistyped');
  });
});

describe('what the tab keeps of an Unforget', () => {
  it('keeps the id and when it comes back (never transcript text), per conversation, until it is held again', () => {
    const store = tabStore();
    rememberUnforgotten(ID, { lifted: true, nextCheck: 'part' }, store);
    expect(unforgottenOf(ID, store)).toEqual({ nextCheck: 'part' });
    expect(unforgottenOf('other', store)).toBeUndefined();
    expect([...store.items.values()].join('')).toBe(JSON.stringify({ [ID]: { nextCheck: 'part' } }));
    heldAgain(ID, store);
    expect(unforgottenOf(ID, store)).toBeUndefined();
  });

  it('keeps nothing for a lift something else keeps out; with nothing left to import, keeps that (see unforgotten-elsewhere)', () => {
    const store = tabStore();
    rememberUnforgotten(ID, { lifted: true, nextCheck: 'all', stillOut: { kind: 'project', id: 'p_0123456789abcdef', label: null, createdAt: 1, via: 'project' } }, store);
    rememberUnforgotten('b', { lifted: true, nothingLeft: true }, store);
    expect(unforgottenOf(ID, store)).toBeUndefined();
    expect(unforgottenOf('b', store)).toEqual({ nothingLeft: true });
  });

  it('reads a damaged entry, or no storage at all, as nothing kept', () => {
    const store = tabStore();
    store.items.set('steward.unforgotten', '{not json');
    expect(unforgottenOf(ID, store)).toBeUndefined();
    expect(unforgottenOf(ID, undefined)).toBeUndefined();
    expect(() => rememberUnforgotten(ID, { lifted: true, nextCheck: 'all' }, undefined)).not.toThrow();
  });
});
