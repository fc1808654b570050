import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { SessionSummary } from '../../../core/api/index.js';
import { RecentList } from '../../../renderer/src/places/home/Recent.js';

/**
 * Panel QA (a new user): once Getting started is done, Home showed no way back to what the person
 * worked on. Home lists the latest conversations across projects, each a link to its page.
 */
const NOW = Date.UTC(2026, 11, 5, 12, 0, 0);
const session = (id: string, o: Partial<SessionSummary> = {}): SessionSummary => ({
  sessionId: id,
  projectKey: 'p_1',
  provider: 'claude',
  app: 'Claude Code',
  title: null,
  agentType: null,
  startedAt: NOW - 3_600_000,
  lastAt: NOW - 600_000,
  messages: 4,
  parentSessionId: null,
  parentKind: null,
  projectName: 'orchard',
  firstRequest: 'Fix the flaky login test. It fails on CI.',
  model: null,
  durationMs: 600_000,
  toolCalls: 0,
  subagents: 0,
  ...o,
});
const textOf = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/&#x27;|&rsquo;|’/g, "'").replace(/\s+/g, ' ').trim();
const render = (sessions: SessionSummary[]) => renderToStaticMarkup(createElement(RecentList, { sessions, now: NOW }));

describe("Home's recent conversations", () => {
  it('names each (title, else the first request), with its agent, project, when and how many messages, linked to its page', () => {
    const html = render([
      session('s-new', { title: 'Ship the release', app: 'Codex CLI', projectName: 'harbor', lastAt: NOW - 120_000, messages: 12 }),
      session('s-old', { lastAt: NOW - 2 * 86_400_000, messages: 1 }),
    ]);
    const text = textOf(html);
    expect(text).toContain('Ship the release');
    expect(text).toMatch(/Codex CLI · harbor · 2 minutes ago · 12 messages/);
    expect(text).toContain('Fix the flaky login test.');
    expect(text).toMatch(/Claude Code · orchard · 2 days ago · 1 message\b/);
    expect(html).toContain('href="#/sessions/s-new"');
    expect(html).toContain('href="#/sessions/s-old"');
    // In the order given (Sessions.List's, newest first), and a way to all of them.
    expect(html.indexOf('s-new')).toBeLessThan(html.indexOf('s-old'));
    expect(html).toContain('href="#/projects"');
  });

  it('says a conversation with no project so, and one with no time without a time', () => {
    const text = textOf(render([session('s-1', { projectName: null, projectKey: null, lastAt: null })]));
    expect(text).toMatch(/Claude Code · no project · 4 messages/);
  });

  it('shows nothing at all while no conversation is stored (no empty box)', () => {
    expect(render([])).toBe('');
  });
});
