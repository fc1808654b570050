import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { nothingLeftWords } from '../../../renderer/src/places/projects/Unforget.js';
import { ConversationNotHeld } from '../../../renderer/src/places/sessions/index.js';
import { keepLifted, rememberUnforgotten, unforgottenOf } from '../../../renderer/src/places/sessions/unforgotten.js';

// Panel QA: after Unforget and a reload, the conversation's page said "It may be mistyped, or only part
// of an id" of a conversation just brought back. Unforgotten from Settings (Forgotten), or with nothing
// left to import, it now says what Unforget said.

const ID = '00000000-dead-beef-0000-000000000001';
const textOf = (html: string) => html.replace(/<\/?(code|time|span|a)[^>]*>/g, '').replace(/<[^>]+>/g, ' ').replace(/&#x27;|&rsquo;|’/g, "'").replace(/\s+/g, ' ').trim();

function tabStore(): Pick<Storage, 'getItem' | 'setItem'> {
  const items = new Map<string, string>();
  return { getItem: (key) => items.get(key) ?? null, setItem: (key, value) => void items.set(key, value) };
}

describe('a conversation unforgotten elsewhere in this tab, or with nothing left', () => {
  it('unforgotten from the Forgotten list (a conversation’s record), the tab keeps it; a project’s names no conversation', () => {
    const store = tabStore();
    keepLifted('session', ID, { lifted: true, nextCheck: 'all' }, store);
    expect(unforgottenOf(ID, store)).toEqual({ nextCheck: 'all' });
    keepLifted('project', 'p_0123456789abcdef', { lifted: true, nextCheck: 'all' }, store);
    expect(unforgottenOf('p_0123456789abcdef', store)).toBeUndefined();
  });

  it('with nothing left to import, says so as Unforget did, never that its id may be mistyped', () => {
    const store = tabStore();
    rememberUnforgotten(ID, { lifted: true, nothingLeft: true }, store);
    const unforgotten = unforgottenOf(ID, store);
    expect(unforgotten).toEqual({ nothingLeft: true });
    const said = textOf(renderToStaticMarkup(createElement(ConversationNotHeld, { sessionId: ID, record: null, unforgotten })));
    expect(said).toContain('You unforgot this conversation');
    expect(said).toContain(nothingLeftWords('session').replace(/’/g, "'"));
    expect(said).not.toContain('Check now');
    expect(said).not.toContain('mistyped');
  });
});
