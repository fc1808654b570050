import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { ForgetCover } from '../../../core/api/index.js';
import type { Route } from '../../../renderer/src/navigation.js';
import { ConversationNotHeld, Forgotten } from '../../../renderer/src/places/sessions/index.js';
import { viewName, windowTitle } from '../../../renderer/src/shell/status.js';

const ID = '00000000-dead-beef-0000-000000000000';
const PARENT = '11111111-dead-beef-0000-000000000000';
const PROJECT = 'p_0123456789abcdef';
const notHeld = (record: ForgetCover | null) => renderToStaticMarkup(createElement(ConversationNotHeld, { sessionId: ID, record }));
const textOf = (html: string) => html.replace(/<\/?(code|time|span)[^>]*>/g, '').replace(/<[^>]+>/g, ' ').replace(/&#x27;|&rsquo;|’/g, "'").replace(/\s+/g, ' ').trim();

describe('a conversation Steward does not hold', () => {
  it('says plainly that no conversation has the id, with no made-up reason', () => {
    const text = textOf(notHeld(null));
    expect(text).toContain(`No conversation in Steward has the id ${ID}.`);
    expect(text).toMatch(/mistyped, or only part of an id/);
    expect(text).toMatch(/whole id/);
    expect(text).not.toMatch(/forgotten|retention/i);
  });

  it('keeps the forgotten words for an id the person forgot', () => {
    const text = textOf(notHeld({ kind: 'session', id: ID, label: null, createdAt: Date.now() - 60_000, via: 'self' }));
    expect(text).toContain('You forgot this conversation');
    expect(text).not.toContain('No conversation in Steward has the id');
  });

  it('says a subagent went with the conversation it belongs to, links that one and offers to unforget it', () => {
    const html = notHeld({ kind: 'session', id: PARENT, label: 'Fix the login', createdAt: Date.now() - 60_000, via: 'parent' });
    const text = textOf(html);
    expect(text).toContain('You forgot the conversation this subagent belongs to');
    expect(text).toMatch(/minute/);
    expect(html).toContain(`href="#/sessions/${PARENT}"`);
    expect(text).toContain('Fix the login');
    expect(text).toMatch(/Unforget/);
    expect(text).not.toMatch(/You forgot this conversation|No conversation in Steward has the id/);
  });

  it('says the project a conversation was in was forgotten, by its name or else its key, and offers to unforget it', () => {
    const named = textOf(notHeld({ kind: 'project', id: PROJECT, label: 'ledger', createdAt: Date.now() - 60_000, via: 'project' }));
    expect(named).toContain('You forgot the project ledger this conversation was in');
    expect(named).toMatch(/minute/);
    expect(named).toMatch(/Unforget/);
    expect(named).not.toMatch(/You forgot this conversation|No conversation in Steward has the id/);
    const unnamed = textOf(notHeld({ kind: 'project', id: PROJECT, label: null, createdAt: Date.now() - 60_000, via: 'project' }));
    expect(unnamed).toContain(`You forgot the project ${PROJECT} this conversation was in`);
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
