import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { EventName, MethodName } from '../../../core/api/index.js';
import { SessionViewer } from '../../../renderer/src/places/sessions/index.js';
import type { Page } from '../../../renderer/src/places/sessions/pages.js';
import { StewardRpcError } from '../../../renderer/src/transport.js';

/*
 * Review: `#/sessions/<id>?message=<a part it does not hold>` was asked for again on every check
 * (`sweep.tick`), and while each reload was on its way the viewer drew the page the call kept from the
 * address before, then the "not in this conversation" words again: a flash on every tick. The miss is a
 * settled state now: asked for again only once the conversation changed, and said while it is asked.
 */

const MISS = new StewardRpcError('not_found', 'That part is not in this conversation', { details: { missing: 'part' } });
const SESSION = { sessionId: 's1', app: 'Claude Code', title: 'The page before', agentType: null, model: null, startedAt: null, durationMs: null, messages: 2, toolCalls: 0, subagents: 0, projectKey: null, projectName: null, lastAt: 1 };
/** The page the conversation showed at the address before (the call keeps it beside the new address's refusal). */
const BEFORE = { session: SESSION, messages: [{ messageId: 'cc:before', role: 'user', ts: null, parts: [] }], subagents: [] } as unknown as Page;

/** What the first page's call holds, render after render (the mocked useCall answers them in turn, the last again). */
let answers: Array<{ data: Page | undefined; error: Error | undefined; loading: boolean }> = [];
const reloaded: MethodName[] = [];
const listeners = new Map<EventName, (payload: unknown) => void>();

vi.mock('../../../renderer/src/hooks.js', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  useCall: (method: MethodName) => {
    const reload = () => reloaded.push(method);
    if (method === 'Forget.Of') return { data: { record: null }, error: undefined, loading: false, reload };
    if (method === 'Sessions.Get') return { ...(answers.length > 1 ? answers.shift()! : answers[0]!), reload };
    return { data: undefined, error: undefined, loading: true, reload };
  },
  useEvent: (event: EventName, listener: (payload: unknown) => void) => {
    // Every listener for the event, as the client calls each one.
    const before = listeners.get(event);
    listeners.set(event, before ? (p) => (before(p), listener(p)) : listener);
  },
}));

beforeEach(() => {
  reloaded.length = 0;
  listeners.clear();
});

const viewer = () => renderToStaticMarkup(createElement(SessionViewer, { sessionId: 's1', partId: 'cc:nope:0' }));
const tick = (partsWritten: number) => listeners.get('sweep.tick')?.({ kind: 'scheduled', at: 1, providers: [{ provider: 'claude', partsWritten }] });

describe('an address naming a message the conversation does not hold', () => {
  it('is not asked for again by a check that wrote nothing, nor straight away by one that wrote something', () => {
    answers = [{ data: BEFORE, error: MISS, loading: false }];
    expect(viewer()).toContain('That message is not in this conversation');
    tick(0);
    tick(3);
    expect(reloaded).toEqual([]);
  });

  it('stays said while it is asked for again, never drawing the page the address before showed', () => {
    // The miss settled, then (the next draw) a reload is on its way with the call keeping both.
    answers = [
      { data: BEFORE, error: MISS, loading: false },
      { data: BEFORE, error: MISS, loading: true },
    ];
    const html = viewer();
    expect(html).toContain('That message is not in this conversation');
    expect(html).not.toContain('The page before');
    expect(html).not.toContain('Loading the conversation');
  });

  it('while another address loads, neither that miss nor the page before it is said of it', () => {
    answers = [{ data: BEFORE, error: MISS, loading: true }];
    const html = viewer();
    expect(html).not.toContain('not in this conversation');
    expect(html).not.toContain('The page before');
  });
});
