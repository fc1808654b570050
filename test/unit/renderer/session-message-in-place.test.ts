import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import type { MethodName, SessionSummary } from '../../../core/api/index.js';
import { SessionViewer } from '../../../renderer/src/places/sessions/index.js';
import type { Page } from '../../../renderer/src/places/sessions/pages.js';
import { StewardRpcError } from '../../../renderer/src/transport.js';

/*
 * Panel QA: only the address's `?message=` changed (same conversation) to a part a subagent holds. The
 * first page's call (useCall) keeps the page it had and takes the new address's refusal beside it, and
 * the viewer showed that page with the core's words for agents in its banner ("…ask for it with that
 * conversation's id…"). A fresh load of the same address says it in a person's words: so must this.
 */

const SESSION = { sessionId: 's1', app: 'Claude Code', agentType: null, model: null, startedAt: null, durationMs: null, messages: 2, toolCalls: 0, subagents: 1, projectKey: null, projectName: 'invoice-api' } as unknown as SessionSummary;
/** The page the conversation showed at the message the address named before. */
const SHOWN: Page = { session: SESSION, messages: [], subagents: [] };
const AGENT_WORDS = "That part is in the subagent conversation s1:agent-a1 of this one: ask for it with that conversation's id (s1:agent-a1) and the same part id";
const REFUSAL = new StewardRpcError('not_found', AGENT_WORDS, { details: { missing: 'part', heldBy: 's1:agent-a1' } });

/** What the first page's call holds: the page it had, the new address's answer, and whether that is still on its way. */
let first: { data: Page | undefined; error: Error | undefined; loading: boolean };

vi.mock('../../../renderer/src/hooks.js', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  useCall: (method: MethodName) => {
    if (method === 'Forget.Of') return { data: { record: null }, error: undefined, loading: false, reload: () => undefined };
    if (method === 'Sessions.Get') return { ...first, reload: () => undefined };
    return { data: undefined, error: undefined, loading: true, reload: () => undefined };
  },
  useEvent: () => undefined,
}));

const viewer = (partId: string | undefined) => renderToStaticMarkup(createElement(SessionViewer, { sessionId: 's1', partId }));

describe('the address’s message changed in place to one a subagent holds', () => {
  it('says so in a person’s words, as a fresh load of that address does, linking to the subagent', () => {
    first = { data: SHOWN, error: REFUSAL, loading: false };
    const html = viewer('cc:x:0');
    expect(html).toContain('That message is not in this conversation');
    expect(html).toContain(`href="#/sessions/${encodeURIComponent('s1:agent-a1')}?message=${encodeURIComponent('cc:x:0')}"`);
    expect(html).not.toContain('ask for it with');
    expect(html).toContain(viewerFresh('cc:x:0'));
  });

  it('while the next address loads, that refusal is not said of it, nor in the banner', () => {
    // The reader followed "open the conversation at its start": the refusal was the address before's.
    first = { data: SHOWN, error: REFUSAL, loading: true };
    const html = viewer(undefined);
    expect(html).not.toContain('ask for it with');
    expect(html).not.toContain('not in this conversation');
    expect(html).not.toContain('No conversation in Steward has the id');
  });

  it('another failure (a reload that failed) keeps the page shown, with its error', () => {
    first = { data: SHOWN, error: new StewardRpcError('internal', 'The store is busy'), loading: false };
    const html = viewer('cc:y:0');
    expect(html).toContain('The store is busy');
    expect(html).not.toContain('not in this conversation');
  });
});

/** The same address loaded fresh: no page before it. */
function viewerFresh(partId: string): string {
  const kept = first;
  first = { data: undefined, error: REFUSAL, loading: false };
  const html = viewer(partId);
  first = kept;
  return html;
}
