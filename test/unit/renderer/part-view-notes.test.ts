import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { SessionMessage, SessionPart } from '../../../core/api/index.js';
import { Conversation } from '../../../renderer/src/places/sessions/Conversation.js';
import { PartView } from '../../../renderer/src/places/sessions/PartView.js';
import { sessionPart } from '../../support/rows.js';

/*
 * Panel QA on the conversation viewer: an image's placeholder looked like a thumbnail to click and did
 * not say why there is no image; a Gemini thought's fold said its subject twice ("Reading", then
 * "Reading" again opening its body).
 */

const KEPT = 'Steward keeps only the image’s type and size, not the image itself.';
const html = (part: SessionPart) => renderToStaticMarkup(createElement(PartView, { part, role: 'user', hit: false, harness: undefined }));
const unescape = (text: string) => text.replace(/&#x27;/g, "'").replace(/&amp;/g, '&');

describe('an image’s placeholder', () => {
  it('an image part: its words unchanged, and a tooltip and description saying what Steward keeps', () => {
    const shown = unescape(html(sessionPart({ partId: 'cc:m:1', kind: 'image', text: null, summary: 'image', image: { mediaType: 'image/png', bytes: 103_424 } })));
    expect(shown).toMatch(/<p class="part__image"[^>]*>Image · PNG, 101 KB<\/p>/);
    expect(shown).toContain(`title="${KEPT}"`);
    expect(shown).toContain(`aria-description="${KEPT}"`);
  });

  it('a tool result’s images say it too', () => {
    const part = sessionPart({ partId: 'cc:u:0', kind: 'tool_result', text: 'ok', summary: '1 line', toolUseId: 't', images: 1, resultImages: [{ mediaType: 'image/png', bytes: 2_867 }] });
    const shown = unescape(html(part));
    expect(shown).toMatch(/<p class="part__image"[^>]*>Image · PNG, 2.8 KB<\/p>/);
    expect(shown).toContain(`title="${KEPT}"`);
  });
});

/** A message of one thought, as Sessions.Get gives it (its summary: the text's first line), in a conversation of `app`. */
function thought(text: string, app: string): string {
  const summary = text.split('\n')[0]!;
  const message = { messageId: 'm1', role: 'assistant', ts: null, parts: [sessionPart({ partId: 'g:m1:th0', kind: 'thinking', text, summary })] } as unknown as SessionMessage;
  return unescape(renderToStaticMarkup(createElement(Conversation, { messages: [message], subagents: [], hitPartId: undefined, app })));
}
const summaryOf = (shown: string) => /<span class="fold__summary">(.*?)<\/span><\/summary>/s.exec(shown)?.[1]?.replace(/<[^>]+>/g, '');
const bodyOf = (shown: string) => /<pre class="fold__body">(.*?)<\/pre>/s.exec(shown)?.[1]?.replace(/<[^>]+>/g, '');

describe('a Gemini thought (its subject, then its description)', () => {
  it('says its subject once: on the folded line, the body going on with the description', () => {
    const shown = thought("Reading\nI'm reading upload.ts to see how retries are spaced.", 'Gemini CLI');
    expect(summaryOf(shown)).toBe('Reading');
    expect(bodyOf(shown)).toBe("I'm reading upload.ts to see how retries are spaced.");
  });

  it('a subject in bold (a thought in a chat’s content) is said once too', () => {
    const shown = thought('**Planning the retry**\n\nBackoff doubles up to 30 s.', 'Gemini CLI');
    expect(summaryOf(shown)).toBe('Planning the retry');
    expect(bodyOf(shown)).toBe('Backoff doubles up to 30 s.');
  });

  it('a thought of only its subject keeps it as its body', () => {
    expect(bodyOf(thought('Reading', 'Gemini CLI'))).toBe('Reading');
  });

  it('another agent’s thinking fold is unchanged', () => {
    const shown = thought('Compare the fares.\nThe cheaper one leaves at 6.', 'Claude Code');
    expect(summaryOf(shown)).toBe('Compare the fares.');
    expect(bodyOf(shown)).toBe('Compare the fares.\nThe cheaper one leaves at 6.');
  });
});
