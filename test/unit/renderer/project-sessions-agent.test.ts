import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import type { SessionSummary } from '../../../core/api/index.js';
import { ProjectSessions } from '../../../renderer/src/places/projects/ProjectSessions.js';
import type * as Pages from '../../../renderer/src/places/projects/pages.js';

const summary = (over: Partial<SessionSummary>): SessionSummary => ({
  sessionId: 's',
  projectKey: 'p_1',
  provider: 'claude',
  app: 'Claude Code',
  title: null,
  agentType: null,
  startedAt: null,
  lastAt: null,
  messages: 2,
  parentSessionId: null,
  parentKind: null,
  projectName: 'orchard',
  firstRequest: 'x',
  model: null,
  durationMs: null,
  toolCalls: 0,
  subagents: 0,
  ...over,
});

const sessions = [
  summary({ sessionId: 's1', app: 'Codex CLI', provider: 'codex', firstRequest: 'rename the column' }),
  summary({ sessionId: 's2', app: 'Gemini CLI', provider: 'gemini', firstRequest: 'explain export.ts' }),
];

// The list's pages come from useProjectPages (its effect asks for them; a static render runs no effect).
vi.mock('../../../renderer/src/places/projects/pages.js', async (importOriginal) => ({
  ...(await importOriginal<typeof Pages>()),
  useProjectPages: () => ({ list: { sessions }, error: undefined, loading: false, busy: false, more: () => Promise.resolve(undefined), retry: () => undefined }),
}));

vi.mock('../../../renderer/src/hooks.js', () => ({
  useCall: () => ({ data: { sessions }, error: undefined, loading: false, reload: () => undefined }),
  useAction: () => ({ run: () => Promise.resolve(undefined), busy: false, error: undefined, data: undefined, reset: () => undefined }),
  useEvent: () => undefined,
}));

// QA 11: one folder's conversations come from several agents (Claude Code, Codex CLI, Gemini CLI); the
// project's list named none, so which agent had which conversation was only found by opening each.
describe("a project's conversations", () => {
  it('say which agent each one was with', () => {
    const html = renderToStaticMarkup(createElement(ProjectSessions, { projectKey: 'p_1' }));
    const metas = [...html.matchAll(/<span class="project-sessions__meta">(.*?)<\/span>/g)].map((m) => m[1]!.replace(/<[^>]+>/g, ''));
    expect(metas).toEqual(['Codex CLI · 2 messages', 'Gemini CLI · 2 messages']);
  });
});
