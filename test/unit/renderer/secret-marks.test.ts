import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { SessionMessage, SessionPart } from '../../../core/api/index.js';
import { SECRET_LABEL, SecretText } from '../../../renderer/src/components/index.js';
import { MarkdownText } from '../../../renderer/src/components/MarkdownText.js';
import { Conversation } from '../../../renderer/src/places/sessions/Conversation.js';
import { secretRanges } from '../../../renderer/src/places/sessions/secret-ranges.js';

const KEY = 'sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789';
const marked = (raw: string, redacted: string) => secretRanges(raw, redacted).map(([a, b]) => raw.slice(a, b));

describe('where the secrets are in a text shown as written (its redacted twin says)', () => {
  it('finds each secret between the words both share', () => {
    expect(marked(`export OPENAI_API_KEY=${KEY} and it still fails`, 'export OPENAI_API_KEY=[REDACTED] and it still fails')).toEqual([KEY]);
    expect(marked(`a=${KEY} b=ghp_0123456789abcdef0123`, 'a=[REDACTED] b=[REDACTED]')).toEqual([KEY, 'ghp_0123456789abcdef0123']);
  });

  it('finds a secret at either end', () => {
    expect(marked(`${KEY} leaked`, '[REDACTED] leaked')).toEqual([KEY]);
    expect(marked(`token: ${KEY}`, 'token: [REDACTED]')).toEqual([KEY]);
  });

  it('marks no text without secrets', () => {
    expect(secretRanges('nothing here', 'nothing here')).toEqual([]);
  });

  it('where the shared words could fall inside a secret, marks more rather than less', () => {
    // A JWT holds dots; the sentence's dot could be read as its end.
    expect(marked('token eyJhbGc.eyJzdWI.SflKxw. Rotate it.', 'token [REDACTED]. Rotate it.')).toEqual(['eyJhbGc.eyJzdWI.SflKxw']);
    // Two secrets joined by a dot either could hold: all of both is marked.
    expect(marked('see a.b.c.d now', 'see [REDACTED].[REDACTED] now')).toEqual(['a.b.c.d']);
  });

  it('a line cut inside or after a secret is marked from that secret on', () => {
    expect(marked(`export KEY=${KEY.slice(0, 12)}…`, 'export KEY=[REDACTED] and it still…')).toEqual([`${KEY.slice(0, 12)}…`]);
  });

  it('texts that do not match are marked whole: a secret is never shown unmarked', () => {
    expect(marked('something else entirely', 'other [REDACTED] words')).toEqual(['something else entirely']);
  });
});

const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').trim();

describe('a revealed secret', () => {
  it('is marked with words a screen reader says and a class the page styles', () => {
    const html = renderToStaticMarkup(createElement(SecretText, { text: `key ${KEY} here`, ranges: [[4, 4 + KEY.length]] }));
    expect(html).toMatch(new RegExp(`<mark class="secret-mark"><span class="visually-hidden secret-mark__label">${SECRET_LABEL}: </span>${KEY}</mark>`));
    expect(SECRET_LABEL).toBe('secret, shown because you asked');
    expect(text(html)).toBe(`key ${SECRET_LABEL}: ${KEY} here`);
  });

  it('is marked in an assistant’s Markdown, in prose and in code', () => {
    const md = `Set it:\n\n\`\`\`sh\nexport KEY=${KEY}\n\`\`\`\n\nThe key **${KEY}** is \`${KEY}\`.`;
    const ranges: Array<[number, number]> = [];
    for (let at = md.indexOf(KEY); at !== -1; at = md.indexOf(KEY, at + 1)) ranges.push([at, at + KEY.length]);
    const html = renderToStaticMarkup(createElement(MarkdownText, { text: md, secrets: ranges }));
    expect(html.match(/class="secret-mark/g)).toHaveLength(3);
    expect(html).toContain(`<strong><mark class="secret-mark"><span class="visually-hidden secret-mark__label">${SECRET_LABEL}: </span>${KEY}</mark></strong>`);
  });
});

const part = (over: Partial<SessionPart>): SessionPart => ({
  partId: 'cc:u1:0',
  kind: 'text',
  text: '',
  summary: null,
  toolName: null,
  toolUseId: null,
  isError: false,
  truncatedFrom: null,
  image: null,
  genuineUserTurn: true,
  isCompactSummary: false,
  slashCommand: null,
  ...over,
});
const message = (role: string, parts: SessionPart[]): SessionMessage => ({ messageId: `m-${parts[0]?.partId}`, role, ts: null, parts });

describe('a conversation read with its secrets shown', () => {
  const raw = [
    message('user', [part({ text: `I ran: export OPENAI_API_KEY=${KEY} and it still fails` })]),
    message('assistant', [part({ partId: 'cc:a1:0', text: `Rotate \`${KEY}\` now.`, genuineUserTurn: false })]),
    message('assistant', [part({ partId: 'cc:a1:1', kind: 'tool_use', text: JSON.stringify({ command: `curl -H "Bearer ${KEY}"` }), summary: `Bash: curl -H "Bearer ${KEY}"`, genuineUserTurn: false })]),
  ];
  const redacted = raw.map((m) => ({ ...m, parts: m.parts.map((p) => ({ ...p, text: p.text?.replaceAll(KEY, '[REDACTED]') ?? null, summary: p.summary?.replaceAll(KEY, '[REDACTED]') ?? null })) }));
  const render = (twin: readonly SessionMessage[] | undefined) =>
    renderToStaticMarkup(createElement(Conversation, { messages: raw, subagents: [], hitPartId: undefined, app: 'Claude Code', redact: false, redactedTwin: twin }));

  it('marks every secret the redacted reading hid: in the person’s words, the Markdown, a tool call and its line', () => {
    const html = render(redacted);
    expect(html.match(/class="secret-mark/g)).toHaveLength(4);
  });

  it('a part the redacted reading lacks (it could not be loaded) is marked whole: a secret is never shown unmarked', () => {
    const html = render([]);
    expect(html.match(/class="secret-mark/g)?.length ?? 0).toBeGreaterThanOrEqual(4);
  });

  it('read redacted, nothing is marked', () => {
    const html = renderToStaticMarkup(createElement(Conversation, { messages: redacted, subagents: [], hitPartId: undefined, app: 'Claude Code' }));
    expect(html).not.toContain('secret-mark');
  });
});
