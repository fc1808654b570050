import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { Route } from '../../../renderer/src/navigation.js';
import { ConversationNotHeld, Forgotten } from '../../../renderer/src/places/sessions/index.js';
import { viewName, windowTitle } from '../../../renderer/src/shell/status.js';

const ID = '00000000-dead-beef-0000-000000000000';
const textOf = (html: string) => html.replace(/<\/?(code|time|span)[^>]*>/g, '').replace(/<[^>]+>/g, ' ').replace(/&#x27;|&rsquo;|’/g, "'").replace(/\s+/g, ' ').trim();

describe('a conversation Steward does not hold', () => {
  it('says plainly that no conversation has the id, with no made-up reason', () => {
    const text = textOf(renderToStaticMarkup(createElement(ConversationNotHeld, { sessionId: ID, tombstones: [] })));
    expect(text).toContain(`No conversation in Steward has the id ${ID}.`);
    expect(text).toMatch(/mistyped, or only part of an id/);
    expect(text).toMatch(/whole id/);
    expect(text).not.toMatch(/forgotten|retention/i);
  });

  it('keeps the forgotten words for an id the person forgot', () => {
    const tombstones = [{ kind: 'session' as const, id: ID, label: null, createdAt: Date.now() - 60_000 }];
    const text = textOf(renderToStaticMarkup(createElement(ConversationNotHeld, { sessionId: ID, tombstones })));
    expect(text).toContain('You forgot this conversation');
    expect(text).not.toContain('No conversation in Steward has the id');
  });

  it('after forgetting, says "forgotten" once and what it means', () => {
    const text = textOf(renderToStaticMarkup(createElement(Forgotten, { sessionId: ID })));
    expect(text.match(/forgotten/gi)).toHaveLength(1);
    expect(text).toContain('It was deleted from Steward');
  });
});

describe('the window title of a view that found nothing', () => {
  const projects = { id: 'projects', label: 'Projects' };
  const session: Route = { view: 'session', sessionId: ID, partId: undefined };
  it('says Not found for a conversation or project not in Steward', () => {
    expect(windowTitle(viewName(session, projects, true).label, 'idle')).toBe('Not found · Steward');
    expect(windowTitle(viewName({ view: 'project-name', name: 'nope' }, projects, true).label, 'idle')).toBe('Not found · Steward');
    expect(windowTitle(viewName({ view: 'projects', params: {}, projectKey: 'p_0123456789abcdef' }, projects, true).label, 'idle')).toBe('Not found · Steward');
  });

  it('keeps the place or Conversation otherwise, and where main is marked', () => {
    expect(viewName(session, projects, false)).toEqual({ id: 'session', label: 'Conversation' });
    expect(viewName(session, projects, true).id).toBe('session');
    expect(viewName({ view: 'projects', params: {} }, projects, false)).toEqual({ id: 'projects', label: 'Projects' });
    expect(viewName({ view: 'missing', address: '#/nowhere' }, projects, false)).toEqual({ id: 'not-found', label: 'Not found' });
  });
});
