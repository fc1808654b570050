import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ConversationNotHeld } from '../../../renderer/src/places/sessions/index.js';

const ID = '00000000-dead-beef-0000-000000000000';
const textOf = (html: string) => html.replace(/<\/?(code|time|span|a)[^>]*>/g, '').replace(/<[^>]+>/g, ' ').replace(/&#x27;|&rsquo;|’/g, "'").replace(/\s+/g, ' ').trim();
const notHeld = (props: Partial<Parameters<typeof ConversationNotHeld>[0]>) => textOf(renderToStaticMarkup(createElement(ConversationNotHeld, { sessionId: ID, record: null, unforgotten: undefined, ...props })));

/** QA: an address for a transcript not imported yet said only that it may be mistyped. */
describe('a conversation Steward holds no record of: perhaps not imported yet', () => {
  it('says the next check may bring it, with when that check is, and offers Check now', () => {
    const said = notHeld({ nextCheckAt: Date.now() + 4 * 60_000 });
    expect(said).toContain(`No conversation in Steward has the id ${ID}.`);
    expect(said).toContain("Steward's next check (in 4 minutes), or at once with Check now.");
    expect(said).toContain('Check now');
    // Still the other reason, after it.
    expect(said).toContain('It may be mistyped');
  });

  /** Review: paused, or with no schedule, there is no next check to promise: it comes once Steward checks, as Check now does. */
  it('without a scheduled check, promises no next check: it appears once Steward checks, at once with Check now', () => {
    const said = notHeld({ nextCheckAt: null });
    expect(said).toContain('it appears once Steward checks, at once with Check now.');
    expect(said).not.toContain('next check');
    expect(said).toContain('It may be mistyped');
  });

  /** Review: a check late to start (the time passed, no tick yet) read "next check (2 minutes ago)". */
  it('a check whose time has passed is due in a moment, never "ago"', () => {
    const said = notHeld({ nextCheckAt: Date.now() - 2 * 60_000 });
    expect(said).toContain("Steward's next check (in a moment), or at once with Check now.");
    expect(said).not.toContain('ago');
  });
});
