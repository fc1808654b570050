import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ForgetProject } from '../../../renderer/src/places/projects/ProjectSessions.js';
import { ForgetButton } from '../../../renderer/src/places/sessions/SessionHeader.js';

// Forget.Lost stats every transcript file a project's conversations were read from: asked when the
// person opens the forget dialog, never when the page that holds the button renders.

/** Every Forget.Lost asked (useCall not skipped), and what it answers. */
const asked: unknown[] = [];
let answer: { conversations: number; lost: number; onlySubagentsLost: number; subagentsLost: number; unknown: number } | undefined;

vi.mock('../../../renderer/src/hooks.js', () => ({
  useCall: (method: string, params: unknown, options: { skip?: boolean } = {}) => {
    if (method === 'Forget.Lost' && options.skip !== true) asked.push(params);
    return { data: method === 'Forget.Lost' ? answer : undefined, error: undefined, loading: answer === undefined, reload: () => undefined };
  },
  useAction: () => ({ run: () => Promise.resolve(undefined), busy: false, error: undefined, data: undefined, reset: () => undefined }),
  useEvent: () => undefined,
}));

beforeEach(() => {
  asked.length = 0;
  answer = undefined;
});

describe('the forget buttons of a page', () => {
  it('ask nothing of the files while the dialog is closed', () => {
    renderToStaticMarkup(createElement(ForgetButton, { sessionId: 's1', subagent: false, subagents: 0, onForgotten: () => undefined }));
    renderToStaticMarkup(createElement(ForgetProject, { projectKey: 'p_1', name: 'orchard', onForgotten: () => undefined }));
    expect(asked).toEqual([]);
  });
});

describe('the open forget dialog', () => {
  it('asks Forget.Lost, and shows the question before the answer, the warning once known', async () => {
    const { ForgetQuestion } = await import('../../../renderer/src/places/sessions/SessionHeader.js');
    const before = renderToStaticMarkup(createElement(ForgetQuestion, { sessionId: 's1', subagent: false, subagents: 0, onKnown: () => undefined }));
    expect(asked).toEqual([{ kind: 'session', id: 's1' }]);
    expect(before).toMatch(/^<span role="status">Checking which transcripts are still on disk… <\/span>Forget this conversation\?/);
    answer = { conversations: 1, lost: 1, onlySubagentsLost: 0, subagentsLost: 0, unknown: 0 };
    expect(renderToStaticMarkup(createElement(ForgetQuestion, { sessionId: 's1', subagent: false, subagents: 0, onKnown: () => undefined }))).toMatch(/^This conversation&#x27;s transcript is no longer on disk/);
  });

  it('says nothing of a conversation whose files Steward never recorded', async () => {
    const { ForgetQuestion } = await import('../../../renderer/src/places/sessions/SessionHeader.js');
    answer = { conversations: 1, lost: 0, onlySubagentsLost: 0, subagentsLost: 0, unknown: 1 };
    expect(renderToStaticMarkup(createElement(ForgetQuestion, { sessionId: 's1', subagent: false, subagents: 0, onKnown: () => undefined }))).toMatch(/^Forget this conversation\?/);
  });
});
