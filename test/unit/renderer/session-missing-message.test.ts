import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import type { MethodName } from '../../../core/api/index.js';
import { positionLost, SessionViewer } from '../../../renderer/src/places/sessions/index.js';
import { StewardRpcError } from '../../../renderer/src/transport.js';

/** What Sessions.Get answers for a part the conversation does not hold (Sessions.Get's `missing: 'part'`). */
let refusal: StewardRpcError;

vi.mock('../../../renderer/src/hooks.js', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  useCall: (method: MethodName) => {
    if (method === 'Forget.Of') return { data: { record: null }, error: undefined, loading: false, reload: () => undefined };
    return { data: undefined, error: method === 'Sessions.Get' ? refusal : undefined, loading: false, reload: () => undefined };
  },
  useEvent: () => undefined,
}));

const viewer = (partId: string) => renderToStaticMarkup(createElement(SessionViewer, { sessionId: 's1', partId }));

// QA 11: `#/sessions/<a held id>?message=<a part it does not hold>` (a bookmarked reading position, a
// link cut short) said "No conversation in Steward has the id s1", of a conversation Steward holds.
describe('a conversation opened at a message it does not hold', () => {
  it('says the message is missing, not the conversation, and opens the conversation at its start', () => {
    refusal = new StewardRpcError('not_found', 'That part is not in this conversation', { details: { missing: 'part' } });
    const html = viewer('cc:nope:0');
    expect(html).not.toContain('No conversation in Steward has the id');
    expect(html).toContain('That message is not in this conversation');
    expect(html).toContain('href="#/sessions/s1"');
  });

  it('links to the subagent that holds it', () => {
    refusal = new StewardRpcError('not_found', 'That part is in the subagent conversation s1:agent-a1 of this one', { details: { missing: 'part', heldBy: 's1:agent-a1' } });
    const html = viewer('cc:x:0');
    expect(html).toContain(`href="#/sessions/${encodeURIComponent('s1:agent-a1')}?message=${encodeURIComponent('cc:x:0')}"`);
  });

  it('still says a conversation Steward does not hold is not in Steward', () => {
    refusal = new StewardRpcError('not_found', 'No such conversation', { details: { missing: 'conversation' } });
    expect(viewer('cc:x:0')).toContain('No conversation in Steward has the id');
  });
});

// Review: a kept reading position (`?at=`) the conversation no longer holds said "The address names a
// message … this conversation does not hold": nobody named one. The conversation opens at its start.
describe('a conversation reopened at a reading position it no longer holds', () => {
  it('says nothing of a message, and the address becomes the conversation’s own', () => {
    refusal = new StewardRpcError('not_found', 'That part is not in this conversation', { details: { missing: 'part' } });
    const html = renderToStaticMarkup(createElement(SessionViewer, { sessionId: 's1', partId: undefined, readAt: 'cc:gone:0' }));
    expect(html).not.toContain('The address names a message');
    expect(html).not.toContain('That message is not in this conversation');
    expect(positionLost('s1', undefined, 'cc:gone:0', 'message-missing')).toBe('#/sessions/s1');
  });

  it('a message named to the person (a link, a hit) is still said to be missing', () => {
    expect(positionLost('s1', 'cc:x:0', undefined, 'message-missing')).toBeUndefined();
    expect(positionLost('s1', undefined, 'cc:gone:0', 'page')).toBeUndefined();
  });
});
