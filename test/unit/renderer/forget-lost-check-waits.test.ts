import type * as React from 'react';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

// The forget dialog's Yes waits for Forget.Lost however long it takes (a slow disk, a large project): a
// person who confirmed before the warning showed would delete Steward's only copy unwarned. If the check
// fails, the dialog says so, naming the failure, and lets the person forget all the same.

type Lost = { conversations: number; lost: number; onlySubagentsLost: number; subagentsLost: number; unknown: number };
let answer: Lost | undefined;
let failure: Error | undefined;

vi.mock('react', async (original) => {
  const react = await original<typeof React>();
  // Effects run as they are rendered (renderToStaticMarkup runs none): what the dialog tells its button shows.
  return { ...react, useEffect: (effect: () => void) => void effect() };
});

vi.mock('../../../renderer/src/hooks.js', () => ({
  useCall: (method: string) => ({ data: method === 'Forget.Lost' ? answer : undefined, error: method === 'Forget.Lost' ? failure : undefined, loading: answer === undefined && failure === undefined, reload: () => undefined }),
  useAction: () => ({ run: () => Promise.resolve(undefined), busy: false, error: undefined, data: undefined, reset: () => undefined }),
  useEvent: () => undefined,
}));

beforeEach(() => {
  vi.useFakeTimers();
  answer = undefined;
  failure = undefined;
});
afterEach(() => vi.useRealTimers());

async function questions() {
  const { ForgetQuestion } = await import('../../../renderer/src/places/sessions/SessionHeader.js');
  const { ForgetProjectQuestion } = await import('../../../renderer/src/places/projects/ProjectSessions.js');
  return [
    (onKnown: (known: boolean) => void) => createElement(ForgetQuestion, { sessionId: 's1', subagent: false, subagents: 0, onKnown }),
    (onKnown: (known: boolean) => void) => createElement(ForgetProjectQuestion, { projectKey: 'p_1', name: 'orchard', onKnown }),
  ];
}

describe('the forget dialog while Forget.Lost is asked', () => {
  it('keeps Yes off however long the check takes, and says it is checking', async () => {
    for (const question of await questions()) {
      const known: boolean[] = [];
      const html = renderToStaticMarkup(question((k) => known.push(k)));
      vi.advanceTimersByTime(60_000);
      expect(known).not.toContain(true);
      expect(html).toContain('Checking which transcripts are still on disk…');
    }
  });

  it('turns Yes on once the check answers', async () => {
    answer = { conversations: 1, lost: 0, onlySubagentsLost: 0, subagentsLost: 0, unknown: 0 };
    for (const question of await questions()) {
      const known: boolean[] = [];
      const html = renderToStaticMarkup(question((k) => known.push(k)));
      expect(known.at(-1)).toBe(true);
      expect(html).not.toContain('Checking which transcripts');
    }
  });

  it('says when the check failed, naming the failure, and lets the person forget all the same', async () => {
    failure = new Error('The disk did not answer in time.');
    for (const question of await questions()) {
      const known: boolean[] = [];
      const html = renderToStaticMarkup(question((k) => known.push(k)));
      expect(known.at(-1)).toBe(true);
      expect(html).toContain('Steward could not check which transcripts are still on disk (The disk did not answer in time.)');
      expect(html).toMatch(/Forget (this conversation|orchard)\?/);
    }
  });
});

describe('the forget dialog of a conversation whose subagents alone are gone from disk', () => {
  it('says the subagents are lost, not its own transcript, and keeps the way back', async () => {
    const { forgetQuestion } = await import('../../../renderer/src/places/sessions/SessionHeader.js');
    const q = forgetQuestion(false, { conversations: 1, lost: 1, onlySubagentsLost: 1, subagentsLost: 2, unknown: 0 });
    expect(q).toMatch(/^2 of its subagents' transcripts are no longer on disk: Steward holds their only copy; forgetting deletes them for good\. Forget this conversation\?/);
    expect(q).not.toContain("This conversation's transcript is no longer on disk");
    expect(q).toContain('while its transcript stays on disk');
    const { forgetProjectQuestion } = await import('../../../renderer/src/places/projects/ProjectSessions.js');
    expect(forgetProjectQuestion('orchard', { conversations: 5, lost: 3, onlySubagentsLost: 2, subagentsLost: 4, unknown: 0 })).toMatch(
      /^1 of its conversations has no transcript left on disk, and 2 more have subagents whose transcripts are no longer on disk: Steward holds the only copy\. Forgetting the project deletes them for good\. Forget orchard\?/,
    );
  });
});
