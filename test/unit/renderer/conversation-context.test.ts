import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { SessionMessage, SessionPart } from '../../../core/api/index.js';
import { joinedContext } from '../../../core/api/reading.js';
import { Conversation } from '../../../renderer/src/places/sessions/Conversation.js';
import { sessionPart } from '../../support/rows.js';

/**
 * The files Gemini CLI added to a prompt (`@src/mail.ts`) are stored as four context parts: the
 * panel, like the exports and `sessions show`, shows them as one "Added context" fold.
 */
const part = (n: number, kind: string, text: string, over: Partial<SessionPart> = {}): SessionPart =>
  sessionPart({ partId: `gm:s:m1:c${n}`, kind, text, summary: kind === 'text' ? null : kind, genuineUserTurn: kind === 'text', ...over });

const asked: SessionMessage = {
  messageId: 'gm:s:m1',
  role: 'user',
  ts: 1,
  parts: [
    part(0, 'text', 'why does send() drop attachments? see @src/mail.ts'),
    part(1, 'context', '\n--- Content from referenced files ---'),
    part(2, 'context', '\nContent from @src/mail.ts:\n'),
    part(3, 'context', 'export function send(msg: Mail) {}\n'),
    part(4, 'context', '\n--- End of content ---'),
  ],
};

const render = (hitPartId: string | undefined) =>
  renderToStaticMarkup(createElement(Conversation, { messages: [asked], subagents: [], hitPartId, app: 'Gemini CLI' }));

describe('context Gemini CLI added to a prompt, in the panel', () => {
  it('is one fold naming the files, its texts in order', () => {
    const html = render(undefined);
    expect(html.match(/Added context/g)).toHaveLength(1);
    expect(html).toContain('Contents of @src/mail.ts');
    expect(html).toContain('--- Content from referenced files ---\nContent from @src/mail.ts:\nexport function send(msg: Mail) {}\n\n--- End of content ---');
    expect(html).toContain('You');
  });

  it('opens for a search hit on any of the parts it holds', () => {
    expect(render('gm:s:m1:c3')).toMatch(/<details class="fold fold--other" open="">/);
    expect(render(undefined)).not.toMatch(/<details class="fold fold--other" open/);
  });

  it('keeps a part capture cut short apart, and joins nothing else', () => {
    const cut = [part(1, 'context', 'a'), part(2, 'context', 'b', { truncatedFrom: 90_000 }), part(3, 'text', 'c'), part(4, 'context', 'd'), part(5, 'context', 'e')];
    expect(joinedContext(cut).map((s) => [s.part.text, s.partIds])).toEqual([
      ['a', ['gm:s:m1:c1']],
      ['b', ['gm:s:m1:c2']],
      ['c', ['gm:s:m1:c3']],
      ['d\ne', ['gm:s:m1:c4', 'gm:s:m1:c5']],
    ]);
  });
});
